/* native_events.h: the perf_event component's native events (native_events.c): names to
 * local codes and back, encodings, enumeration and descriptions, whichever route
 * describes an event (native_pfm.h: libpfm4; native_sysfs.h: the kernel's sysfs;
 * native_hybrid.h: one event per core type). The top of those files: none calls back. */
#ifndef NATIVE_EVENTS_H
#define NATIVE_EVENTS_H

#include "native_table.h"

PAPI_INTERNAL int native_init(void); /* lazy: libpfm4 is initialised on first use */
PAPI_INTERNAL void native_shutdown(void);
PAPI_INTERNAL int native_name_to_code(const char *name, int *local);
PAPI_INTERNAL int native_code_to_name(int local, char *out, size_t len);
PAPI_INTERNAL int native_enum(int *local, int modifier, enum pe_class cls);
PAPI_INTERNAL int native_get_info(int local, PAPI_event_info_t *info);
/* The kernel's scale and unit of the event (sysfs route), or PAPI_ENOEVNT quietly. */
PAPI_INTERNAL int native_get_scale(int local, double *scale, char *unit, size_t len);
/* Fill attr for the event counted in domain (PAPI_DOM_*). */
PAPI_INTERNAL int native_encode(int local, int domain, struct perf_event_attr *attr);
PAPI_INTERNAL int native_count_for_class(enum pe_class cls);
PAPI_INTERNAL int native_core_counters(void);
/* The preset tables' CPU: libpfm4's core PMU, or sysfs_cpu_model_table's name. */
PAPI_INTERNAL const char *native_core_pmu_name(void);

#endif
