/* rocm_smi_component.c: the "rocm_smi" component, AMD GPUs through the ROCm System
 * Management Interface. librocm_smi64.so.1 is loaded with dlopen at PAPI_library_init
 * and never linked; its types come from ROCm SMI's header (Debian's librocm-smi-dev,
 * rocm_smi/rocm_smi.h, 5.2) at build time, and a build without it says so. Events are
 * PAPI 7's, per device: power_average:device=N:sensor=0 (uW), energy_count:device=N (uJ:
 * the counter times its resolution, counted from PAPI_start), temp_current:device=N:
 * sensor=S (millidegrees C; S = 0 edge, 1 junction, 2 memory), busy_percent and
 * memory_busy_percent (%), mem_usage_VRAM and mem_total_VRAM (bytes),
 * gpu_clk_freq_System and gpu_clk_freq_Memory:device=N:current (Hz). What a device or
 * the library does not support is not listed.
 *
 * The library is loaded, and rsmi_init called, only where the kernel lists an AMD GPU
 * (vendor 0x1002 under /sys/class/drm, read through fsroot.h): elsewhere a C++ library
 * would be loaded into every program for nothing, and ROCm SMI would print its own
 * complaints on stderr. rsmi_frequencies_t changed in ROCm 6 (a field
 * in front): the clocks are listed only for a library of major version 5 or less, the
 * layout this build knows; the rest works with any version. The engine is gpu_events.c. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "fsroot.h"
#include "gpu_events.h"
#include "gpu_library.h"

#define RSMI_SONAME "librocm_smi64.so.1"

#ifndef PAPI_HAVE_ROCM_SMI_H
static int rsmi_discover(struct gpu_source *src, char *reason, size_t len)
{
    (void)src;
    snprintf(reason, len,
             "built without ROCm SMI's header (rocm_smi/rocm_smi.h, Debian's librocm-smi-dev): "
             "rebuild with it to use " RSMI_SONAME);
    return PAPI_ECMP;
}
static int rsmi_read(const struct gpu_event *e, const char *path, uint64_t *value)
{
    (void)e, (void)path, (void)value;
    return 1;
}
static void rsmi_explain(const struct gpu_event *e, int err, char *buf, size_t len)
{
    (void)e, (void)err;
    snprintf(buf, len, "no ROCm SMI in this build");
}
static void rsmi_release(void) {}
#else
#include <rocm_smi/rocm_smi.h>

#define RSMI_MAX_DEVICES     64
#define RSMI_CLOCK_MAX_MAJOR 5 /* rsmi_frequencies_t as rocm_smi.h 5.x lays it out */

#define RSMI_SYMBOLS(X)                    \
    X(rsmi_init, 1)                        \
    X(rsmi_shut_down, 1)                   \
    X(rsmi_num_monitor_devices, 1)         \
    X(rsmi_version_get, 1)                 \
    X(rsmi_status_string, 1)               \
    X(rsmi_dev_power_ave_get, 0)           \
    X(rsmi_dev_energy_count_get, 0)        \
    X(rsmi_dev_temp_metric_get, 0)         \
    X(rsmi_dev_busy_percent_get, 0)        \
    X(rsmi_dev_memory_busy_percent_get, 0) \
    X(rsmi_dev_memory_usage_get, 0)        \
    X(rsmi_dev_memory_total_get, 0)        \
    X(rsmi_dev_gpu_clk_freq_get, 0)

static struct {
    void *handle;
    int initialised;
#define FIELD(sym, required) __typeof__(sym) *sym;
    RSMI_SYMBOLS(FIELD)
#undef FIELD
} rs;

enum { RS_POWER, RS_ENERGY, RS_TEMP, RS_BUSY, RS_MEM_BUSY, RS_VRAM_USED, RS_VRAM_TOTAL, RS_CLOCK };

