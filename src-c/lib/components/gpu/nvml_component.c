/* nvml_component.c: the "nvml" component, NVIDIA GPUs through the NVIDIA Management
 * Library. libnvidia-ml.so.1 is found with dlopen at PAPI_library_init, the way the
 * loader finds any library (LD_LIBRARY_PATH, the cache, the default paths), and never
 * linked: a libpapi built here runs where no NVIDIA driver is, and says so. Events are
 * PAPI 7's, one per device, named nvml:::<device name, blanks as '_'>:device_<i>:<event>:
 * power (mW), total_energy_consumption (mJ, counted from PAPI_start), temperature (C),
 * gpu_utilization and memory_utilization (%), total_memory, unallocated_memory,
 * allocated_memory and reserved_memory (bytes), graphics_clock, sm_clock, memory_clock
 * and their _max_ forms (MHz), in NVML's own units (PAPI 7 reports them so). Memory is
 * nvmlDeviceGetMemoryInfo_v2's where the library has it: allocated_memory is then
 * nvidia-smi's memory.used, the driver's reserve apart (reserved_memory); v1's used,
 * which includes that reserve, otherwise, said in the caveat. An event the device or the
 * library's version does not support (NVML_ERROR_NOT_SUPPORTED, a missing symbol) is not
 * listed. GPM metrics (gpm_sm_activity ... gpm_nvlink_tx, averages over the counting
 * interval) are nvml_gpm.c's, listed where the device supports GPM. The engine is
 * gpu_events.c. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu_events.h"
#include "gpu_library.h"
#include "nvml_api.h"
#include "nvml_gpm.h"

#define NVML_SONAME      "libnvidia-ml.so.1"
#define NVML_MAX_DEVICES 64

/* The symbols: required ones disable the component when missing. */
#define NVML_SYMBOLS(X)                       \
    X(nvmlInit_v2, 1)                         \
    X(nvmlShutdown, 1)                        \
    X(nvmlErrorString, 1)                     \
    X(nvmlDeviceGetCount_v2, 1)               \
    X(nvmlDeviceGetHandleByIndex_v2, 1)       \
    X(nvmlDeviceGetName, 1)                   \
    X(nvmlDeviceGetPowerUsage, 0)             \
    X(nvmlDeviceGetTotalEnergyConsumption, 0) \
    X(nvmlDeviceGetTemperature, 0)            \
    X(nvmlDeviceGetUtilizationRates, 0)       \
    X(nvmlDeviceGetClockInfo, 0)              \
    X(nvmlDeviceGetMaxClockInfo, 0)

static struct {
    void *handle;
    int initialised; /* nvmlInit_v2 succeeded: nvmlShutdown owed */
#define FIELD(sym, required) __typeof__(sym) *sym;
    NVML_SYMBOLS(FIELD)
#undef FIELD
    /* Memory's readers, looked up apart (memory_symbols): either serves the events. */
    __typeof__(nvmlDeviceGetMemoryInfo) *nvmlDeviceGetMemoryInfo;
    __typeof__(nvmlDeviceGetMemoryInfo_v2) *nvmlDeviceGetMemoryInfo_v2;
    int mem_v2; /* memory is read with _v2 (choose_memory) */
    nvmlDevice_t dev[NVML_MAX_DEVICES];
} nv;

/* The readings. */
enum { NV_POWER, NV_ENERGY, NV_TEMP, NV_UTIL, NV_MEM, NV_CLOCK, NV_MAX_CLOCK };
enum { MEM_TOTAL, MEM_FREE, MEM_USED, MEM_RESERVED };
enum { UTIL_GPU, UTIL_MEM };

