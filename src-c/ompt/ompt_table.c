/* ompt_table.c: the merged regions grouped by context (ompt_table.h), each named as the
 * tool's file names it (with its site) and with its efficiencies; a context's sums are those the run's
 * efficiencies are formed from (src-c/common/pop_factors.h), over its regions alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompt_construct_report.h"
#include "ompt_constructs.h"
#include "ompt_contexts.h"
#include "ompt_merge.h"
#include "ompt_report.h"
#include "ompt_table.h"

static int by_context(const void *a, const void *b)
{
    const struct ompt_region_row *x = a, *y = b;
    if (x->context != y->context)
        return x->context < y->context ? -1 : 1;
    return x->wall_ns < y->wall_ns ? 1 : x->wall_ns > y->wall_ns ? -1 : x->index - y->index;
}

static double or_none(double v)
{
    return v < 0 ? -1 : v > 1 ? 1 : v;
}

static void fill_region(struct papi_ompt_parallel *p, const struct ompt_name *name,
                        const struct ompt_region_row *r, struct pop_omp_in *sums)
{
    snprintf(p->name, sizeof p->name, "%s", name->name);
    snprintf(p->site, sizeof p->site, "%s", name->site);
    p->address = r->address;
    p->instances = r->instances, p->outermost_instances = r->outer_instances;
    p->wall_ns = r->wall_ns, p->lost_ns = ompt_report_lost_ns(r);
    p->team_max = r->team_max;
    struct pop_omp_factors e = ompt_report_efficiency(r, sums);
    p->load_balance = or_none(e.load_balance), p->scheduling = or_none(e.scheduling);
    p->parallel = or_none(e.parallel);
    p->unmeasured_tasks = r->unmeasured_tasks;
}

static void open_context(struct papi_ompt_context *c, unsigned ctx, int first)
{
    memset(c, 0, sizeof *c);
    c->dropped = ctx == OMPT_CONTEXT_DROPPED;
    ompt_context_of(ctx, &c->named, &c->mpi);
    c->first = first;
}

/* The constructs, each with its region's row (m's order, which the table keeps). */
static int fill_constructs(struct papi_ompt_table *out, struct symbolizer *sym,
                           const struct ompt_merged *m, const struct ompt_name *names)
{
    struct ompt_construct_rows c;
    if (ompt_constructs_merge(&c, sym, m, names) != 0)
        return -1;
    out->constructs = calloc(c.n ? (size_t)c.n : 1, sizeof *out->constructs);
    for (int i = 0; out->constructs && i < c.n; i++) {
        const struct ompt_construct_row *r = &c.rows[i];
        struct papi_ompt_construct *p = &out->constructs[i];
        snprintf(p->kind, sizeof p->kind, "%s", ompt_construct_kind_name(r->kind));
        size_t n = strnlen(r->name.name, sizeof p->name - 1); /* a long name cut */
        memcpy(p->name, r->name.name, n);
        p->name[n] = '\0';
        p->region = r->row, p->threads = r->nthreads, p->max_wait_thread = -1;
        p->entries = r->entries, p->time_ns = r->time_ns, p->wait_ns = r->wait_ns;
        for (unsigned t = 0; t < r->nthreads; t++)
            if (r->threads[t].wait_ns > p->max_wait_ns) {
                p->max_wait_ns = r->threads[t].wait_ns;
                p->max_wait_thread = (int)t;
            }
    }
    out->nconstructs = out->constructs ? c.n : 0;
    ompt_construct_rows_free(&c);
    return out->constructs ? 0 : -1;
}

int ompt_table_build(struct papi_ompt_table *out)
{
    struct ompt_merged m;
    memset(out, 0, sizeof *out);
    if (ompt_merge(&m, 1) != 0)
        return -1;
    qsort(m.rows, (size_t)m.nrows, sizeof *m.rows, by_context);
    out->regions = calloc(m.nrows ? (size_t)m.nrows : 1, sizeof *out->regions);
    out->contexts = calloc(m.nrows ? (size_t)m.nrows : 1, sizeof *out->contexts);
    if (!out->regions || !out->contexts) {
        ompt_merged_free(&m);
        ompt_table_free(out);
        return -1;
    }
    struct symbolizer *sym = m.nrows ? sym_open_process() : NULL;
    struct ompt_name *names = ompt_report_names(sym, &m);
    int bad = !names || fill_constructs(out, sym, &m, names) != 0;
    if (sym)
        sym_close(sym);
    if (bad) {
        free(names);
        ompt_merged_free(&m);
        ompt_table_free(out);
        return -1;
    }
    struct pop_omp_in sums = {0};
    struct papi_ompt_context *c = NULL;
    for (int i = 0; i < m.nrows; i++) {
        const struct ompt_region_row *r = &m.rows[i];
        if (i == 0 || r->context != m.rows[i - 1].context) {
            c = &out->contexts[out->ncontexts++];
            open_context(c, r->context, i);
            memset(&sums, 0, sizeof sums);
        }
        fill_region(&out->regions[i], &names[i], r, &sums);
        c->count++;
        c->unmeasured_tasks += r->unmeasured_tasks;
        c->parallel_ns += (double)r->outer_wall_ns;
        c->useful_ns = sums.useful_ns, c->maxu_team_ns = sums.maxu_team_ns;
        c->wall_team_ns = sums.wall_team_ns;
    }
    out->nregions = m.nrows;
    free(names);
    ompt_merged_free(&m);
    return 0;
}

void ompt_table_free(struct papi_ompt_table *t)
{
    free(t->regions);
    free(t->contexts);
    free(t->constructs);
    memset(t, 0, sizeof *t);
}
