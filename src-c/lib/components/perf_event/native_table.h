/* native_table.h: the table of native events this process has named or enumerated
 * (native_table.c). An event's local code (component.h) is its index here; both
 * instances of the component share the table. Entries are never moved or removed before
 * shutdown, so a code stays valid and code -> entry needs no lock. The routes that fill
 * it (native_pfm.c, native_sysfs.c, native_hybrid.c) are above it. */
#ifndef NATIVE_TABLE_H
#define NATIVE_TABLE_H

#include <linux/perf_event.h>
#include <pthread.h>

#include "perf_event_internal.h"

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

/* The entry of a local code, NULL when there is none. */
PAPI_INTERNAL struct native_event *native_lookup(int local);
/* The index of an entry by its name or an alias of it, -1 when there is none. */
PAPI_INTERNAL int native_table_find(const char *name);
/* Record an event of the libpfm4 route (cls: the instance that counts it; attr, when not
 * NULL, encoded for attr_plm); alias, when not NULL, is the spelling the user gave. With
 * enumerated, an existing entry takes pfm_idx and umask_idx (an entry made by name may
 * carry the index of the event an alias stands for; enumeration continues from the
 * alias's own place). Returns the table index or a negative PAPI error. */
PAPI_INTERNAL int native_intern_pfm(const char *name, const char *alias, int pfm_idx, int umask_idx,
                                    enum pe_class cls, int explicit_plm,
                                    const struct perf_event_attr *attr, int attr_plm,
                                    int enumerated);
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
/* Every entry freed (PAPI_shutdown). */
PAPI_INTERNAL void native_table_shutdown(void);

#endif