static const struct gpu_kind kinds[] = {
    {"power", "mW", "Power draw of the whole board (GPU, memory ...), in milliwatts", NV_POWER, 0,
     1},
    {"total_energy_consumption", "mJ",
     "Energy the board consumed while counting, in millijoules (NVML's total since the driver "
     "loaded, counted from PAPI_start)",
     NV_ENERGY, 0, 0},
    {"temperature", "C", "GPU die temperature, in degrees Celsius", NV_TEMP, NVML_TEMPERATURE_GPU,
     1},
    {"gpu_utilization", "%",
     "Percent of the last sample period (1/6 s to 1 s) during which a kernel ran", NV_UTIL,
     UTIL_GPU, 1},
    {"memory_utilization", "%",
     "Percent of the last sample period during which device memory was read or written", NV_UTIL,
     UTIL_MEM, 1},
    {"total_memory", "B", "Installed device memory, in bytes", NV_MEM, MEM_TOTAL, 1},
    {"unallocated_memory", "B", "Unallocated device memory, in bytes", NV_MEM, MEM_FREE, 1},
    {"allocated_memory", "B",
     "Device memory allocated, in bytes, as nvidia-smi's memory.used: the driver's reserve "
     "left out (reserved_memory; nvmlDeviceGetMemoryInfo_v2)",
     NV_MEM, MEM_USED, 1},
    {"reserved_memory", "B",
     "Device memory the driver and its firmware reserve, in bytes, as nvidia-smi's "
     "memory.reserved (nvmlDeviceGetMemoryInfo_v2)",
     NV_MEM, MEM_RESERVED, 1},
    {"graphics_clock", "MHz", "Graphics clock now, in MHz", NV_CLOCK, NVML_CLOCK_GRAPHICS, 1},
    {"sm_clock", "MHz", "SM clock now, in MHz", NV_CLOCK, NVML_CLOCK_SM, 1},
    {"memory_clock", "MHz", "Memory clock now, in MHz", NV_CLOCK, NVML_CLOCK_MEM, 1},
    {"graphics_max_clock", "MHz", "Highest graphics clock, in MHz", NV_MAX_CLOCK,
     NVML_CLOCK_GRAPHICS, 1},
    {"sm_max_clock", "MHz", "Highest SM clock, in MHz", NV_MAX_CLOCK, NVML_CLOCK_SM, 1},
    {"memory_max_clock", "MHz", "Highest memory clock, in MHz", NV_MAX_CLOCK, NVML_CLOCK_MEM, 1},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))
/* allocated_memory's description where memory is read with v1. */
static const char used_v1_descr[] =
    "Device memory in use, in bytes, the driver's reserve included (nvmlDeviceGetMemoryInfo: "
    "this NVML has no _v2; a newer driver's nvidia-smi memory.used leaves the reserve out)";

/* The NVML function a reading calls (for reasons) and whether this library has it. */
static const char *function_of(int kind)
{
    const char *const names[] = {
        [NV_POWER] = "nvmlDeviceGetPowerUsage",
        [NV_ENERGY] = "nvmlDeviceGetTotalEnergyConsumption",
        [NV_TEMP] = "nvmlDeviceGetTemperature",
        [NV_UTIL] = "nvmlDeviceGetUtilizationRates",
        [NV_MEM] = nv.mem_v2 ? "nvmlDeviceGetMemoryInfo_v2" : "nvmlDeviceGetMemoryInfo",
        [NV_CLOCK] = "nvmlDeviceGetClockInfo",
        [NV_MAX_CLOCK] = "nvmlDeviceGetMaxClockInfo",
    };
    return names[kind];
}

static int have(int kind)
{
    const void *fn[] = {
        [NV_POWER] = (void *)nv.nvmlDeviceGetPowerUsage,
        [NV_ENERGY] = (void *)nv.nvmlDeviceGetTotalEnergyConsumption,
        [NV_TEMP] = (void *)nv.nvmlDeviceGetTemperature,
        [NV_UTIL] = (void *)nv.nvmlDeviceGetUtilizationRates,
        [NV_MEM] =
            nv.mem_v2 ? (void *)nv.nvmlDeviceGetMemoryInfo_v2 : (void *)nv.nvmlDeviceGetMemoryInfo,
        [NV_CLOCK] = (void *)nv.nvmlDeviceGetClockInfo,
        [NV_MAX_CLOCK] = (void *)nv.nvmlDeviceGetMaxClockInfo,
    };
    return fn[kind] != NULL;
}

