/* wait_report.c: the report's "wait_states" member and the POP efficiencies, at
 * MPI_Finalize. Every rank hands rank 0 one fixed-size part (its wall and MPI time, its
 * waits, its regions' times and waits) with its rows, in the report files' pull
 * (report_files.c: no collective of its own); rank 0 keeps them in one table, computes
 * the efficiencies of the run and of each region (by name over the ranks that entered
 * it) and writes them with the per-rank and per-region tables after the rows.
 *
 * The POP factors are defined and formed in pop_factors.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "gpu_row.h"
#include "omp_hybrid.h"
#include "pop_factors.h"
#include "run_identity.h"
#include "text_buffer.h"
#include "wait_report.h"
#include "wait_states.h"

struct region_part {
    char name[PMPI_NAME_LEN];
    long long entries;
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
    int gpu_on;    /* the GPU activity layer recorded: gpu holds its POP inputs */
    double gpu[3]; /* pmpi_gpu_pop_times's */
};

struct pmpi_wait_parts {
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
    double offset_s, offset_end_s, residual_s;
    int gpu_on;
    double gpu[3];
    long long records, dropped, p2p_matched, p2p_unmatched, coll_matched, coll_unmatched;
    int done, nregions;
    struct pmpi_omp omp; /* this rank's OpenMP, from the OMPT tool */
    struct region_part reg[PMPI_MAX_REGIONS];
};

/* Rank 0: whether every rank's part says its waits were computed. */
static int all_done(const struct pmpi_wait_parts *parts)
{
    for (int r = 0; r < pmpi_id()->nranks; r++)
        if (!parts[r].done)
            return 0;
    return 1;
}

const struct pmpi_wait_parts *pmpi_wait_report_part(const struct pmpi_row *row,
                                                    const struct pmpi_wait_result *w)
{
    static struct pmpi_wait_parts mine;
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
    mine.gpu_on = pmpi_gpu_pop_times(NULL, mine.gpu);
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
        p->gpu_on = pmpi_gpu_pop_times(g, p->gpu);
    }
    /* the exchanges ran on every rank or on none (pmpi_waits_compute's agreement) */
    return w->agreed ? &mine : NULL;
}

size_t pmpi_wait_report_part_size(void)
{
    return sizeof(struct pmpi_wait_parts);
}

struct pmpi_wait_parts *pmpi_wait_report_table(const struct pmpi_wait_result *w)
{
    /* the same P parts the MPI_Gather it replaces received: no more than before */
    return pmpi_id()->rank == 0 && w->agreed
               ? calloc((size_t)pmpi_id()->nranks, sizeof(struct pmpi_wait_parts))
               : NULL;
}

struct pmpi_wait_parts *pmpi_wait_report_settle(struct pmpi_wait_parts *table,
                                                struct pmpi_wait_result *w)
{
    if (table && all_done(table))
        return table;
    free(table); /* no memory here, or a rank short of it: no rank's waits reported */
    w->done = 0;
    return NULL;
}

void pmpi_wait_report_free(struct pmpi_wait_parts *parts)
{
    free(parts);
}

/* A rank's (or a region's) times into p: its wait states summed, its GPUs' where the
 * layer recorded (gpu_on). */
static void pop_add_waits(struct pop_in *p, double wall, double mpi, const double *waits,
                          int gpu_on, const double *gpu)
{
    double w = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        w += waits[k];
    pop_add(p, wall, mpi, w);
    if (gpu_on)
        pop_add_device(p, gpu[2], gpu[0], gpu[1]);
}

/* A factor, or null where it cannot be formed. */
static void factor(struct tbuf *t, const char *key, double v)
{
    if (v < 0)
        tb_fmt(t, ", \"%s\": null", key);
    else
        tb_fmt(t, ", \"%s\": %.6f", key, v);
}

/* pop's "device" member (gpu_activity.schema.json's $defs/device_pop). */
static void device_json(struct tbuf *t, const struct pop_in *p, const struct pop_factors *f)
{
    tb_fmt(t,
           ", \"device\": {\"gpus\": %d, \"runtime_s\": %.9f, \"useful_sum_s\": %.9f, "
           "\"useful_max_s\": %.9f, \"active_max_s\": %.9f",
           p->gpus, p->sum_runtime, p->sum_gpu_useful, p->max_gpu_useful, p->max_gpu_active);
    factor(t, "offload_efficiency", f->offload);
    factor(t, "parallel_efficiency", f->device_parallel);
    factor(t, "load_balance", f->device_load_balance);
    factor(t, "communication_efficiency", f->device_communication);
    factor(t, "orchestration_efficiency", f->device_orchestration);
    tb_raw(t, "}");
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
    struct pop_factors f = pop_factors(p);
    tb_fmt(t,
           "{\"ranks\": %d, \"runtime_s\": %.9g, \"useful_mean_s\": %.9g, "
           "\"useful_max_s\": %.9g, \"ideal_runtime_s\": %.9g, \"parallel_efficiency\": %.6f, "
           "\"load_balance\": %.6f, \"communication_efficiency\": %.6f, "
           "\"serialisation_efficiency\": %.6f, \"transfer_efficiency\": %.6f",
           p->n, p->max_wall, p->n ? p->sum_useful / p->n : 0, p->max_useful, p->max_ideal,
           f.parallel, f.load_balance, f.communication, f.serialisation, f.transfer);
    if (p->device_ranks)
        device_json(t, p, &f);
    tb_raw(t, "}");
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
                pop_add_waits(&p, q->wall_s, q->mpi_s, q->waits, q->gpu_on, q->gpu);
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
        tb_raw(t, "}");
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
        pop_add_waits(&p, q->wall_s, q->mpi_s, q->waits, q->gpu_on, q->gpu);
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
    pmpi_omp_json(t, &omp, pop_factors(&p).parallel);
    tb_raw(t, "}");
}

void pmpi_wait_report_print(FILE *out, const struct pmpi_wait_parts *parts)
{
    if (!parts)
        return;
    struct pop_in p = {0};
    double sum[PMPI_WAIT_KINDS] = {0};
    for (int r = 0; r < pmpi_id()->nranks; r++) {
        pop_add_waits(&p, parts[r].wall_s, parts[r].mpi_s, parts[r].waits, parts[r].gpu_on,
                      parts[r].gpu);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            sum[k] += parts[r].waits[k];
    }
    struct pop_factors f = pop_factors(&p);
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
            f.parallel, f.load_balance, f.communication, f.serialisation, f.transfer);
    if (p.device_ranks) /* null factors (no GPU work) read as -1 */
        fprintf(out,
                "papi_mpi: POP host/device (TALP): device offload efficiency %.3f; device "
                "parallel efficiency %.3f = load balance %.3f x communication %.3f x "
                "orchestration %.3f over %d GPUs\n",
                f.offload, f.device_parallel, f.device_load_balance, f.device_communication,
                f.device_orchestration, p.gpus);
    struct pmpi_omp_job omp;
    omp_job(parts, &omp);
    pmpi_omp_print(out, &omp, f.parallel);
}