/* A reading and what follows name:device=N in its event's name. */
static const struct rsmi_kind {
    struct gpu_kind k;
    const char *qualifier;
} kinds[] = {
    {{"power_average", "uW", "Average power of the device, in microwatts", RS_POWER, 0, 1},
     ":sensor=0"},
    {{"energy_count", "uJ",
      "Energy the device consumed while counting, in microjoules (the energy counter times its "
      "resolution)",
      RS_ENERGY, 0, 0},
     ""},
    {{"temp_current", "mC", "Edge temperature, in millidegrees Celsius", RS_TEMP,
      RSMI_TEMP_TYPE_EDGE, 1},
     ":sensor=0"},
    {{"temp_current", "mC", "Junction (hotspot) temperature, in millidegrees Celsius", RS_TEMP,
      RSMI_TEMP_TYPE_JUNCTION, 1},
     ":sensor=1"},
    {{"temp_current", "mC", "Memory (VRAM) temperature, in millidegrees Celsius", RS_TEMP,
      RSMI_TEMP_TYPE_MEMORY, 1},
     ":sensor=2"},
    {{"busy_percent", "%", "Percent of time the GPU was busy", RS_BUSY, 0, 1}, ""},
    {{"memory_busy_percent", "%", "Percent of time the GPU memory was busy", RS_MEM_BUSY, 0, 1},
     ""},
    {{"mem_usage_VRAM", "B", "VRAM in use, in bytes", RS_VRAM_USED, RSMI_MEM_TYPE_VRAM, 1}, ""},
    {{"mem_total_VRAM", "B", "VRAM installed, in bytes", RS_VRAM_TOTAL, RSMI_MEM_TYPE_VRAM, 1}, ""},
    {{"gpu_clk_freq_System", "Hz", "System (shader) clock now, in Hz", RS_CLOCK, RSMI_CLK_TYPE_SYS,
      1},
     ":current"},
    {{"gpu_clk_freq_Memory", "Hz", "Memory clock now, in Hz", RS_CLOCK, RSMI_CLK_TYPE_MEM, 1},
     ":current"},
};
#define NKINDS                ((int)(sizeof kinds / sizeof kinds[0]))

static const char *function_of(int kind)
{
    static const char *const names[] = {
        [RS_POWER] = "rsmi_dev_power_ave_get",
        [RS_ENERGY] = "rsmi_dev_energy_count_get",
        [RS_TEMP] = "rsmi_dev_temp_metric_get",
        [RS_BUSY] = "rsmi_dev_busy_percent_get",
        [RS_MEM_BUSY] = "rsmi_dev_memory_busy_percent_get",
        [RS_VRAM_USED] = "rsmi_dev_memory_usage_get",
        [RS_VRAM_TOTAL] = "rsmi_dev_memory_total_get",
        [RS_CLOCK] = "rsmi_dev_gpu_clk_freq_get",
    };
    return names[kind];
}

static int have(int kind)
{
    const void *fn[] = {
        [RS_POWER] = (void *)rs.rsmi_dev_power_ave_get,
        [RS_ENERGY] = (void *)rs.rsmi_dev_energy_count_get,
        [RS_TEMP] = (void *)rs.rsmi_dev_temp_metric_get,
        [RS_BUSY] = (void *)rs.rsmi_dev_busy_percent_get,
        [RS_MEM_BUSY] = (void *)rs.rsmi_dev_memory_busy_percent_get,
        [RS_VRAM_USED] = (void *)rs.rsmi_dev_memory_usage_get,
        [RS_VRAM_TOTAL] = (void *)rs.rsmi_dev_memory_total_get,
        [RS_CLOCK] = (void *)rs.rsmi_dev_gpu_clk_freq_get,
    };
    return fn[kind] != NULL;
}

