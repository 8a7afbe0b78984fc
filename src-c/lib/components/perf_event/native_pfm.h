/* native_pfm.h: the libpfm4 route to native events (native_pfm.c): below the dispatch of
 * native_events.c, beside the sysfs route, above the table. */
#ifndef NATIVE_PFM_H
#define NATIVE_PFM_H

#include <stdbool.h>

#include "native_table.h"

/* Lazy: libpfm4 is initialised on first use. PAPI_OK, or PAPI_ECMP with the reason. */
PAPI_INTERNAL int native_pfm_init(void);
/* A name libpfm4 encodes: recorded (its canonical "pmu::event" and the spelling given)
 * and *code set. When libpfm4 does not know it: PAPI_ENOEVNT without a reason (the caller
 * asks the sysfs route) and *pfm_ret its libpfm4 error. */
PAPI_INTERNAL int native_pfm_name_to_code(const char *name, int *code, int *pfm_ret);
/* attr of a libpfm4-route event counted in domain (PAPI_DOM_*). */
PAPI_INTERNAL int native_pfm_encode(struct native_event *e, int domain,
                                    struct perf_event_attr *attr);
/* Enumeration of libpfm4's PMUs of class cls: the first event of the first PMU from
 * pmu_start, then the next event (or unit mask, PAPI_NTV_ENUM_UMASKS) after e; past
 * libpfm4's last PMU they return NATIVE_PFM_END (the sysfs route's PMUs come next). */
#define NATIVE_PFM_END 1
PAPI_INTERNAL int native_pfm_enum_first(int pmu_start, enum pe_class cls, int *code);
PAPI_INTERNAL int native_pfm_enum_next(const struct native_event *e, int modifier,
                                       enum pe_class cls, int *code);
/* The events libpfm4 lists for class cls; the counters of the core PMU it detected (0
 * when it knows none by model); an event's descriptions. */
PAPI_INTERNAL int native_pfm_count(enum pe_class cls);
PAPI_INTERNAL int native_pfm_core_counters(void);
PAPI_INTERNAL void native_pfm_describe(const struct native_event *e, PAPI_event_info_t *info);
/* Whether libpfm4 describes the events of the sysfs PMU of this perf type (one of its
 * model-specific or uncore tables encodes to it): the sysfs route then does not list it. */
PAPI_INTERNAL bool native_pfm_covers_type(int type);
/* Whether libpfm4 describes this machine's core PMU by its model (not only perf's
 * generic events): then the sysfs route does not list the core PMU's events again. */
PAPI_INTERNAL bool native_pfm_knows_core(void);
/* The model-specific core PMU libpfm4 detected (an architectural one, ix86arch or arm_v8,
 * only when there is no other), or NULL. */
PAPI_INTERNAL const char *native_pfm_core_pmu_name(void);
/* When name's PMU is one of libpfm4's (perf::, the CPU's), never a sysfs one: why it
 * has no such event, with the closest names of that PMU, into out; false otherwise. */
PAPI_INTERNAL bool native_pfm_closest(const char *name, char *out, size_t len);
/* What it found of this machine forgotten (PAPI_shutdown: the next init may replay
 * another one). libpfm4 itself stays initialised. */
PAPI_INTERNAL void native_pfm_reset(void);

#endif
