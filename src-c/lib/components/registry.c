/* registry.c: every component instance, in index order: the one file that names
 * concrete components. A new component is its own folder (whose instance is a
 * struct papi_component, component.h) and one line in the list below (HACKING.md); the
 * core and the event names reach the instances through papi_components[] (registry.h). */
#include "registry.h"

/* X(instance): the index of a component is its position; 0 is the preset component. */
#define PAPI_COMPONENT_LIST(X)                                                            \
    X(perf_event_component)        /* 0: core and software PMUs; presets resolve to it */ \
    X(perf_event_uncore_component) /* 1: the same implementation, uncore PMUs */          \
    X(powercap_component)          /* 2: energy and power limits of the powercap tree */  \
    X(procio_component)            /* 3: the kernel's per-task I/O accounting */          \
    X(sde_component)               /* 4: software-defined events of libraries (libsde) */ \
    X(net_component)               /* network interfaces (/proc/net/dev) */               \
    X(infiniband_component)        /* InfiniBand port counters (/sys/class/infiniband) */ \
    X(coretemp_component)          /* hwmon sensors (/sys/class/hwmon) */                 \
    X(stealtime_component)         /* a VM's steal time per CPU (/proc/stat) */           \
    X(lustre_component)            /* Lustre client traffic (llite stats) */              \
    X(nvml_component)              /* NVIDIA GPUs (libnvidia-ml.so.1 at run time) */      \
    X(rocm_smi_component)          /* AMD GPUs (librocm_smi64.so.1 at run time) */        \
    X(amdgpu_component)            /* AMD GPUs (amdgpu's sysfs, hwmon, gpu_metrics) */    \
    X(cuda_component)              /* NVIDIA GPU metrics (CUPTI's Range Profiler) */      \
    X(rocp_sdk_component)          /* AMD GPU counters (rocprofiler-sdk, per dispatch) */

#define DECLARE(instance) extern struct papi_component instance PAPI_INTERNAL;
PAPI_COMPONENT_LIST(DECLARE)

#define ENTRY(instance) &instance,
struct papi_component *const papi_components[] = {PAPI_COMPONENT_LIST(ENTRY)};
const int papi_num_components = (int)(sizeof papi_components / sizeof papi_components[0]);

_Static_assert(sizeof papi_components / sizeof papi_components[0] <= CMP_MAX,
               "more components than native event codes can carry");
