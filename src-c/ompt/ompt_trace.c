/* ompt_trace.c: the logged slices handed over (ompt_trace.h). The logs are read as their
 * threads left them: a slice is taken once its thread published it (the log's count,
 * release/acquire), an end not yet stored is "now" (a worker's join barrier and implicit
 * task end only at its team's next fork: a barrier open now is its join). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "mono_clock.h"
#include "ompt_construct_report.h"
#include "ompt_constructs.h"
#include "ompt_names.h"
#include "ompt_spans.h"
#include "ompt_threads.h"
#include "ompt_trace.h"

/* Region i's name index in s (named at its first slice; -1 for a dropped region). */
static int region_name(struct trace_omp_spans *s, struct symbolizer **sym, int *names, int i)
{
    if (i < 0 || i >= OMPT_REGIONS_MAX)
        return -1;
    if (names[i] == -2) {
        struct ompt_name name;
        if (!*sym)
            *sym = sym_open_process();
        ompt_name_of(*sym, ompt_region_address(i), &name);
        names[i] = trace_omp_spans_name(s, name.name);
    }
    return names[i];
}

/* Construct i's name index in s: "ROLE function (file:line)" (trace_region_type.h),
 * named at its first slice. */
static int construct_name(struct trace_omp_spans *s, struct symbolizer **sym, int *names, int i,
                          int kind)
{
    if (i < 0 || i >= OMPT_CONSTRUCTS_MAX)
        return -1;
    if (names[i] == -2) {
        struct ompt_name name;
        char full[TRACE_OMP_NAME_LEN];
        if (!*sym)
            *sym = sym_open_process();
        ompt_construct_name(*sym, i, &name);
        int k = snprintf(full, sizeof full, "%s ", trace_omp_kind_name(kind));
        size_t n = strnlen(name.name, sizeof full - (size_t)k - 1); /* a long name cut */
        memcpy(full + k, name.name, n);
        full[(size_t)k + n] = '\0';
        names[i] = trace_omp_spans_name(s, full);
    }
    return names[i];
}

/* One thread's log into s: 0, or -1 when out of memory. */
static int collect_log(struct trace_omp_spans *s, const struct ompt_span_log *l, uint64_t now,
                       struct symbolizer **sym, int *names, int *cnames)
{
    uint64_t n = atomic_load_explicit(&l->n, memory_order_acquire);
    s->dropped += atomic_load_explicit(&l->dropped, memory_order_relaxed);
    for (uint64_t k = 0; k < n; k++) {
        const struct ompt_span *o = &l->span[k];
        uint64_t end = atomic_load_explicit(&o->end, memory_order_relaxed);
        struct trace_omp_span sp = {
            .start = o->start,
            .end = end ? end : now,
            .instance = o->instance,
            .thread = l->tid,
            .kind = atomic_load_explicit(&o->kind, memory_order_relaxed),
            .name = -1,
        };
        if (sp.end < sp.start)
            sp.end = sp.start;
        if (!end && sp.kind == TRACE_OMP_BARRIER)
            sp.kind = TRACE_OMP_JOIN; /* a barrier still open between regions: a worker's join */
        if (sp.kind == TRACE_OMP_PARALLEL)
            sp.name = region_name(s, sym, names, o->region);
        else if (sp.kind >= TRACE_OMP_LOOP) /* a construct's: its index in region */
            sp.name = construct_name(s, sym, cnames, o->region, sp.kind);
        if (trace_omp_spans_push(s, &sp) != 0)
            return -1;
    }
    return 0;
}

int ompt_trace_collect(struct trace_omp_spans *s)
{
    static int names[OMPT_REGIONS_MAX], cnames[OMPT_CONSTRUCTS_MAX];
    struct symbolizer *sym = NULL;
    memset(s, 0, sizeof *s);
    if (!ompt_spans_on)
        return -1;
    for (int i = 0; i < OMPT_REGIONS_MAX; i++)
        names[i] = -2;
    for (int i = 0; i < OMPT_CONSTRUCTS_MAX; i++)
        cnames[i] = -2;
    ompt_spans_origin(&s->tick0, &s->mono0);
    uint64_t now = tick_clock();
    s->mono1 = mono_clock_ns();
    s->tick1 = tick_clock();
    int rc = 0;
    for (int i = 0; i < ompt_thread_count() && rc == 0; i++) {
        const struct ompt_thread *th = ompt_thread_slot(i);
        const struct ompt_span_log *l =
            th ? ompt_spans_log(__atomic_load_n(&th->spans, __ATOMIC_ACQUIRE)) : NULL;
        if (l)
            rc = collect_log(s, l, now, &sym, names, cnames);
    }
    /* the logs of ended threads (their slots reused), and the threads without one */
    for (const struct ompt_span_log *l = ompt_spans_retired(); l && rc == 0; l = l->retired_next)
        rc = collect_log(s, l, now, &sym, names, cnames);
    s->dropped += ompt_spans_unlogged();
    if (sym)
        sym_close(sym);
    if (rc != 0)
        trace_omp_spans_free(s);
    return rc;
}

void ompt_trace_save_for_papi_run(void)
{
    const char *path = env_get("PAPI_RUN_OMPT_TRACE_FILE");
    struct trace_omp_spans s;
    if (!path || !*path)
        return;
    int rc = ompt_trace_collect(&s);
    if (rc == 0)
        trace_omp_spans_to_mono(&s);
    int fd = rc == 0 ? handover_open(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    if (rc != 0 || fd < 0 || trace_omp_spans_save(fd, (long)getpid(), &s) != 0)
        fprintf(stderr, "papi_ompt: %s: the OpenMP slices not written: %s\n", path,
                rc != 0 ? "out of memory" : handover_strerror(errno));
    if (fd >= 0)
        close(fd);
    trace_omp_spans_free(&s);
}
