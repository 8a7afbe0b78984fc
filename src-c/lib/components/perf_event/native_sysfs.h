/* native_sysfs.h: the sysfs route to native events (native_sysfs.c): the kernel's own
 * description of the PMUs libpfm4 does not know. Below native_events.c and
 * native_hybrid.c; above the table and the libpfm4 route (which it asks what libpfm4
 * already lists). */
#ifndef NATIVE_SYSFS_H
#define NATIVE_SYSFS_H

#include "native_table.h"

/* pfm_why is libpfm4's answer, put in the reason when sysfs does not know the name either. */
PAPI_INTERNAL int native_sysfs_name_to_code(const char *name, const char *pfm_why, int *local);
/* attr of a sysfs-route event for domain, as the library would open it (no check that
 * the PMU exists on this kernel: see native_sysfs_encode). */
PAPI_INTERNAL void native_sysfs_attr(const struct native_event *e, int domain,
                                     struct perf_event_attr *attr);
/* native_sysfs_attr, refused with the reason when a replayed machine's PMU is not this
 * kernel's (the same name with the same type). */
PAPI_INTERNAL int native_sysfs_encode(const struct native_event *e, int domain,
                                      struct perf_event_attr *attr);
PAPI_INTERNAL int native_sysfs_enum_first(int pmu_start, enum pe_class cls, int *local);
PAPI_INTERNAL int native_sysfs_enum_next(const struct native_event *e, int *local);
PAPI_INTERNAL int native_sysfs_count(enum pe_class cls);
PAPI_INTERNAL void native_sysfs_info(const struct native_event *e, PAPI_event_info_t *info);
/* The named event's .scale and .unit: PAPI_OK, or PAPI_ENOEVNT (quietly) when it has
 * none (raw fields have none). */
PAPI_INTERNAL int native_sysfs_scale(const struct native_event *e, double *scale, char *unit,
                                     size_t len);

#endif
