/* ompt_construct_report.c: the constructs merged and their member of the tool's file
 * (ompt_construct_report.h). Read at a report, after the runtime's joins, as the regions'
 * merge reads the slots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "ompt_construct_callbacks.h"
#include "ompt_construct_report.h"
#include "ompt_constructs.h"

static void add_pair(struct ompt_cacc *to, const struct ompt_cacc *c)
{
    to->entries += c->entries, to->time_ns += c->time_ns, to->wait_ns += c->wait_ns;
    to->trip += c->trip, to->iterations += c->iterations, to->created += c->created;
}

/* Visits every pair of every slot: fn(the row of its construct, pair). */
static void each_pair(struct ompt_construct_row *rows,
                      void (*fn)(struct ompt_construct_row *, const struct ompt_cacc *))
{
    for (int i = 0; i < ompt_thread_count(); i++) {
        struct ompt_thread *th = ompt_thread_slot(i);
        for (int k = 0; th && k < OMPT_CACC_MAX; k++)
            if (th->cacc[k].construct > 0)
                fn(&rows[th->cacc[k].construct - 1], &th->cacc[k]);
    }
}

static void count_threads(struct ompt_construct_row *r, const struct ompt_cacc *c)
{
    if (c->tnum + 1 > r->nthreads)
        r->nthreads = c->tnum + 1;
}

