/* papi_internal.h: what the library's modules share. Not installed.
 *
 * The model: an event set holds "entries" (what the user added: a preset or a native
 * event) and "natives" (the perf events actually opened). A preset entry points at one
 * or more natives and combines their counts (derived presets). Natives are opened as
 * one perf group per event set, so one read() returns every count; reset, accum and
 * write are arithmetic on a per-native baseline. */
#ifndef PAPI_INTERNAL_H
#define PAPI_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "component.h"
#include "papi.h"

#define PAPI_INTERNAL __attribute__((visibility("hidden")))

/* ---- limits ---------------------------------------------------------------------- */
#define ES_MAX_ENTRIES   128 /* user-visible events per event set */
#define ES_MAX_NATIVES   128 /* native events per event set */
#define MAX_EVENTSETS    65536
#define PRESET_COMPONENT 0   /* presets resolve to natives of perf_event, component 0 */

/* ---- global library state (library_init.c) ----------------------------------------- */
struct papi_globals {
    int init_state;          /* PAPI_NOT_INITED / LOW / HIGH / THREAD bits */
    int debug_level;         /* PAPI_QUIET, PAPI_VERB_ECONT, PAPI_VERB_ESTOP */
    PAPI_debug_handler_t debug_handler;
    int default_domain;
    int default_granularity;
    int multiplex_inited;
    int mpx_slice_ns;        /* PAPI_DEF_MPX_NS */
    int itimer_num, itimer_sig; /* PAPI_DEF_ITIMER; itimer_sig 0: CPU clock, overflow signal */
    unsigned long (*thread_id_fn)(void);
    PAPI_component_info_t cmp[CMP_MAX]; /* papi_components[i]'s description */
};
extern struct papi_globals g_papi PAPI_INTERNAL;

/* Serialises library-wide state changes (event set table, thread list, native table
 * growth). Never taken on the counting hot path. */
extern pthread_mutex_t g_papi_lock PAPI_INTERNAL;

/* ---- errors (errors.c) ------------------------------------------------------------- */
/* Record why a call failed (kept per thread, shown by the verbose debug levels and by
 * papi_strerror_detail) and return code. Every public entry point returns through it
 * or through papi_ok(). */
PAPI_INTERNAL int papi_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
PAPI_INTERNAL const char *papi_last_error_detail(void);
PAPI_INTERNAL int papi_errno_to_papi(int err);

/* ---- scoped_env.c: a variable set around one call into hwloc or libpfm4 -------------- */
/* Locks, then sets name=value if wanted and the user has not set it; returns whether it
 * did. scoped_env_end undoes that and unlocks; always pair the two. */
PAPI_INTERNAL bool scoped_env_begin(const char *name, const char *value, bool wanted);
PAPI_INTERNAL void scoped_env_end(const char *name, bool was_set);

/* ---- event codes routed to components (events/event_codes.c) ------------------------ */
/* The component of a native code, or NULL when the code names none. */
PAPI_INTERNAL struct papi_component *event_component_of(int code);
/* Native name -> full code, asking every component in index order. */
PAPI_INTERNAL int event_native_name_to_code(const char *name, int *code);
PAPI_INTERNAL int event_native_code_to_name(int code, char *out, size_t len);
PAPI_INTERNAL int event_native_exists(int code);

/* ---- presets (preset_events.c; tables from presets/) --------------------------------- */
#define PRESET_MAX_TERMS PAPI_MAX_INFO_TERMS
enum derive_op { DERIVE_NONE = 0, DERIVE_ADD, DERIVE_SUB, DERIVE_POSTFIX, DERIVE_CMPD };
struct rpn_step { /* one token of a compiled postfix formula */
    enum { RPN_TERM, RPN_CONST, RPN_ADD, RPN_SUB, RPN_MUL, RPN_DIV } kind;
    long long value; /* term index or constant */
};
#define RPN_MAX_STEPS 64
struct preset_def {
    int nterms;
    int native_code[PRESET_MAX_TERMS];
    enum derive_op op;
    int nsteps;
    struct rpn_step steps[RPN_MAX_STEPS];
    char postfix[PAPI_2MAX_STR_LEN];
    char note[PAPI_HUGE_STR_LEN];
};
PAPI_INTERNAL int preset_name_to_code(const char *name, int *code);
PAPI_INTERNAL int preset_code_to_name(int code, char *out, size_t len);
/* The definition in force for this machine, or NULL if the preset is not available. */
PAPI_INTERNAL const struct preset_def *preset_lookup(int code);
PAPI_INTERNAL int preset_enum(int *code, int modifier);
PAPI_INTERNAL int preset_get_info(int code, PAPI_event_info_t *info);
PAPI_INTERNAL long long preset_compute(const struct preset_def *def, const long long *terms);
PAPI_INTERNAL void preset_shutdown(void);

