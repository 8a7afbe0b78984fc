/* perf_event_internal.h: the perf_event component's native events (native_events.c,
 * native_sysfs.c, native_hybrid.c, sysfs_cpu_model.c) and its two instances' classes. Not
 * seen by the core, which reaches this component only through component.h. The event
 * sets have their own headers (pe_types.h, perf_context.h, perf_read.h ...), the probe's
 * state is pmu_state.h. (These four naming files still call each other: the folder's one
 * call cycle.)
 *
 * One implementation, two instances: "perf_event" (core and software PMUs, counted per
 * thread) and "perf_event_uncore" (uncore PMUs, counted per CPU). An instance's class
 * (PE_CORE / PE_UNCORE) is its struct papi_component's instance pointer. Both share one
 * table of native events (native_events.c), whose index is the local event code. */
#ifndef PERF_EVENT_INTERNAL_H
#define PERF_EVENT_INTERNAL_H

#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "component.h"
#include "pmu_state.h"

enum pe_class { PE_CORE = 0, PE_UNCORE = 1 };

static inline enum pe_class pe_class_of(const struct papi_component *self)
{
    return (enum pe_class)(intptr_t)self->instance;
}

/* ---- native events (native_events.c: libpfm4; native_sysfs.c: the kernel's sysfs) ---- */
/* Which description an event comes from: libpfm4 first where it knows the PMU, the
 * kernel's sysfs description (sysfs_encode.h) for the rest. ROUTE_HYBRID: a name without
 * a PMU on a machine with several core types, one event per core PMU, summed. */
enum native_route { ROUTE_PFM = 0, ROUTE_SYSFS = 1, ROUTE_HYBRID = 2 };
#define NATIVE_MAX_CORE_TYPES 4
struct native_event {
    char *name; /* canonical "pmu::EVENT[:mods]" */
    enum native_route route;
    int pfm_idx;     /* libpfm4 event index (ROUTE_PFM) */
    int umask_idx;   /* libpfm4 attribute index for an enumerated umask, else -1 */
    int sysfs_pmu;   /* ROUTE_SYSFS: the PMU (sysfs_pmu_at); ROUTE_PFM: the core PMU
                              a generic event is restricted to ("perf::CYCLES@cpu_atom"),
                              else -1 */
    int sysfs_event; /* ROUTE_SYSFS: its named event, -1 for raw fields */
    int nsub;        /* hybrid: the events of each core PMU it stands for (table
                              indices), 0 until known or when it is one event */
    int sub[NATIVE_MAX_CORE_TYPES];
    int hybrid_known;            /* nsub decided (ROUTE_PFM: on first use) */
    enum pe_class cls;           /* which instance counts it */
    int explicit_plm;            /* the name carries its own :u/:k modifiers */
    struct perf_event_attr attr; /* encoding for attr_plm */
    int attr_plm;                /* libpfm PFM_PLM* mask the cached attr was made with, -1 none */
    pthread_mutex_t enc_lock;
};
/* Local codes are indices into the table. */
PAPI_INTERNAL int native_init(void); /* lazy: libpfm4 is initialised on first use */
PAPI_INTERNAL void native_shutdown(void);
PAPI_INTERNAL int native_name_to_code(const char *name, int *local);
PAPI_INTERNAL struct native_event *native_lookup(int local);
PAPI_INTERNAL int native_code_to_name(int local, char *out, size_t len);
PAPI_INTERNAL int native_enum(int *local, int modifier, enum pe_class cls);
PAPI_INTERNAL int native_get_info(int local, PAPI_event_info_t *info);
/* Fill attr for the event counted in domain (PAPI_DOM_*). */
PAPI_INTERNAL int native_encode(int local, int domain, struct perf_event_attr *attr);
PAPI_INTERNAL int native_count_for_class(enum pe_class cls);
PAPI_INTERNAL int native_core_counters(void);
/* Record an event of the sysfs route (canon owns its PMU prefix) with its attr, made
 * for the user domain; alias, when not NULL, is the spelling the user gave. Returns the
 * table index or a negative PAPI error. */
PAPI_INTERNAL int native_intern_sysfs(const char *canon, const char *alias, int pmu, int event,
                                      enum pe_class cls, int explicit_plm,
                                      const struct perf_event_attr *attr);
/* A summed per-core-type event (ROUTE_HYBRID) of nsub table indices, and a libpfm4
 * generic event pinned to one core PMU (pmu: sysfs_pmu_at index; attr made for the user
 * domain with the PMU's type in config bits 32-63). Table index or a negative PAPI error. */
PAPI_INTERNAL int native_intern_hybrid(const char *name, const int *subs, int nsub);
PAPI_INTERNAL int native_intern_pinned(const char *name, int pfm_idx, int pmu, int explicit_plm,
                                       const struct perf_event_attr *attr);
/* PAPI_OK when the sysfs PMU pmu is this kernel's (always, unless a recorded machine is
 * replayed: then the same name with the same type), else PAPI_ENOEVNT naming event. */
PAPI_INTERNAL int native_sysfs_pmu_here(int pmu, const char *event);
/* Whether libpfm4 describes the events of the sysfs PMU of this perf type (one of its
 * model-specific or uncore tables encodes to it): the sysfs route then does not list it. */
PAPI_INTERNAL bool native_pfm_covers_type(int type);
/* Whether libpfm4 describes this machine's core PMU by its model (not only perf's
 * generic events): then the sysfs route does not list the core PMU's events again. */
PAPI_INTERNAL bool native_pfm_knows_core(void);

/* The sysfs route (native_sysfs.c). name_to_code: pfm_why is libpfm4's answer, put in
 * the reason when sysfs does not know the name either. */
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

/* ---- hybrid core PMUs (native_hybrid.c) ---------------------------------------------- */
/* A name without a PMU ("instructions", "event=0xc0") on the sysfs route: the event of
 * the one core PMU, or on a hybrid machine one event per core PMU (ROUTE_HYBRID). Returns
 * PAPI_OK with *local, or PAPI_ENOEVNT with the reason (papi_error). */
PAPI_INTERNAL int native_hybrid_name_to_code(const char *name, int *local);
/* "<generic event>@<core pmu>" (perf::CYCLES@cpu_atom): libpfm4's generic hardware or
 * cache event opened on that core PMU only (the PMU's type in config bits 32-63). */
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

/* ---- CPU models newer than libpfm4 (sysfs_cpu_model.c) -------------------------------- */
/* The preset table name of the CPU whose core PMU(s) sysfs lists (read through the
 * file-access root: /proc/cpuinfo, /sys/bus/event_source/devices), for the models that
 * have a table written on the sysfs route ("amd64_fam1ah_zen5", "gnr", "emr", "mtl"), or
 * NULL. */
PAPI_INTERNAL const char *sysfs_cpu_model_table(void);
/* The preset tables' CPU: libpfm4's core PMU, or sysfs_cpu_model_table's name. */
PAPI_INTERNAL const char *native_core_pmu_name(void);

#endif
