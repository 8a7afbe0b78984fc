/* rsmi_double.c: a test double of librocm_smi64.so.1, built by the tests as a shared
 * object with that soname and the signatures of ROCm SMI's own header (rocm_smi.h 5.2,
 * Debian's librocm-smi-dev: the compiler checks the double against it). Two devices with
 * the documented units (uW, an energy counter with its resolution in uJ, millidegrees C,
 * %, bytes, Hz); the test sets readings with rsmi_double_set and loses a device with
 * rsmi_double_lose. Variants by compile definition:
 *   RSMI_DOUBLE_NO_COUNT   lacks rsmi_num_monitor_devices
 *   RSMI_DOUBLE_NO_ENERGY  lacks rsmi_dev_energy_count_get (optional: energy not listed)
 *   RSMI_DOUBLE_MAJOR=n    rsmi_version_get reports major version n (default 5)
 *   RSMI_DOUBLE_DEVICES=n  n devices (0: none) */
#include <string.h>

#include <rocm_smi/rocm_smi.h>

#ifndef RSMI_DOUBLE_MAJOR
#define RSMI_DOUBLE_MAJOR 5
#endif
#ifndef RSMI_DOUBLE_DEVICES
#define RSMI_DOUBLE_DEVICES 2
#endif
#define MAXDEV 2

static struct dev {
    uint64_t power_uw, energy_count, vram_used, vram_total;
    float resolution; /* uJ per count */
    int64_t temp_mc[3];
    uint32_t busy, mem_busy;
    uint64_t sclk_hz[3], mclk_hz[3];
    uint32_t sclk_cur, mclk_cur;
    int no_mem_temp, lost;
} devs[MAXDEV] = {
    {95000000,
     1000000,
     1073741824ULL,
     68702699520ULL,
     15.3f,
     {38000, 45000, 52000},
     0,
     0,
     {500000000, 1700000000, 2100000000},
     {400000000, 1600000000, 1600000000},
     0,
     1,
     0,
     0},
    {42000000,
     5,
     0,
     68702699520ULL,
     15.3f,
     {30000, 31000, 0},
     0,
     0,
     {500000000, 1000000000, 1500000000},
     {400000000, 900000000, 1600000000},
     2,
     2,
     1,
     0},
};
static int initialised;

int rsmi_double_set(unsigned int dv, const char *what, long long v)
{
    if (dv >= MAXDEV)
        return -1;
    struct dev *d = &devs[dv];
    if (!strcmp(what, "power"))
        d->power_uw = (uint64_t)v;
    else if (!strcmp(what, "energy_count"))
        d->energy_count = (uint64_t)v;
    else if (!strcmp(what, "edge"))
        d->temp_mc[0] = v;
    else if (!strcmp(what, "busy"))
        d->busy = (uint32_t)v;
    else if (!strcmp(what, "vram_used"))
        d->vram_used = (uint64_t)v;
    else if (!strcmp(what, "sclk_index"))
        d->sclk_cur = (uint32_t)v;
    else
        return -1;
    return 0;
}

void rsmi_double_lose(unsigned int dv)
{
    devs[dv].lost = 1;
}

int rsmi_double_initialised(void)
{
    return initialised;
}

#define DEV_CHECK(dv)                        \
    do {                                     \
        if ((dv) >= RSMI_DOUBLE_DEVICES)     \
            return RSMI_STATUS_INVALID_ARGS; \
        if (devs[dv].lost)                   \
            return RSMI_STATUS_FILE_ERROR;   \
    } while (0)