/* ---- event sets (eventset_table.c, eventset_events.c) -------------------------------- */
struct es_entry {
    int code;                          /* as the user added it */
    int nterms;
    int term[PRESET_MAX_TERMS];        /* indices into es->nat */
    const struct preset_def *preset;   /* NULL for a native event */
};

/* A native event of the set: slot i of the component context is nat[i], its last
 * reading cnt[i] (frozen while the set is stopped). */
struct es_native {
    int code;             /* native event code */
    int refs;             /* entries using it */
    uint64_t baseline;    /* count that reads as zero */
    uint64_t period;      /* hardware overflow threshold (overflow.c), 0 = counting only */
    uint64_t enabled_base;  /* time_enabled at the baseline: multiplex scaling (multiplex.c) */
    uint64_t running_base;  /* time_running at the baseline */
};

struct eventset {
    int handle;
    int state;             /* PAPI_STOPPED / PAPI_RUNNING | other flag bits */
    int cidx;              /* component, -1 until the first event */
    struct papi_component *cmp; /* papi_components[cidx] once the context exists */
    struct cmp_context *ctx;    /* the component's state for this set, NULL when empty */
    int domain;
    int granularity;
    pid_t owner_tid;       /* thread that created the set (counts itself) */
    pid_t attach_tid;      /* third-party target when PAPI_ATTACHED */
    int cpu;               /* CPU for PAPI_CPU_ATTACHED / system granularity, else -1 */
    int inherit;
    int multiplexed;
    int nentries;
    struct es_entry ent[ES_MAX_ENTRIES];
    int nnat;
    struct es_native nat[ES_MAX_NATIVES];
    struct cmp_count cnt[ES_MAX_NATIVES]; /* the component's last reading, per slot */
    void *overflow;        /* overflow.c state, NULL when none */
    void *profile;         /* profil.c state, NULL when none */
};

PAPI_INTERNAL struct eventset *es_lookup(int handle);      /* NULL if not a live set */
PAPI_INTERNAL int es_get(int handle, struct eventset **es);  /* PAPI_ENOEVST / PAPI_ENOINIT */
/* stop_running 0: a forked child dropping its parent's sets (close, no ioctl). */
PAPI_INTERNAL void es_free_all(int stop_running);
PAPI_INTERNAL int es_add_code(struct eventset *es, int code);
PAPI_INTERNAL int es_remove_code(struct eventset *es, int code);
PAPI_INTERNAL void es_close_all(struct eventset *es);
/* Close and reopen every native (after a domain, attach or granularity change). */
PAPI_INTERNAL int es_reopen_all(struct eventset *es);
PAPI_INTERNAL int es_entry_index(const struct eventset *es, int code);
/* The handle of a running event set holding code, or -1 (asked by the preset tables). */
PAPI_INTERNAL int es_code_in_running_set(int code);

/* ---- counting (counting.c) ------------------------------------------------------------- */
/* Convert the counts (since baseline) into the user's values array. */
PAPI_INTERNAL void es_compute_values(struct eventset *es, long long *values);
/* The one read path: read a running set's counters (a stopped set's are frozen) and
 * fill values; PAPI_read, PAPI_accum, the high-level calls, rates and regions use it. */
PAPI_INTERNAL int es_read_values(struct eventset *es, long long *values);
/* Read the counters of a running set into es->cnt. */
static inline int es_read_counts(struct eventset *es)
{
    return es->cmp->read(es->ctx, es->cnt);
}

/* ---- threads (threads.c) ------------------------------------------------------------- */
PAPI_INTERNAL pid_t papi_gettid(void);
PAPI_INTERNAL void threads_shutdown(void);
PAPI_INTERNAL void *thread_hl_slot(void); /* per-thread high-level state pointer slot */

/* ---- hardware and system information -------------------------------------------------- */
PAPI_INTERNAL void hwinfo_shutdown(void);
PAPI_INTERNAL void sysinfo_shutdown(void);

/* ---- components (core/components.c) --------------------------------------------------- */
PAPI_INTERNAL void components_init(void);
PAPI_INTERNAL void components_shutdown(void);
/* The component of index cidx, or NULL (PAPI_ENOCMP reported) when there is none. */
PAPI_INTERNAL struct papi_component *component_get(int cidx);

/* ---- helpers -------------------------------------------------------------------------- */
/* strlcpy-like: always terminates, returns 1 when the source was truncated. */
PAPI_INTERNAL int papi_strcpy(char *dst, size_t size, const char *src);

#define PAPI_CHECK_INIT()                                                     \
    do {                                                                      \
        if (g_papi.init_state == PAPI_NOT_INITED)                             \
            return papi_error(PAPI_ENOINIT, "PAPI_library_init was not called"); \
    } while (0)

#endif