/* One of device d's memory readings: v2's where chosen (used without the reserve), else
 * v1's (used with it; no reserve of its own: NOT_SUPPORTED, so the event is not listed). */
static nvmlReturn_t memory_value(nvmlDevice_t d, int arg, uint64_t *value)
{
    if (nv.mem_v2) {
        nvmlMemory_v2_t m = {.version = nvmlMemory_v2};
        nvmlReturn_t r = nv.nvmlDeviceGetMemoryInfo_v2(d, &m);
        *value = arg == MEM_TOTAL  ? m.total
                 : arg == MEM_FREE ? m.free
                 : arg == MEM_USED ? m.used
                                   : m.reserved;
        return r;
    }
    if (arg == MEM_RESERVED)
        return NVML_ERROR_NOT_SUPPORTED;
    nvmlMemory_t m = {0, 0, 0};
    nvmlReturn_t r = nv.nvmlDeviceGetMemoryInfo(d, &m);
    *value = arg == MEM_TOTAL ? m.total : arg == MEM_FREE ? m.free : m.used;
    return r;
}

/* One reading now: an NVML status (0: success). */
static int nvml_value(int device, int kind, int arg, uint64_t *value)
{
    nvmlDevice_t d = nv.dev[device];
    unsigned int u = 0;
    unsigned long long ull = 0;
    nvmlReturn_t r;
    switch (kind) {
    case NV_POWER:
        r = nv.nvmlDeviceGetPowerUsage(d, &u);
        *value = u;
        return r;
    case NV_ENERGY:
        r = nv.nvmlDeviceGetTotalEnergyConsumption(d, &ull);
        *value = ull;
        return r;
    case NV_TEMP:
        r = nv.nvmlDeviceGetTemperature(d, arg, &u);
        *value = u;
        return r;
    case NV_UTIL: {
        nvmlUtilization_t ut = {0, 0};
        r = nv.nvmlDeviceGetUtilizationRates(d, &ut);
        *value = arg == UTIL_GPU ? ut.gpu : ut.memory;
        return r;
    }
    case NV_MEM:
        return memory_value(d, arg, value);
    case NV_CLOCK:
        r = nv.nvmlDeviceGetClockInfo(d, arg, &u);
        *value = u;
        return r;
    default:
        r = nv.nvmlDeviceGetMaxClockInfo(d, arg, &u);
        *value = u;
        return r;
    }
}

static int nvml_read(const struct gpu_event *e, const char *path, uint64_t *value)
{
    (void)path;
    return nvml_value(e->device, e->kind, e->arg, value);
}

static void nvml_explain(const struct gpu_event *e, int err, char *buf, size_t len)
{
    if (e->interval) {
        nvml_gpm_explain(e, err, buf, len);
        return;
    }
    const char *words = nv.nvmlErrorString ? nv.nvmlErrorString(err) : NULL;
    snprintf(buf, len, "%s on device %d failed: %s (NVML error %d)%s", function_of(e->kind),
             e->device, words ? words : "unknown error", err,
             err == NVML_ERROR_GPU_IS_LOST
                 ? ": the GPU fell off the bus or was reset; the other devices still count"
                 : "");
}

static void nvml_release(void)
{
    if (nv.initialised)
        nv.nvmlShutdown();
    if (nv.handle)
        dlclose(nv.handle);
    memset(&nv, 0, sizeof nv);
    nvml_gpm_unload();
}

/* Where the loader found the library, for the reasons. */
static const char *loaded_path(void)
{
    return gpu_library_path(nv.handle, NVML_SONAME);
}

