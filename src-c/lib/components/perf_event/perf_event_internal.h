/* perf_event_internal.h: what the files of the perf_event component share. Not seen by
 * the core, which reaches this component only through component.h.
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
#include "papi_globals.h"

enum pe_class { PE_CORE = 0, PE_UNCORE = 1 };

static inline enum pe_class pe_class_of(const struct papi_component *self)
{
    return (enum pe_class)(intptr_t)self->instance;
}

/* ---- PMU access (pmu_access.c) ------------------------------------------------------ */
struct pmu_access {
    bool have_cpu_pmu;        /* a core PMU under /sys/bus/event_source/devices */
    bool software_pmus_only;  /* sysfs lists PMUs, and all are the kernel's software ones */
    bool hw_open_works;       /* a hardware cycles/instructions event actually opened */
    int paranoid;             /* /proc/sys/kernel/perf_event_paranoid, or -100 if unreadable */
    bool cap_perfmon;         /* CAP_PERFMON or CAP_SYS_ADMIN in the effective set */
    int num_hw_counters;      /* general counters usable here; 0 when no PMU */
    bool user_read_allowed;   /* the kernel lets user space read counters (rdpmc,
                                 kernel.perf_user_access) and PAPI_USER_READ is not 0 */
    char reason[PAPI_HUGE_STR_LEN];
};
PAPI_INTERNAL void pmu_access_probe(struct pmu_access *out);
/* fscanf of one value from a small file (sysfs, procfs): 0 when it was there. */
PAPI_INTERNAL int pe_scan_file(const char *path, const char *fmt, ...)
    __attribute__((format(scanf, 2, 3)));
extern struct pmu_access g_pmu PAPI_INTERNAL;
/* perf_event_open with errno preserved. */
PAPI_INTERNAL int perf_syscall_open(struct perf_event_attr *attr, pid_t pid, int cpu,
                                    int group_fd, unsigned long flags);

/* ---- native events through libpfm4 (native_events.c) --------------------------------- */
struct native_event {
    char *name;            /* canonical "pmu::EVENT[:mods]" */
    int pfm_idx;           /* libpfm4 event index */
    int umask_idx;         /* libpfm4 attribute index for an enumerated umask, else -1 */
    enum pe_class cls;     /* which instance counts it */
    int explicit_plm;      /* the name carries its own :u/:k modifiers */
    struct perf_event_attr attr; /* encoding for attr_plm */
    int attr_plm;          /* libpfm PFM_PLM* mask the cached attr was made with, -1 none */
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

/* ---- event-set contexts (perf_context.c) ---------------------------------------------- */
PAPI_INTERNAL int pe_ctx_create(const struct papi_component *self, const struct cmp_target *t,
                                struct cmp_context **ctx);
PAPI_INTERNAL void pe_ctx_destroy(struct cmp_context *ctx);
PAPI_INTERNAL int pe_add(struct cmp_context *ctx, int local, int *slot);
PAPI_INTERNAL int pe_remove(struct cmp_context *ctx, int slot);
PAPI_INTERNAL int pe_start(struct cmp_context *ctx);
PAPI_INTERNAL int pe_stop(struct cmp_context *ctx);
PAPI_INTERNAL int pe_read(struct cmp_context *ctx, struct cmp_count *out);
PAPI_INTERNAL int pe_set_overflow(struct cmp_context *ctx, int slot, uint64_t period);
PAPI_INTERNAL int pe_arm_overflow(struct cmp_context *ctx, int slot, int signo, pid_t tid,
                                  int *source);

/* ---- user-space counter reads (perf_user_access.c) ------------------------------------ */
/* Set the config1 bit that the event's PMU names "rdpmc" in sysfs (arm64 user access);
 * no change when the PMU has no such format (x86 needs none). */
PAPI_INTERNAL void pe_user_access_attr(struct perf_event_attr *attr);
/* Whether user reads can be used at all here (kernel allows them, not switched off). */
PAPI_INTERNAL bool pe_user_read_enabled(void);

#endif
