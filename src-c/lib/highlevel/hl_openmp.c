/* hl_openmp.c: the OpenMP table of each named region (hl_openmp.h). The OMPT tool files
 * a parallel region under the innermost named region open on the thread that forked it
 * (papi_region_context.h: each region of each thread has its context id); a named region's
 * table lists those, and its efficiencies are over them and those of the named regions
 * nested in it, as its totals are inclusive (POP/TALP's definitions: src-c/common/
 * pop_factors.h; serialization = the outermost parallel regions' wall time over the
 * named region's real time). */
#include <stdio.h>

#include "hl_openmp.h"
#include "papi_region_context.h"

/* Whether region r2 of t is r or nested in it (its enclosing regions at its first begin). */
static int within(const struct hlr_thread *t, int r2, int r)
{
    for (int depth = 0; r2 >= 0 && depth <= t->nregions; depth++, r2 = t->region[r2].parent)
        if (r2 == r)
            return 1;
    return 0;
}

static void fraction(struct jw *w, const char *key, double v)
{
    if (v < 0)
        jw_null(w, key);
    else
        jw_fixed(w, key, v, 4);
}

/* The "efficiency" object's factors (its serialization where with_serialization), left
 * open for what it is not over. */
static void begin_efficiency(struct jw *w, const struct pop_omp_factors *e, int with_serialization)
{
    jw_obj_begin(w, "efficiency");
    if (with_serialization)
        fraction(w, "serialization", e->serialization);
    fraction(w, "load_balance", e->load_balance);
    fraction(w, "scheduling", e->scheduling);
    fraction(w, "parallel", e->parallel);
}

static void write_parallel(struct jw *w, const struct papi_ompt_table *tb, int row, int mpi)
{
    const struct papi_ompt_parallel *p = &tb->regions[row];
    char name[64];
    jw_obj_begin(w, NULL);
    jw_str(w, "name", p->name);
    jw_hex(w, "address", p->address);
    jw_str(w, "site", p->site);
    if (mpi >= 0 && papi_region_context_name(PAPI_CONTEXT_MPI, mpi, name, sizeof name) == 0)
        jw_str(w, "mpi_region", name);
    else
        jw_null(w, "mpi_region");
    jw_uint(w, "instances", p->instances);
    jw_uint(w, "outermost_instances", p->outermost_instances);
    jw_uint(w, "wall_ns", p->wall_ns);
    jw_uint(w, "lost_ns", p->lost_ns);
    jw_uint(w, "team_max", p->team_max);
    struct pop_omp_factors e = {-1, p->load_balance, p->scheduling, p->parallel};
    begin_efficiency(w, &e, 0);
    jw_uint(w, "unmeasured_implicit_tasks", p->unmeasured_tasks);
    jw_obj_end(w);
    ompt_query_constructs_json(w, tb, row, 0);
    jw_obj_end(w);
}

/* Named region r's table: its own parallel regions, its efficiencies over those and its
 * nested named regions'. */
static void write_region(struct jw *w, const struct ompt_query *o, const struct hlr_thread *t,
                         int r)
{
    const struct papi_ompt_table *tb = &o->table;
    struct papi_ompt_context sum = {0};
    jw_obj_begin(w, t->region[r].name);
    jw_int(w, "context", t->region[r].context);
    jw_arr_begin(w, "parallel_regions");
    for (int c = 0; c < tb->ncontexts; c++) {
        const struct papi_ompt_context *x = &tb->contexts[c];
        int mine = x->named == t->region[r].context && !x->dropped;
        int inside = mine;
        for (int r2 = 0; r2 < t->nregions && !inside; r2++)
            inside = !x->dropped && x->named == t->region[r2].context && within(t, r2, r);
        if (!inside)
            continue;
        ompt_query_add(&sum, x);
        for (int i = 0; mine && i < x->count; i++)
            write_parallel(w, tb, x->first + i, x->mpi);
    }
    jw_arr_end(w);
    jw_uint(w, "parallel_ns", (unsigned long long)sum.parallel_ns);
    struct pop_omp_factors e = ompt_query_efficiency(&sum, (double)t->region[r].total.real);
    begin_efficiency(w, &e, 1);
    jw_uint(w, "unmeasured_implicit_tasks", sum.unmeasured_tasks);
    jw_obj_end(w);
    jw_obj_end(w);
}

void hl_openmp_write_thread(struct jw *w, const struct ompt_query *o, const struct hlr_thread *t)
{
    char key[32];
    snprintf(key, sizeof key, "%d", t->key);
    jw_obj_begin(w, key);
    for (int r = 0; r < t->nregions; r++)
        write_region(w, o, t, r);
    jw_obj_end(w);
}
