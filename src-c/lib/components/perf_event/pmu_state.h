/* pmu_state.h: what the probe found about this machine's PMUs and perf_event access
 * (pmu_access.c fills it at each PAPI_library_init), read by the rest of the component:
 * the shared state of the folder, a leaf that reaches nothing. */
#ifndef PMU_STATE_H
#define PMU_STATE_H

#include <stdbool.h>

#include "component.h"

struct pmu_access {
    bool have_cpu_pmu;           /* a core PMU under /sys/bus/event_source/devices */
    bool software_pmus_only;     /* sysfs lists PMUs, and all are the kernel's software ones */
    bool hw_open_works;          /* a hardware cycles/instructions event actually opened */
    int sw_errno;                /* when not: perf_event_open's errno for a software event, 0
                                 if software events open (seccomp, paranoid 3: not even they) */
    int paranoid;                /* /proc/sys/kernel/perf_event_paranoid, or -100 if unreadable */
    bool cap_perfmon;            /* CAP_PERFMON or CAP_SYS_ADMIN in the effective set */
    int num_hw_counters;         /* general counters usable here; 0 when no PMU */
    bool user_read_allowed;      /* the kernel lets user space read counters (rdpmc,
                                 kernel.perf_user_access) and PAPI_USER_READ is not 0 */
    char reason[CMP_REASON_LEN]; /* whole (component.h) */
};
extern struct pmu_access g_pmu PAPI_INTERNAL;

#endif