rsmi_status_t rsmi_init(uint64_t init_flags)
{
    (void)init_flags;
    initialised++;
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_shut_down(void)
{
    initialised--;
    return RSMI_STATUS_SUCCESS;
}

#ifndef RSMI_DOUBLE_NO_COUNT
rsmi_status_t rsmi_num_monitor_devices(uint32_t *num_devices)
{
    *num_devices = RSMI_DOUBLE_DEVICES;
    return RSMI_STATUS_SUCCESS;
}
#endif

rsmi_status_t rsmi_version_get(rsmi_version_t *version)
{
    version->major = RSMI_DOUBLE_MAJOR;
    version->minor = 2;
    version->patch = 0;
    version->build = "double";
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_status_string(rsmi_status_t status, const char **status_string)
{
    *status_string = status == RSMI_STATUS_FILE_ERROR
                         ? "RSMI_STATUS_FILE_ERROR: problem accessing a file"
                     : status == RSMI_STATUS_NOT_SUPPORTED ? "RSMI_STATUS_NOT_SUPPORTED"
                                                           : "RSMI_STATUS_UNKNOWN_ERROR";
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_power_ave_get(uint32_t dv_ind, uint32_t sensor_ind, uint64_t *power)
{
    DEV_CHECK(dv_ind);
    if (sensor_ind != 0)
        return RSMI_STATUS_NOT_SUPPORTED;
    *power = devs[dv_ind].power_uw;
    return RSMI_STATUS_SUCCESS;
}

#ifndef RSMI_DOUBLE_NO_ENERGY
rsmi_status_t rsmi_dev_energy_count_get(uint32_t dv_ind, uint64_t *power, float *counter_resolution,
                                        uint64_t *timestamp)
{
    DEV_CHECK(dv_ind);
    *power = devs[dv_ind].energy_count;
    *counter_resolution = devs[dv_ind].resolution;
    *timestamp = 123456789;
    return RSMI_STATUS_SUCCESS;
}
#endif

rsmi_status_t rsmi_dev_temp_metric_get(uint32_t dv_ind, uint32_t sensor_type,
                                       rsmi_temperature_metric_t metric, int64_t *temperature)
{
    DEV_CHECK(dv_ind);
    if (metric != RSMI_TEMP_CURRENT || sensor_type > RSMI_TEMP_TYPE_MEMORY ||
        (sensor_type == RSMI_TEMP_TYPE_MEMORY && devs[dv_ind].no_mem_temp))
        return RSMI_STATUS_NOT_SUPPORTED;
    *temperature = devs[dv_ind].temp_mc[sensor_type];
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent)
{
    DEV_CHECK(dv_ind);
    *busy_percent = devs[dv_ind].busy;
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_memory_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent)
{
    DEV_CHECK(dv_ind);
    *busy_percent = devs[dv_ind].mem_busy;
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type,
                                        uint64_t *used)
{
    DEV_CHECK(dv_ind);
    if (mem_type != RSMI_MEM_TYPE_VRAM)
        return RSMI_STATUS_NOT_SUPPORTED;
    *used = devs[dv_ind].vram_used;
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type,
                                        uint64_t *total)
{
    DEV_CHECK(dv_ind);
    if (mem_type != RSMI_MEM_TYPE_VRAM)
        return RSMI_STATUS_NOT_SUPPORTED;
    *total = devs[dv_ind].vram_total;
    return RSMI_STATUS_SUCCESS;
}

rsmi_status_t rsmi_dev_gpu_clk_freq_get(uint32_t dv_ind, rsmi_clk_type_t clk_type,
                                        rsmi_frequencies_t *f)
{
    DEV_CHECK(dv_ind);
    const uint64_t *hz = clk_type == RSMI_CLK_TYPE_SYS   ? devs[dv_ind].sclk_hz
                         : clk_type == RSMI_CLK_TYPE_MEM ? devs[dv_ind].mclk_hz
                                                         : NULL;
    if (!hz)
        return RSMI_STATUS_NOT_SUPPORTED;
    f->num_supported = 3;
    f->current = clk_type == RSMI_CLK_TYPE_SYS ? devs[dv_ind].sclk_cur : devs[dv_ind].mclk_cur;
    for (int i = 0; i < 3; i++)
        f->frequency[i] = hz[i];
    return RSMI_STATUS_SUCCESS;
}