static int load(char *reason, size_t len)
{
    static const struct gpu_library_words words = {
        "no NVIDIA driver is installed here, or its directory is not on LD_LIBRARY_PATH",
        "an NVML of another version (the v2 interface came with driver 319) or not NVIDIA's "
        "library"};
#define SYMBOL(sym, required) {#sym, (void **)&nv.sym, required},
    const struct gpu_symbol syms[] = {NVML_SYMBOLS(SYMBOL)};
#undef SYMBOL
    return gpu_library_open(NVML_SONAME, syms, (int)(sizeof syms / sizeof syms[0]), &words,
                            &nv.handle, reason, len);
}

/* Memory's readers: _v2 (used as nvidia-smi shows it) where the library has it and its
 * devices accept it, v1 otherwise; a library with _v2 whose devices refuse it (another
 * structure version) while v1 answers is read with v1. */
static void choose_memory(unsigned int count)
{
    *(void **)&nv.nvmlDeviceGetMemoryInfo = dlsym(nv.handle, "nvmlDeviceGetMemoryInfo");
    *(void **)&nv.nvmlDeviceGetMemoryInfo_v2 = dlsym(nv.handle, "nvmlDeviceGetMemoryInfo_v2");
    nv.mem_v2 = nv.nvmlDeviceGetMemoryInfo_v2 != NULL;
    for (unsigned int i = 0; nv.mem_v2 && nv.nvmlDeviceGetMemoryInfo && i < count; i++) {
        nvmlMemory_v2_t m2 = {.version = nvmlMemory_v2};
        nvmlMemory_t m1;
        if (!nv.dev[i] || nv.nvmlDeviceGetMemoryInfo_v2(nv.dev[i], &m2) == NVML_SUCCESS)
            continue;
        if (nv.nvmlDeviceGetMemoryInfo(nv.dev[i], &m1) == NVML_SUCCESS)
            nv.mem_v2 = 0;
    }
}

/* Which memory reader counts, appended to the caveat in reason (after load()'s). */
static void note_memory(char *reason, size_t len)
{
    size_t used = strlen(reason);
    const char *sep = used ? "; " : "";
    if (nv.mem_v2)
        snprintf(reason + used, len - used,
                 "%smemory from nvmlDeviceGetMemoryInfo_v2: allocated_memory is nvidia-smi's "
                 "memory.used, the driver's reserve apart in reserved_memory",
                 sep);
    else if (nv.nvmlDeviceGetMemoryInfo)
        snprintf(reason + used, len - used,
                 "%s%s %s nvmlDeviceGetMemoryInfo_v2: memory from nvmlDeviceGetMemoryInfo, "
                 "whose allocated_memory includes the driver's reserve (a newer driver's "
                 "nvidia-smi memory.used does not); reserved_memory is not listed",
                 sep, loaded_path(),
                 nv.nvmlDeviceGetMemoryInfo_v2 ? "has a device that refuses" : "lacks");
    else
        snprintf(reason + used, len - used,
                 "%s%s lacks nvmlDeviceGetMemoryInfo and nvmlDeviceGetMemoryInfo_v2: the memory "
                 "events are not listed",
                 sep, loaded_path());
}

