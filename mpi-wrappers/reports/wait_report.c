/* wait_report.c: the report's "wait_states" member and the POP efficiencies, at
 * MPI_Finalize. Every rank hands rank 0 one fixed-size part (its wall and MPI time, its
 * waits, its regions' times and waits: one PMPI_Gather); rank 0 computes the
 * efficiencies of the run and of each region (by name over the ranks that entered it)
 * and writes them with the per-rank and per-region tables.
 *
 * POP (useful time = wall - MPI time per rank, T = the longest wall time):
 *   load balance = mean(useful) / max(useful); communication efficiency =
 *   max(useful) / T; parallel efficiency = their product = mean(useful) / T.
 *   With wait states: transfer = MPI time - waits per rank, the ideal network's run
 *   T_ideal = max(wall - transfer); serialisation = max(useful) / T_ideal and transfer
 *   efficiency = T_ideal / T (their product is the communication efficiency). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "finalize_agreement.h"
#include "omp_hybrid.h"
#include "run_identity.h"
#include "text_buffer.h"
#include "wait_report.h"
#include "wait_states.h"

struct region_part {
    char name[PMPI_NAME_LEN];
    long long entries;
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
};

struct pmpi_wait_parts {
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
    double offset_s, offset_end_s, residual_s;
    long long records, dropped, p2p_matched, p2p_unmatched, coll_matched, coll_unmatched;
    int done, nregions;
    struct pmpi_omp omp; /* this rank's OpenMP, from the OMPT tool */
    struct region_part reg[PMPI_MAX_REGIONS];
};

/* Rank 0's table of the parts, allocated before the wait states' first agreement, which
 * carries whether it could be (parts_ok). */
static struct pmpi_wait_parts *parts_ready;
static int parts_ok = -1;

void pmpi_wait_report_prepare(void)
{
    if (pmpi_id()->rank == 0)
        parts_ready = malloc((size_t)pmpi_id()->nranks * sizeof *parts_ready);
    parts_ok = pmpi_agree_add(PMPI_AGREE_MIN, pmpi_id()->rank != 0 || parts_ready);
}

struct pmpi_wait_parts *pmpi_wait_report_gather(const struct pmpi_row *row,
                                                const struct pmpi_wait_result *w)
{
    struct pmpi_wait_parts *parts = parts_ready;
    static struct pmpi_wait_parts mine;
    parts_ready = NULL;
    memset(&mine, 0, sizeof mine);
    mine.wall_s = row->wall_s;
    mine.mpi_s = row->mpi_s;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        mine.waits[k] = w->rank_ns[k] * 1e-9;
    mine.offset_s = w->offset_ns * 1e-9;
    mine.offset_end_s = w->offset_end_ns * 1e-9;
    mine.residual_s = w->residual_ns * 1e-9;
    mine.records = w->records;
    mine.dropped = w->dropped;
    mine.p2p_matched = w->p2p_matched;
    mine.p2p_unmatched = w->p2p_unmatched;
    mine.coll_matched = w->coll_matched;
    mine.coll_unmatched = w->coll_unmatched;
    mine.done = w->done;
    pmpi_omp_query(&mine.omp);
    mine.nregions = row->nregions;
    for (int r = 0; r < row->nregions; r++) {
        const struct pmpi_region *g = &row->regions[r];
        struct region_part *p = &mine.reg[r];
        snprintf(p->name, sizeof p->name, "%s", g->name);
        p->entries = g->entries;
        p->wall_s = (double)g->wall_ns * 1e-9;
        p->mpi_s = (double)g->mpi_ticks * row->ns_per_tick * 1e-9;
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            p->waits[k] = w->region_ns[r][k] * 1e-9;
    }
    /* done and the table agreed on every rank (pmpi_waits_compute's agreements) */
    if (!w->done || !pmpi_agree_value(parts_ok)) {
        free(parts);
        return NULL; /* said in the report's note */
    }
    MPI_Datatype t;
    PMPI_Type_contiguous((int)sizeof mine, MPI_BYTE, &t);
    PMPI_Type_commit(&t);
    PMPI_Gather(&mine, 1, t, parts, 1, t, 0, MPI_COMM_WORLD);
    PMPI_Type_free(&t);
    return parts;
}

void pmpi_wait_report_free(struct pmpi_wait_parts *parts)
{
    free(parts);
}

size_t pmpi_wait_report_size(const struct pmpi_wait_parts *parts)
{
    return parts ? 4096 + (size_t)pmpi_id()->nranks * (700 + PMPI_MAX_REGIONS * 600) : 1024;
}

/* One set of times: each rank's wall, MPI time and waits. */
struct pop_in {
    int n;
    double max_wall, max_useful, sum_useful, max_ideal;
};

static void pop_add(struct pop_in *p, double wall, double mpi, const double *waits)
{
    double useful = wall - mpi, w = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        w += waits[k];
    double transfer = mpi - w > 0 ? mpi - w : 0;
    p->n++;
    p->sum_useful += useful;
    if (wall > p->max_wall)
        p->max_wall = wall;
    if (useful > p->max_useful)
        p->max_useful = useful;
    if (wall - transfer > p->max_ideal)
        p->max_ideal = wall - transfer;
}

