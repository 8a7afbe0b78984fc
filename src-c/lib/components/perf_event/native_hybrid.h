/* native_hybrid.h: hybrid core PMUs (native_hybrid.c): events named without a PMU, one
 * per core type, summed. Below native_events.c; above the sysfs and libpfm4 routes and
 * the table. */
#ifndef NATIVE_HYBRID_H
#define NATIVE_HYBRID_H

#include <stdbool.h>
#include <sys/types.h>

#include "native_table.h"

/* A name without a PMU ("instructions", "event=0xc0") on the sysfs route: the event of
 * the one core PMU, or on a hybrid machine one event per core PMU (ROUTE_HYBRID). Returns
 * PAPI_OK with *local, or PAPI_ENOEVNT with the reason (papi_error). */
PAPI_INTERNAL int native_hybrid_name_to_code(const char *name, int *local);
/* "<generic event>@<core pmu>" (perf::CYCLES@cpu_atom): libpfm4's generic hardware or
 * cache event opened on that core PMU only (the PMU's type in config bits 32-63); at
 * points at the '@' in name. */
PAPI_INTERNAL int native_hybrid_pinned_to_code(const char *name, const char *at, int *local);
/* The events local stands for, one per core PMU (n >= 2 table indices in subs), when it
 * is summed over core types; 0 when it is one event. */
PAPI_INTERNAL int native_hybrid_subs(int local, int *subs, int max);
/* The sentence describing a summed event's core PMUs, for its description ("" if none). */
PAPI_INTERNAL void native_hybrid_describe(int local, char *out, size_t len);
/* The CPU the counted thread is on: cpu when the context counts one CPU, this thread's
 * for pid 0, /proc/<pid>/stat's for another thread; -1 when unknown. */
PAPI_INTERNAL int native_target_cpu(pid_t pid, int cpu);
/* Whether the hardware event attr opens on a core PMU of part of the CPUs (hybrid) that
 * does not count on cpu: then its group does not run there, by design. */
PAPI_INTERNAL bool native_core_type_elsewhere(const struct perf_event_attr *attr, int cpu);
/* Whether the machine has several core PMUs (sysfs_hybrid_pmus). */
PAPI_INTERNAL bool native_is_hybrid(void);

#endif