/* One reading now, in the event's units: an rsmi_status_t (0: success). */
static int rsmi_value(uint32_t dv, int kind, int arg, uint64_t *value)
{
    uint32_t u = 0;
    int64_t i64 = 0;
    rsmi_status_t r;
    switch (kind) {
    case RS_POWER:
        return rs.rsmi_dev_power_ave_get(dv, (uint32_t)arg, value);
    case RS_ENERGY: {
        uint64_t count = 0, ts = 0;
        float resolution = 0;
        r = rs.rsmi_dev_energy_count_get(dv, &count, &resolution, &ts);
        *value = (uint64_t)((double)count * (double)resolution);
        return r;
    }
    case RS_TEMP:
        r = rs.rsmi_dev_temp_metric_get(dv, (uint32_t)arg, RSMI_TEMP_CURRENT, &i64);
        *value = (uint64_t)i64; /* a signed reading: PAPI_DATATYPE_INT64 */
        return r;
    case RS_BUSY:
        r = rs.rsmi_dev_busy_percent_get(dv, &u);
        *value = u;
        return r;
    case RS_MEM_BUSY:
        r = rs.rsmi_dev_memory_busy_percent_get(dv, &u);
        *value = u;
        return r;
    case RS_VRAM_USED:
        return rs.rsmi_dev_memory_usage_get(dv, (rsmi_memory_type_t)arg, value);
    case RS_VRAM_TOTAL:
        return rs.rsmi_dev_memory_total_get(dv, (rsmi_memory_type_t)arg, value);
    default: {
        rsmi_frequencies_t f;
        memset(&f, 0, sizeof f);
        r = rs.rsmi_dev_gpu_clk_freq_get(dv, (rsmi_clk_type_t)arg, &f);
        if (r == RSMI_STATUS_SUCCESS && f.current >= f.num_supported)
            return RSMI_STATUS_UNEXPECTED_DATA; /* never index past what it filled */
        *value = r == RSMI_STATUS_SUCCESS ? f.frequency[f.current] : 0;
        return r;
    }
    }
}

static int rsmi_read(const struct gpu_event *e, const char *path, uint64_t *value)
{
    (void)path;
    return rsmi_value((uint32_t)e->device, e->kind, e->arg, value);
}

static const char *status_words(int err)
{
    const char *words = NULL;
    if (!rs.rsmi_status_string || rs.rsmi_status_string((rsmi_status_t)err, &words) != 0)
        return "unknown status";
    return words ? words : "unknown status";
}

static void rsmi_explain(const struct gpu_event *e, int err, char *buf, size_t len)
{
    snprintf(buf, len, "%s on device %d failed: %s (RSMI status %d)", function_of(e->kind),
             e->device, status_words(err), err);
}

static void rsmi_release(void)
{
    if (rs.initialised)
        rs.rsmi_shut_down();
    if (rs.handle)
        dlclose(rs.handle);
    memset(&rs, 0, sizeof rs);
}

static const char *loaded_path(void)
{
    return gpu_library_path(rs.handle, RSMI_SONAME);
}

static int load(char *reason, size_t len)
{
    static const struct gpu_library_words words = {
        "ROCm SMI is not installed here, or its directory is not on LD_LIBRARY_PATH",
        "a ROCm SMI of another version, or not ROCm SMI"};
#define SYMBOL(sym, required) {#sym, (void **)&rs.sym, required},
    const struct gpu_symbol syms[] = {RSMI_SYMBOLS(SYMBOL)};
#undef SYMBOL
    return gpu_library_open(RSMI_SONAME, syms, (int)(sizeof syms / sizeof syms[0]), &words,
                            &rs.handle, reason, len);
}

/* Whether the kernel lists an AMD GPU: a /sys/class/drm/cardN whose device/vendor is
 * 0x1002. */
static int amd_gpu_listed(void)
{
    DIR *d = fsroot_opendir("/sys/class/drm");
    struct dirent *de;
    int found = 0;
    if (!d)
        return 0;
    while (!found && (de = readdir(d))) {
        char path[512], vendor[32];
        if (strncmp(de->d_name, "card", 4) != 0 || strchr(de->d_name, '-'))
            continue;
        snprintf(path, sizeof path, "/sys/class/drm/%s/device/vendor", de->d_name);
        found = fsroot_read_line(path, vendor, sizeof vendor) == 0 && !strcmp(vendor, "0x1002");
    }
    closedir(d);
    return found;
}

