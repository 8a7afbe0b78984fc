/* ompt_construct_report.c: the constructs' member (ompt_construct_report.h). Read once, at
 * finalize, after the runtime's joins, as the regions' merge reads the slots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "ompt_construct_callbacks.h"
#include "ompt_construct_report.h"
#include "ompt_constructs.h"

struct construct_row {
    int index, kind, region; /* its place in the constructs' table */
    uintptr_t address;
    unsigned nthreads;
    struct ompt_cacc *threads; /* by thread number: the OS threads' pairs summed */
    uint64_t entries, time_ns, wait_ns, created;
};

static void add_pair(struct ompt_cacc *to, const struct ompt_cacc *c)
{
    to->entries += c->entries, to->time_ns += c->time_ns, to->wait_ns += c->wait_ns;
    to->trip += c->trip, to->iterations += c->iterations, to->created += c->created;
}

/* Visits every pair of every slot: fn(rows, pair). */
static void each_pair(struct construct_row *rows,
                      void (*fn)(struct construct_row *, const struct ompt_cacc *))
{
    for (int i = 0; i < ompt_thread_count(); i++) {
        struct ompt_thread *th = ompt_thread_slot(i);
        for (int k = 0; th && k < OMPT_CACC_MAX; k++)
            if (th->cacc[k].construct > 0)
                fn(&rows[th->cacc[k].construct - 1], &th->cacc[k]);
    }
}

static void count_threads(struct construct_row *r, const struct ompt_cacc *c)
{
    if (c->tnum + 1 > r->nthreads)
        r->nthreads = c->tnum + 1;
}

static void sum_pair(struct construct_row *r, const struct ompt_cacc *c)
{
    if (r->threads)
        add_pair(&r->threads[c->tnum], c);
}

uint64_t ompt_constructs_pair_drops(void)
{
    uint64_t n = 0;
    for (int i = 0; i < ompt_thread_count(); i++) {
        struct ompt_thread *th = ompt_thread_slot(i);
        n += th ? th->construct_drops : 0;
    }
    return n;
}

static int by_cost(const void *a, const void *b)
{
    const struct construct_row *x = a, *y = b;
    if (!x->nthreads != !y->nthreads)
        return !x->nthreads - !y->nthreads;
    uint64_t cx = x->time_ns + x->wait_ns, cy = y->time_ns + y->wait_ns;
    return cx < cy ? 1 : cx > cy ? -1 : (x->address > y->address) - (x->address < y->address);
}

static int counts_iterations(int kind)
{
    return kind == OMPT_C_LOOP || kind == OMPT_C_SECTIONS || kind == OMPT_C_TASKLOOP ||
           kind == OMPT_C_DISTRIBUTE;
}

static void put_schedule(struct jw *w, int i)
{
    static const char *const names[] = {"static", "dynamic", "guided", "other"};
    unsigned mask = ompt_construct_schedules(i);
    if (!mask) {
        jw_null(w, "schedule"); /* a runtime of OpenMP 5.1 or older reports loops alone */
        return;
    }
    jw_arr_begin(w, "schedule");
    for (int b = 0; b < 4; b++)
        if (mask & (1u << b))
            jw_str(w, NULL, names[b]);
    jw_arr_end(w);
}

/* A construct's code lies in the compiler's outlined body of its region: named by the
 * function the source wrote it in (gcc's F._omp_fn.N is F's; clang's .omp_outlined. is
 * the region's, whose fork lies in that function). */
static void source_function(struct ompt_name *n, const struct ompt_name *region)
{
    char *gcc = strstr(n->function, "._omp_fn.");
    if (gcc)
        *gcc = '\0';
    else if (strncmp(n->function, ".omp_outlined", 13) == 0 && region && region->function[0])
        snprintf(n->function, sizeof n->function, "%s", region->function);
    else
        return;
    if (n->file[0] && n->line > 0)
        snprintf(n->name, sizeof n->name, "%s (%s:%d)", n->function, n->file, n->line);
    else
        snprintf(n->name, sizeof n->name, "%s", n->function);
}