/* The events of device i that it answers now; why it has no GPM events into note. */
static int add_device(struct event_table *t, int i, char *note, size_t len)
{
    char dname[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = "";
    if (nv.nvmlDeviceGetName(nv.dev[i], dname, sizeof dname) != NVML_SUCCESS || !dname[0])
        snprintf(dname, sizeof dname, "GPU");
    dname[sizeof dname - 1] = '\0';
    gpu_sanitize_name(dname);
    for (int k = 0; k < NKINDS; k++) {
        uint64_t v;
        if (!have(kinds[k].kind) || nvml_value(i, kinds[k].kind, kinds[k].arg, &v) != NVML_SUCCESS)
            continue; /* unsupported by this device or this library */
        char name[256], descr[512];
        snprintf(name, sizeof name, "%s:device_%d:%s", dname, i, kinds[k].name);
        int v1_used = !nv.mem_v2 && kinds[k].kind == NV_MEM && kinds[k].arg == MEM_USED;
        snprintf(descr, sizeof descr, "%s (device %d, %s)",
                 v1_used ? used_v1_descr : kinds[k].descr, i, dname);
        int ret = gpu_table_add_kind(t, &kinds[k], i, name, descr);
        if (ret != PAPI_OK)
            return ret;
    }
    return nvml_gpm_add_device(t, i, dname, note, len);
}

/* A caveat after the others in reason. */
static void append(char *reason, size_t len, const char *words)
{
    size_t used = strlen(reason);
    if (words[0])
        snprintf(reason + used, len - used, "%s%s", used ? "; " : "", words);
}

static int nvml_discover(struct gpu_source *src, char *reason, size_t len)
{
    int ret = load(reason, len);
    if (ret != PAPI_OK)
        return ret;
    nvmlReturn_t r = nv.nvmlInit_v2();
    if (r != NVML_SUCCESS) {
        const char *words = nv.nvmlErrorString(r);
        snprintf(reason, len, "no NVIDIA device: nvmlInit_v2 of %s failed: %s (NVML error %d)%s",
                 loaded_path(), words ? words : "unknown error", r,
                 r == NVML_ERROR_DRIVER_NOT_LOADED ? ": the NVIDIA kernel driver is not loaded"
                                                   : "");
        return PAPI_ECMP;
    }
    nv.initialised = 1;
    unsigned int count = 0;
    r = nv.nvmlDeviceGetCount_v2(&count);
    if (r != NVML_SUCCESS || count == 0) {
        snprintf(reason, len, "no NVIDIA device: nvmlDeviceGetCount_v2 of %s found %s",
                 loaded_path(), r == NVML_SUCCESS ? "none" : nv.nvmlErrorString(r));
        return PAPI_ECMP;
    }
    if (count > NVML_MAX_DEVICES)
        count = NVML_MAX_DEVICES;
    for (unsigned int i = 0; i < count; i++)
        if (nv.nvmlDeviceGetHandleByIndex_v2(i, &nv.dev[i]) != NVML_SUCCESS)
            nv.dev[i] = NULL; /* a device NVML cannot open (no permission, lost): no events */
    choose_memory(count);
    char gpm[4096] = "", why[256] = ""; /* the GPM caveat: a line per device at most */
    if (!nvml_gpm_load(nv.handle, nv.dev, why, sizeof why))
        snprintf(gpm, sizeof gpm, "%s %s", loaded_path(), why);
    for (unsigned int i = 0; i < count; i++)
        if (nv.dev[i] && (ret = add_device(&src->common.table, (int)i, gpm, sizeof gpm)) != PAPI_OK)
            return ret;
    if (src->common.table.n == 0) {
        snprintf(reason, len,
                 "no readable NVIDIA device: %s lists %u device(s), none answers a reading",
                 loaded_path(), count);
        return PAPI_ECMP;
    }
    note_memory(reason, len);
    append(reason, len, gpm);
    return PAPI_OK;
}

static struct gpu_source nvml_source = {
    .common = {.prefix = "nvml:::",
               .description =
                   "NVIDIA GPUs through NVML (libnvidia-ml.so.1, loaded at run time): power, "
                   "energy, temperature, utilisation, memory, clocks, GPM",
               .release = nvml_release},
    .discover = nvml_discover,
    .read = nvml_read,
    .explain = nvml_explain,
    .papi_code = nvml_gpm_papi_code,
    .interval = &nvml_gpm_interval,
};

/* The instance the registry lists (components/registry.c). */
struct papi_component nvml_component PAPI_INTERNAL = GPU_COMPONENT("nvml", nvml_source);