/* The MPI parallel efficiency, mean(useful) / T. */
static double pop_parallel(const struct pop_in *p)
{
    return p->n && p->max_wall > 0 ? p->sum_useful / p->n / p->max_wall : 1;
}

/* The ranks' OpenMP sums (omp_hybrid.h). */
static void omp_job(const struct pmpi_wait_parts *parts, struct pmpi_omp_job *j)
{
    memset(j, 0, sizeof *j);
    for (int r = 0; r < pmpi_id()->nranks; r++)
        pmpi_omp_job_add(j, &parts[r].omp, parts[r].wall_s, parts[r].mpi_s);
}

static void pop_json(struct tbuf *t, const struct pop_in *p)
{
    double mean = p->n ? p->sum_useful / p->n : 0;
    double lb = p->max_useful > 0 ? mean / p->max_useful : 1;
    double ce = p->max_wall > 0 ? p->max_useful / p->max_wall : 1;
    double ser = p->max_ideal > 0 ? p->max_useful / p->max_ideal : 1;
    double te = p->max_wall > 0 ? p->max_ideal / p->max_wall : 1;
    tb_fmt(t,
           "{\"ranks\": %d, \"runtime_s\": %.9g, \"useful_mean_s\": %.9g, "
           "\"useful_max_s\": %.9g, \"ideal_runtime_s\": %.9g, \"parallel_efficiency\": %.6f, "
           "\"load_balance\": %.6f, \"communication_efficiency\": %.6f, "
           "\"serialisation_efficiency\": %.6f, \"transfer_efficiency\": %.6f}",
           p->n, p->max_wall, mean, p->max_useful, p->max_ideal, lb * ce, lb, ce, ser, te);
}

static void waits_json(struct tbuf *t, const double *w, double mpi)
{
    double sum = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++) {
        tb_fmt(t, ", \"%s\": %.9f", pmpi_wait_names[k], w[k]);
        sum += w[k];
    }
    tb_fmt(t, ", \"rest_s\": %.9f", mpi - sum > 0 ? mpi - sum : 0);
}

/* The distinct region names over all ranks (first seen first), at most PMPI_MAX_REGIONS. */
static int region_names(const struct pmpi_wait_parts *parts, const char (**names)[PMPI_NAME_LEN])
{
    static char list[PMPI_MAX_REGIONS][PMPI_NAME_LEN];
    int n = 0;
    for (int r = 0; r < pmpi_id()->nranks; r++)
        for (int g = 0; g < parts[r].nregions; g++) {
            int seen = 0;
            for (int i = 0; i < n && !seen; i++)
                seen = strcmp(list[i], parts[r].reg[g].name) == 0;
            if (!seen && n < PMPI_MAX_REGIONS)
                snprintf(list[n++], PMPI_NAME_LEN, "%s", parts[r].reg[g].name);
        }
    *names = (const char(*)[PMPI_NAME_LEN])list;
    return n;
}