static void put_row(struct jw *w, struct symbolizer *sym, const struct construct_row *r,
                    const struct ompt_merged *m, const struct ompt_name *names)
{
    struct ompt_name n;
    const struct ompt_name *region = NULL;
    for (int i = 0; i < m->nrows && !region; i++)
        region = m->rows[i].index == r->region ? &names[i] : NULL;
    ompt_name_of(sym, r->address, &n);
    source_function(&n, region);
    jw_obj_begin(w, NULL);
    jw_str(w, "kind", ompt_construct_kind_name(r->kind));
    ompt_name_put(w, &n);
    if (region)
        jw_str(w, "region", region->name);
    else
        jw_null(w, "region");
    jw_uint(w, "entries", r->entries);
    jw_uint(w, "time_ns", r->time_ns);
    jw_uint(w, "wait_ns", r->wait_ns);
    int per_thread_iterations = r->kind == OMPT_C_SINGLE || ompt_constructs_have_dispatch();
    if (r->kind == OMPT_C_LOOP)
        put_schedule(w, r->index);
    if (counts_iterations(r->kind)) { /* each encounter's count; every thread reports it */
        uint64_t trip = 0;
        for (unsigned t = 0; t < r->nthreads; t++)
            trip = r->threads[t].trip > trip ? r->threads[t].trip : trip;
        jw_uint(w, "iterations", trip);
    }
    if (r->kind == OMPT_C_TASK)
        jw_uint(w, "created", r->created);
    jw_arr_begin(w, "threads");
    for (unsigned t = 0; t < r->nthreads; t++) {
        const struct ompt_cacc *c = &r->threads[t];
        jw_obj_begin(w, NULL);
        jw_uint(w, "thread", t);
        jw_uint(w, "entries", c->entries);
        jw_uint(w, "time_ns", c->time_ns);
        jw_uint(w, "wait_ns", c->wait_ns);
        if (counts_iterations(r->kind) || r->kind == OMPT_C_SINGLE) {
            if (per_thread_iterations)
                jw_uint(w, "iterations", c->iterations);
            else
                jw_null(w, "iterations");
        }
        if (r->kind == OMPT_C_TASK)
            jw_uint(w, "created", c->created);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

int ompt_constructs_put(struct jw *w, struct symbolizer *sym, const struct ompt_merged *m,
                        const struct ompt_name *names)
{
    struct construct_row *rows = calloc(OMPT_CONSTRUCTS_MAX, sizeof *rows);
    int bad = !rows;
    if (!bad) {
        each_pair(rows, count_threads);
        for (int i = 0; i < OMPT_CONSTRUCTS_MAX && !bad; i++)
            if (rows[i].nthreads) {
                rows[i].threads = calloc(rows[i].nthreads, sizeof *rows[i].threads);
                bad = !rows[i].threads;
            }
    }
    if (!bad) {
        each_pair(rows, sum_pair);
        for (int i = 0; i < OMPT_CONSTRUCTS_MAX; i++) {
            struct construct_row *r = &rows[i];
            r->index = i;
            r->kind = r->nthreads ? ompt_construct_at(i, &r->address, &r->region) : 0;
            for (unsigned t = 0; t < r->nthreads; t++) {
                r->entries += r->threads[t].entries, r->time_ns += r->threads[t].time_ns;
                r->wait_ns += r->threads[t].wait_ns, r->created += r->threads[t].created;
            }
        }
        /* the used rows first, by cost; the unused ones (no threads) last */
        qsort(rows, OMPT_CONSTRUCTS_MAX, sizeof *rows, by_cost);
        jw_arr_begin(w, "constructs");
        for (int i = 0; i < OMPT_CONSTRUCTS_MAX && rows[i].nthreads; i++)
            put_row(w, sym, &rows[i], m, names);
        jw_arr_end(w);
    } else {
        jw_null(w, "constructs");
    }
    for (int i = 0; rows && i < OMPT_CONSTRUCTS_MAX; i++)
        free(rows[i].threads);
    free(rows);
    return bad ? -1 : 0;
}