static int add_device(struct event_table *t, uint32_t dv, int clocks)
{
    for (int k = 0; k < NKINDS; k++) {
        uint64_t v;
        if (!have(kinds[k].k.kind) || (kinds[k].k.kind == RS_CLOCK && !clocks) ||
            rsmi_value(dv, kinds[k].k.kind, kinds[k].k.arg, &v) != RSMI_STATUS_SUCCESS)
            continue; /* unsupported by this device or this library */
        char name[256], descr[512];
        snprintf(name, sizeof name, "%s:device=%u%s", kinds[k].k.name, dv, kinds[k].qualifier);
        snprintf(descr, sizeof descr, "%s (device %u)", kinds[k].k.descr, dv);
        int ret = gpu_table_add_kind(t, &kinds[k].k, (int)dv, name, descr);
        if (ret != PAPI_OK)
            return ret;
    }
    return PAPI_OK;
}

static int rsmi_discover(struct gpu_source *src, char *reason, size_t len)
{
    if (!amd_gpu_listed()) { /* first: no C++ library loaded into every program */
        snprintf(reason, len,
                 "no GPU: %s/sys/class/drm lists no AMD GPU (vendor 0x1002; amdgpu driver not "
                 "loaded): " RSMI_SONAME " not loaded, rsmi_init not called",
                 fsroot());
        return PAPI_ECMP;
    }
    int ret = load(reason, len);
    if (ret != PAPI_OK)
        return ret;
    rsmi_status_t r = rs.rsmi_init(0);
    if (r != RSMI_STATUS_SUCCESS) {
        snprintf(reason, len, "no GPU: rsmi_init of %s failed: %s (RSMI status %d)", loaded_path(),
                 status_words(r), (int)r);
        return PAPI_ECMP;
    }
    rs.initialised = 1;
    rsmi_version_t ver;
    memset(&ver, 0, sizeof ver);
    r = rs.rsmi_version_get(&ver);
    if (r != RSMI_STATUS_SUCCESS) {
        snprintf(reason, len, "rsmi_version_get of %s failed: %s: its version is unknown",
                 loaded_path(), status_words(r));
        return PAPI_ECMP;
    }
    uint32_t count = 0;
    r = rs.rsmi_num_monitor_devices(&count);
    if (r != RSMI_STATUS_SUCCESS || count == 0) {
        snprintf(reason, len, "no GPU: rsmi_num_monitor_devices of %s found %s", loaded_path(),
                 r == RSMI_STATUS_SUCCESS ? "none" : status_words(r));
        return PAPI_ECMP;
    }
    if (count > RSMI_MAX_DEVICES)
        count = RSMI_MAX_DEVICES;
    int clocks = ver.major <= RSMI_CLOCK_MAX_MAJOR;
    for (uint32_t dv = 0; dv < count; dv++)
        if ((ret = add_device(&src->common.table, dv, clocks)) != PAPI_OK)
            return ret;
    size_t used = strlen(reason); /* a caveat of load() is kept */
    if (!clocks)
        snprintf(reason + used, len - used,
                 "%s%s is version %u.%u.%u: its rsmi_frequencies_t is not the 5.x layout this "
                 "build knows, so gpu_clk_freq_* are not listed (the other events are)",
                 used ? "; " : "", loaded_path(), ver.major, ver.minor, ver.patch);
    return PAPI_OK;
}
#endif

static struct gpu_source rocm_smi_source = {
    .common = {.prefix = "rocm_smi:::",
               .description =
                   "AMD GPUs through ROCm SMI (librocm_smi64.so.1, loaded at run time): power, "
                   "energy, temperature, busy percent, memory, clocks",
               .release = rsmi_release},
    .discover = rsmi_discover,
    .read = rsmi_read,
    .explain = rsmi_explain,
};

/* The instance the registry lists (components/registry.c). */
struct papi_component rocm_smi_component PAPI_INTERNAL = GPU_COMPONENT("rocm_smi", rocm_smi_source);