static void regions_json(struct tbuf *t, const struct pmpi_wait_parts *parts)
{
    const char(*names)[PMPI_NAME_LEN];
    int n = region_names(parts, &names);
    tb_raw(t, ", \"regions\": [");
    for (int i = 0; i < n; i++) {
        struct pop_in p = {0};
        double sum[PMPI_WAIT_KINDS] = {0};
        tb_raw(t, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
        tb_json(t, names[i]);
        tb_raw(t, ", \"per_rank\": [");
        int first = 1;
        for (int r = 0; r < pmpi_id()->nranks; r++)
            for (int g = 0; g < parts[r].nregions; g++) {
                const struct region_part *q = &parts[r].reg[g];
                if (strcmp(q->name, names[i]) != 0)
                    continue;
                tb_fmt(t, "%s{\"rank\": %d, \"entries\": %lld, \"wall_s\": %.9f, \"mpi_s\": %.9f",
                       first ? "" : ", ", r, q->entries, q->wall_s, q->mpi_s);
                waits_json(t, q->waits, q->mpi_s);
                tb_raw(t, "}");
                first = 0;
                pop_add(&p, q->wall_s, q->mpi_s, q->waits);
                for (int k = 0; k < PMPI_WAIT_KINDS; k++)
                    sum[k] += q->waits[k];
            }
        tb_raw(t, "], \"total\": {\"ranks\": ");
        tb_int(t, p.n);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            tb_fmt(t, ", \"%s\": %.9f", pmpi_wait_names[k], sum[k]);
        tb_raw(t, "}, \"pop\": ");
        pop_json(t, &p);
        tb_raw(t, "}");
    }
    tb_raw(t, "]");
}

void pmpi_wait_report_json(struct tbuf *t, const struct pmpi_wait_parts *parts,
                           const struct pmpi_wait_result *w)
{
    tb_raw(t, "\"wait_states\": {\"on\": ");
    tb_raw(t, parts ? "true" : "false");
    if (!parts) {
        tb_raw(t, ", \"note\": ");
        tb_json(t, w->note ? w->note : "not computed (no memory on some rank)");
        tb_raw(t, "},\n");
        return;
    }
    double res = 0, off = 0, sum[PMPI_WAIT_KINDS] = {0};
    long long rec = 0, drop = 0, pm = 0, pu = 0, cm = 0, cu = 0;
    struct pop_in p = {0};
    for (int r = 0; r < pmpi_id()->nranks; r++) {
        const struct pmpi_wait_parts *q = &parts[r];
        if (q->residual_s > res)
            res = q->residual_s;
        double o = q->offset_s > q->offset_end_s ? q->offset_s : q->offset_end_s;
        off = o > off ? o : -o > off ? -o : off;
        rec += q->records, drop += q->dropped, pm += q->p2p_matched, pu += q->p2p_unmatched;
        cm += q->coll_matched, cu += q->coll_unmatched;
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            sum[k] += q->waits[k];
        pop_add(&p, q->wall_s, q->mpi_s, q->waits);
    }
    tb_fmt(t,
           ", \"clock\": {\"method\": \"ping-pong of each rank against its parent in a "
           "binomial tree rooted at rank 0 at MPI_Init and MPI_Finalize, the shortest of 4 "
           "round trips, offsets composed along the path (the residual sums its round-trip "
           "halves), interpolated linearly\", "
           "\"max_offset_s\": %.9f, \"residual_s\": %.9f}",
           off, res);
    tb_fmt(t,
           ", \"log\": {\"records_per_rank\": %lld, \"bytes_per_record\": %zu, "
           "\"records\": %lld, \"dropped\": %lld}",
           w->capacity, sizeof(struct pmpi_event), rec, drop);
    tb_fmt(t,
           ", \"matched\": {\"p2p\": %lld, \"p2p_unmatched\": %lld, \"collectives\": %lld, "
           "\"collectives_unmatched\": %lld}, \"rendezvous_bytes\": %d",
           pm, pu, cm, cu, PMPI_RENDEZVOUS_BYTES);
    if (drop)
        tb_raw(t, ", \"note\": \"the event log of some rank was full: its later calls have no "
                  "wait states (log.dropped; PAPI_MPI_LOG_RECORDS sets its size)\"");
    tb_raw(t, ", \"total\": {");
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        tb_fmt(t, "%s\"%s\": %.9f", k ? ", " : "", pmpi_wait_names[k], sum[k]);
    tb_raw(t, "}, \"ranks\": [");
    for (int r = 0; r < pmpi_id()->nranks; r++) {
        const struct pmpi_wait_parts *q = &parts[r];
        tb_fmt(t, "%s{\"rank\": %d, \"wall_s\": %.9f, \"mpi_s\": %.9f", r ? ",\n  " : "\n  ", r,
               q->wall_s, q->mpi_s);
        waits_json(t, q->waits, q->mpi_s);
        tb_fmt(t, ", \"clock_offset_s\": %.9f, \"records\": %lld, \"dropped\": %lld}", q->offset_s,
               q->records, q->dropped);
    }
    tb_raw(t, "]");
    regions_json(t, parts);
    tb_raw(t, ", \"pop\": ");
    pop_json(t, &p);
    struct pmpi_omp_job omp;
    omp_job(parts, &omp);
    pmpi_omp_json(t, &omp, pop_parallel(&p));
    tb_raw(t, "},\n");
}

void pmpi_wait_report_print(FILE *out, const struct pmpi_wait_parts *parts)
{
    if (!parts)
        return;
    struct pop_in p = {0};
    double sum[PMPI_WAIT_KINDS] = {0};
    for (int r = 0; r < pmpi_id()->nranks; r++) {
        pop_add(&p, parts[r].wall_s, parts[r].mpi_s, parts[r].waits);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            sum[k] += parts[r].waits[k];
    }
    double mean = p.n ? p.sum_useful / p.n : 0;
    double res = 0; /* the clocks' error bound: a wait is known to +- this (issue 49) */
    for (int r = 0; r < pmpi_id()->nranks; r++)
        res = parts[r].residual_s > res ? parts[r].residual_s : res;
    char line[1024] = ""; /* one write: the line is never split by another's output */
    size_t n = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS && n < sizeof line; k++) /* words: wait_kinds.list */
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s %.6f", k ? ", " : "",
                              pmpi_wait_banner[k], sum[k]);
    fprintf(out, "papi_mpi: wait states (all ranks, s): %s; clock residual %.9f\n", line, res);
    fprintf(out,
            "papi_mpi: POP: parallel efficiency %.3f = load balance %.3f x communication "
            "efficiency %.3f (serialisation %.3f, transfer %.3f)\n",
            p.max_wall > 0 ? mean / p.max_wall : 1, p.max_useful > 0 ? mean / p.max_useful : 1,
            p.max_wall > 0 ? p.max_useful / p.max_wall : 1,
            p.max_ideal > 0 ? p.max_useful / p.max_ideal : 1,
            p.max_wall > 0 ? p.max_ideal / p.max_wall : 1);
    struct pmpi_omp_job omp;
    omp_job(parts, &omp);
    pmpi_omp_print(out, &omp, pop_parallel(&p));
}