static void sum_pair(struct ompt_construct_row *r, const struct ompt_cacc *c)
{
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

/* The used rows first, by cost (time plus wait), then by address. */
static int by_cost(const void *a, const void *b)
{
    const struct ompt_construct_row *x = a, *y = b;
    if (!x->nthreads != !y->nthreads)
        return !x->nthreads - !y->nthreads;
    uint64_t cx = x->time_ns + x->wait_ns, cy = y->time_ns + y->wait_ns;
    uintptr_t ax = x->name.address, ay = y->name.address;
    return cx < cy ? 1 : cx > cy ? -1 : (ax > ay) - (ax < ay);
}

/* A construct's code lies in the compiler's outlined body of its region (gcc's
 * F._omp_fn.N, clang's .omp_outlined.): named by the function the source wrote it in,
 * the one that forks the region (as the region's name has it: a Fortran program's, not
 * its MAIN__), else F. */
static void source_function(struct ompt_name *n, const struct ompt_name *region)
{
    char *gcc = strstr(n->function, "._omp_fn.");
    if (!gcc && strncmp(n->function, ".omp_outlined", 13) != 0)
        return;
    if (region && region->function[0])
        snprintf(n->function, sizeof n->function, "%s", region->function);
    else if (gcc)
        *gcc = '\0';
    else
        return;
    if (n->file[0] && n->line > 0)
        snprintf(n->name, sizeof n->name, "%s (%s:%d)", n->function, n->file, n->line);
    else
        snprintf(n->name, sizeof n->name, "%s", n->function);
}

void ompt_construct_name(struct symbolizer *sym, int i, struct ompt_name *n)
{
    uintptr_t address;
    int region;
    struct ompt_name forks;
    ompt_construct_at(i, &address, &region);
    ompt_name_of(sym, address, n);
    if (region >= 0)
        ompt_name_of(sym, ompt_region_address(region), &forks);
    source_function(n, region >= 0 ? &forks : NULL);
}

void ompt_construct_rows_free(struct ompt_construct_rows *c)
{
    for (int i = 0; c->rows && i < c->n; i++)
        free(c->rows[i].threads);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

int ompt_constructs_merge(struct ompt_construct_rows *out, struct symbolizer *sym,
                          const struct ompt_merged *m, const struct ompt_name *names)
{
    struct ompt_construct_row *rows = calloc(OMPT_CONSTRUCTS_MAX, sizeof *rows);
    memset(out, 0, sizeof *out);
    if (!rows)
        return -1;
    each_pair(rows, count_threads);
    int n = 0, bad = 0;
    for (int i = 0; i < OMPT_CONSTRUCTS_MAX; i++) {
        rows[i].index = i;
        if (!rows[i].nthreads)
            continue;
        n++;
        rows[i].threads = calloc(rows[i].nthreads, sizeof *rows[i].threads);
        bad |= !rows[i].threads;
    }
    out->rows = rows, out->n = OMPT_CONSTRUCTS_MAX;
    if (bad) {
        ompt_construct_rows_free(out);
        return -1;
    }
    each_pair(rows, sum_pair);
    for (int i = 0; i < OMPT_CONSTRUCTS_MAX; i++) {
        struct ompt_construct_row *r = &rows[i];
        if (!r->nthreads)
            continue;
        uintptr_t address;
        r->kind = ompt_construct_at(i, &address, &r->region);
        for (unsigned t = 0; t < r->nthreads; t++) {
            const struct ompt_cacc *c = &r->threads[t];
            r->entries += c->entries, r->time_ns += c->time_ns, r->wait_ns += c->wait_ns;
            r->created += c->created;
            r->trip = c->trip > r->trip ? c->trip : r->trip; /* each thread saw the whole */
        }
        r->row = -1;
        for (int k = 0; k < m->nrows && r->row < 0; k++)
            r->row = m->rows[k].index == r->region ? k : -1;
        ompt_name_of(sym, address, &r->name);
        source_function(&r->name, r->row >= 0 ? &names[r->row] : NULL);
    }
    qsort(rows, OMPT_CONSTRUCTS_MAX, sizeof *rows, by_cost);
    out->n = n;
    return 0;
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

static void put_thread(struct jw *w, const struct ompt_construct_row *r, unsigned t)
{
    const struct ompt_cacc *c = &r->threads[t];
    jw_obj_begin(w, NULL);
    jw_uint(w, "thread", t);
    jw_uint(w, "entries", c->entries);
    jw_uint(w, "time_ns", c->time_ns);
    jw_uint(w, "wait_ns", c->wait_ns);
    if (counts_iterations(r->kind) || r->kind == OMPT_C_SINGLE) {
        if (r->kind == OMPT_C_SINGLE || ompt_constructs_have_dispatch())
            jw_uint(w, "iterations", c->iterations);
        else
            jw_null(w, "iterations"); /* the runtime declined dispatch */
    }
    if (r->kind == OMPT_C_TASK)
        jw_uint(w, "created", c->created);
    jw_obj_end(w);
}

static void put_row(struct jw *w, const struct ompt_construct_row *r, const struct ompt_name *names)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "kind", ompt_construct_kind_name(r->kind));
    ompt_name_put(w, &r->name);
    if (r->row >= 0) {
        jw_str(w, "region", names[r->row].name);
        jw_int(w, "region_index", r->row);
    } else {
        jw_null(w, "region");
        jw_null(w, "region_index");
    }
    jw_uint(w, "entries", r->entries);
    jw_uint(w, "time_ns", r->time_ns);
    jw_uint(w, "wait_ns", r->wait_ns);
    if (r->kind == OMPT_C_LOOP)
        put_schedule(w, r->index);
    if (counts_iterations(r->kind))
        jw_uint(w, "iterations", r->trip);
    if (r->kind == OMPT_C_TASK)
        jw_uint(w, "created", r->created);
    jw_arr_begin(w, "threads");
    for (unsigned t = 0; t < r->nthreads; t++)
        put_thread(w, r, t);
    jw_arr_end(w);
    jw_obj_end(w);
}

void ompt_constructs_put(struct jw *w, struct symbolizer *sym, const struct ompt_merged *m,
                         const struct ompt_name *names)
{
    struct ompt_construct_rows c;
    if (ompt_constructs_merge(&c, sym, m, names) != 0) {
        jw_null(w, "constructs");
        return;
    }
    jw_arr_begin(w, "constructs");
    for (int i = 0; i < c.n; i++)
        put_row(w, &c.rows[i], names);
    jw_arr_end(w);
    ompt_construct_rows_free(&c);
}
