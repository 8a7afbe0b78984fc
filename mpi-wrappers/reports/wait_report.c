/* wait_report.c: the report's "wait_states" member and the POP efficiencies, at
 * MPI_Finalize. Every rank hands rank 0 one fixed-size part (its wall and MPI time, its
 * waits, its regions' times and waits) with its rows, in the report files' pull
 * (report_files.c: no collective of its own); rank 0 folds each part as it comes (in
 * rank order): sums and maxima, the efficiencies' inputs of the run and of each region
 * (by name over the ranks that entered it), and the text of the per-rank and per-region
 * tables it writes after the rows. It keeps no part per rank, only that text (about 330
 * bytes a rank and 600 a rank's region), where a table of every rank's 2.9 KB part was
 * held beside it before; past 4 KiB a table's text goes to an unnamed file in the
 * output directory (text_spool.h) until the report's tail copies it: rank 0's memory
 * for it does not grow with the ranks.
 *
 * The POP factors are defined and formed in pop_factors.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "gpu_row.h"
#include "omp_hybrid.h"
#include "pop_factors.h"
#include "pmpi_identity.h"
#include "text_buffer.h"
#include "text_spool.h"
#include "wait_report.h"
#include "wait_states.h"

struct region_part {
    char name[PMPI_NAME_LEN];
    long long entries;
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
    int gpu_on;    /* the GPU activity layer recorded: gpu holds its POP inputs */
    double gpu[3]; /* pmpi_gpu_pop_times's */
};

/* One rank's part, as it travels. */
struct wait_part {
    double wall_s, mpi_s, waits[PMPI_WAIT_KINDS];
    double offset_s, offset_end_s, residual_s;
    int gpu_on;
    double gpu[3];
    long long records, dropped, p2p_matched, p2p_unmatched, coll_matched, coll_unmatched;
    int done, nregions;
    struct pmpi_omp omp; /* this rank's OpenMP, from the OMPT tool */
    struct region_part reg[PMPI_MAX_REGIONS];
};

/* A region name's table, folded over the ranks that entered it. */
struct region_fold {
    char name[PMPI_NAME_LEN];
    struct text_spool per_rank; /* its "per_rank" entries' text */
    struct pop_in pop;
    double sum[PMPI_WAIT_KINDS];
};

/* Rank 0: every rank's part folded as it came. */
struct pmpi_wait_fold {
    int taken, all_done; /* parts folded; every one said its waits were computed */
    double residual, offset, sum[PMPI_WAIT_KINDS];
    long long records, dropped, pm, pu, cm, cu;
    struct pop_in pop;
    struct pmpi_omp_job omp;
    struct text_spool ranks; /* the "ranks" entries' text */
    int nnames;              /* region names, first seen first, at most PMPI_MAX_REGIONS */
    struct region_fold reg[PMPI_MAX_REGIONS];
};

const void *pmpi_wait_report_part(const struct pmpi_row *row, const struct pmpi_wait_result *w)
{
    static struct wait_part mine;
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
    return sizeof(struct wait_part);
}

struct pmpi_wait_fold *pmpi_wait_report_fold(const struct pmpi_wait_result *w)
{
    if (pmpi_id()->rank != 0 || !w->agreed)
        return NULL;
    struct pmpi_wait_fold *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->all_done = 1;
    ts_init(&f->ranks, pmpi_outdir_fd(), TS_BOUND);
    return f;
}

void pmpi_wait_report_free(struct pmpi_wait_fold *f)
{
    if (!f)
        return;
    ts_free(&f->ranks);
    for (int i = 0; i < f->nnames; i++)
        ts_free(&f->reg[i].per_rank);
    free(f);
}

/* Whether some text of f could not grow (no memory): its tables would be cut. */
static int fold_cut(const struct pmpi_wait_fold *f)
{
    int cut = ts_cut(&f->ranks);
    for (int i = 0; i < f->nnames; i++)
        cut |= ts_cut(&f->reg[i].per_rank);
    return cut;
}

struct pmpi_wait_fold *pmpi_wait_report_settle(struct pmpi_wait_fold *f, struct pmpi_wait_result *w)
{
    if (f && f->all_done && f->taken == pmpi_id()->nranks && !fold_cut(f))
        return f;
    pmpi_wait_report_free(f); /* no memory here, or a rank short of it: no rank's waits */
    w->done = 0;
    return NULL;
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
static void factor(struct jw *w, const char *key, double v)
{
    if (v < 0)
        jw_null(w, key);
    else
        jw_fixed(w, key, v, 6);
}

/* pop's "device" member (gpu_activity.schema.json's $defs/device_pop). */
static void device_json(struct jw *w, const struct pop_in *p, const struct pop_factors *f)
{
    jw_obj_begin(w, "device");
    jw_int(w, "gpus", p->gpus);
    jw_fixed(w, "runtime_s", p->sum_runtime, 9);
    jw_fixed(w, "useful_sum_s", p->sum_gpu_useful, 9);
    jw_fixed(w, "useful_max_s", p->max_gpu_useful, 9);
    jw_fixed(w, "active_max_s", p->max_gpu_active, 9);
    factor(w, "offload_efficiency", f->offload);
    factor(w, "parallel_efficiency", f->device_parallel);
    factor(w, "load_balance", f->device_load_balance);
    factor(w, "communication_efficiency", f->device_communication);
    factor(w, "orchestration_efficiency", f->device_orchestration);
    jw_obj_end(w);
}

static void pop_json(struct jw *w, const struct pop_in *p)
{
    struct pop_factors f = pop_factors(p);
    jw_obj_begin(w, "pop");
    jw_int(w, "ranks", p->n);
    jw_digits(w, "runtime_s", p->max_wall, 9);
    jw_digits(w, "useful_mean_s", p->n ? p->sum_useful / p->n : 0, 9);
    jw_digits(w, "useful_max_s", p->max_useful, 9);
    jw_digits(w, "ideal_runtime_s", p->max_ideal, 9);
    jw_fixed(w, "parallel_efficiency", f.parallel, 6);
    jw_fixed(w, "load_balance", f.load_balance, 6);
    jw_fixed(w, "communication_efficiency", f.communication, 6);
    jw_fixed(w, "serialisation_efficiency", f.serialisation, 6);
    jw_fixed(w, "transfer_efficiency", f.transfer, 6);
    if (p->device_ranks)
        device_json(w, p, &f);
    jw_obj_end(w);
}

/* Each kind's wait time, then the rest of the MPI time. */
static void waits_json(struct jw *w, const double *waits, double mpi)
{
    double sum = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++) {
        jw_fixed(w, pmpi_wait_names[k], waits[k], 9);
        sum += waits[k];
    }
    jw_fixed(w, "rest_s", mpi - sum > 0 ? mpi - sum : 0, 9);
}

/* The fold's table of a region name: found, or added while there is room (NULL: full,
 * the region left out as before). */
static struct region_fold *region_of_name(struct pmpi_wait_fold *f, const char *name)
{
    for (int i = 0; i < f->nnames; i++)
        if (strcmp(f->reg[i].name, name) == 0)
            return &f->reg[i];
    if (f->nnames == PMPI_MAX_REGIONS)
        return NULL;
    struct region_fold *g = &f->reg[f->nnames++];
    snprintf(g->name, sizeof g->name, "%s", name);
    ts_init(&g->per_rank, pmpi_outdir_fd(), TS_BOUND);
    return g;
}

/* One rank's regions into their names' tables: each an element of its "per_rank" list
 * (its spool), ", " after the one before. */
static void fold_regions(struct pmpi_wait_fold *f, int rank, const struct wait_part *q)
{
    for (int i = 0; i < q->nregions && i < PMPI_MAX_REGIONS; i++) {
        const struct region_part *r = &q->reg[i];
        struct region_fold *g = region_of_name(f, r->name);
        if (!g)
            continue;
        struct jw w;
        tb_jw(&w, &g->per_rank.t);
        jw_resume(&w, g->pop.n);
        jw_obj_begin(&w, NULL);
        jw_int(&w, "rank", rank);
        jw_int(&w, "entries", r->entries);
        jw_fixed(&w, "wall_s", r->wall_s, 9);
        jw_fixed(&w, "mpi_s", r->mpi_s, 9);
        waits_json(&w, r->waits, r->mpi_s);
        jw_obj_end(&w);
        ts_settle(&g->per_rank);
        pop_add_waits(&g->pop, r->wall_s, r->mpi_s, r->waits, r->gpu_on, r->gpu);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            g->sum[k] += r->waits[k];
    }
}

/* The rank's element of the report's "ranks" list (its spool), a line each. */
static void rank_json(struct pmpi_wait_fold *f, int rank, const struct wait_part *q)
{
    struct jw w;
    tb_jw(&w, &f->ranks.t);
    jw_resume(&w, rank ? 1 : 0);
    jw_break(&w, "\n  ");
    jw_obj_begin(&w, NULL);
    jw_int(&w, "rank", rank);
    jw_fixed(&w, "wall_s", q->wall_s, 9);
    jw_fixed(&w, "mpi_s", q->mpi_s, 9);
    waits_json(&w, q->waits, q->mpi_s);
    jw_fixed(&w, "clock_offset_s", q->offset_s, 9);
    jw_int(&w, "records", q->records);
    jw_int(&w, "dropped", q->dropped);
    jw_obj_end(&w);
    ts_settle(&f->ranks);
}

void pmpi_wait_report_take(void *arg, int rank, const void *part)
{
    static const struct wait_part none; /* a rank that sent none: its waits not computed */
    struct pmpi_wait_fold *f = arg;
    const struct wait_part *q = part ? part : &none;
    if (!f)
        return;
    f->taken++;
    f->all_done &= q->done != 0;
    if (!f->all_done)
        return; /* nothing of it is written: no rank's waits will be */
    if (q->residual_s > f->residual)
        f->residual = q->residual_s;
    double o = q->offset_s > q->offset_end_s ? q->offset_s : q->offset_end_s;
    f->offset = o > f->offset ? o : -o > f->offset ? -o : f->offset;
    f->records += q->records, f->dropped += q->dropped;
    f->pm += q->p2p_matched, f->pu += q->p2p_unmatched;
    f->cm += q->coll_matched, f->cu += q->coll_unmatched;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        f->sum[k] += q->waits[k];
    pop_add_waits(&f->pop, q->wall_s, q->mpi_s, q->waits, q->gpu_on, q->gpu);
    pmpi_omp_job_add(&f->omp, &q->omp, q->wall_s, q->mpi_s);
    rank_json(f, rank, q);
    fold_regions(f, rank, q);
}

/* "regions": per region name, its ranks' waits (the spool, copied into t: w's buffer),
 * their total and POP factors, a line each. */
static void regions_json(struct jw *w, struct tbuf *t, const struct pmpi_wait_fold *f)
{
    jw_arr_begin(w, "regions");
    for (int i = 0; i < f->nnames; i++) {
        const struct region_fold *g = &f->reg[i];
        jw_break(w, "\n  ");
        jw_obj_begin(w, NULL);
        jw_str(w, "name", g->name);
        jw_arr_begin(w, "per_rank");
        ts_copy(&g->per_rank, t);
        jw_arr_end(w);
        jw_obj_begin(w, "total");
        jw_int(w, "ranks", g->pop.n);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            jw_fixed(w, pmpi_wait_names[k], g->sum[k], 9);
        jw_obj_end(w);
        pop_json(w, &g->pop);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* How the clocks were aligned, the event log's size, what was matched. */
static void method_json(struct jw *w, const struct pmpi_wait_fold *f,
                        const struct pmpi_wait_result *r)
{
    jw_obj_begin(w, "clock");
    jw_str(w, "method",
           "ping-pong of each rank against its parent in a binomial tree rooted at rank 0 at "
           "MPI_Init and MPI_Finalize, the shortest of 4 round trips, offsets composed along "
           "the path (the residual sums its round-trip halves), interpolated linearly");
    jw_fixed(w, "max_offset_s", f->offset, 9);
    jw_fixed(w, "residual_s", f->residual, 9);
    jw_obj_end(w);
    jw_obj_begin(w, "log");
    jw_int(w, "records_per_rank", r->capacity);
    jw_uint(w, "bytes_per_record", sizeof(struct pmpi_event));
    jw_int(w, "records", f->records);
    jw_int(w, "dropped", f->dropped);
    jw_obj_end(w);
    jw_obj_begin(w, "matched");
    jw_int(w, "p2p", f->pm);
    jw_int(w, "p2p_unmatched", f->pu);
    jw_int(w, "collectives", f->cm);
    jw_int(w, "collectives_unmatched", f->cu);
    jw_obj_end(w);
    jw_int(w, "rendezvous_bytes", PMPI_RENDEZVOUS_BYTES);
}

void pmpi_wait_report_json(struct jw *w, struct tbuf *t, const struct pmpi_wait_fold *f,
                           const struct pmpi_wait_result *r)
{
    jw_obj_begin(w, "wait_states");
    jw_bool(w, "on", f != NULL);
    if (!f) {
        jw_str(w, "note", r->note ? r->note : "not computed (no memory on some rank)");
        jw_obj_end(w);
        return;
    }
    method_json(w, f, r);
    if (f->dropped)
        jw_str(w, "note",
               "the event log of some rank was full: its later calls have no wait "
               "states (log.dropped; PAPI_MPI_LOG_RECORDS sets its size)");
    jw_obj_begin(w, "total");
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        jw_fixed(w, pmpi_wait_names[k], f->sum[k], 9);
    jw_obj_end(w);
    jw_arr_begin(w, "ranks");
    ts_copy(&f->ranks, t);
    jw_arr_end(w);
    regions_json(w, t, f);
    pop_json(w, &f->pop);
    pmpi_omp_json(w, &f->omp, pop_factors(&f->pop).parallel);
    jw_obj_end(w);
}

void pmpi_wait_report_print(FILE *out, const struct pmpi_wait_fold *f)
{
    if (!f)
        return;
    struct pop_factors pf = pop_factors(&f->pop);
    char line[1024] = ""; /* one write: the line is never split by another's output */
    size_t n = 0;
    for (int k = 0; k < PMPI_WAIT_KINDS && n < sizeof line; k++) /* words: wait_kinds.list */
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s %.6f", k ? ", " : "",
                              pmpi_wait_banner[k], f->sum[k]);
    /* the clocks' error bound: a wait is known to +- the residual (issue 49) */
    fprintf(out, "papi_mpi: wait states (all ranks, s): %s; clock residual %.9f\n", line,
            f->residual);
    fprintf(out,
            "papi_mpi: POP: parallel efficiency %.3f = load balance %.3f x communication "
            "efficiency %.3f (serialisation %.3f, transfer %.3f)\n",
            pf.parallel, pf.load_balance, pf.communication, pf.serialisation, pf.transfer);
    if (f->pop.device_ranks) /* null factors (no GPU work) read as -1 */
        fprintf(out,
                "papi_mpi: POP host/device (TALP): device offload efficiency %.3f; device "
                "parallel efficiency %.3f = load balance %.3f x communication %.3f x "
                "orchestration %.3f over %d GPUs\n",
                pf.offload, pf.device_parallel, pf.device_load_balance, pf.device_communication,
                pf.device_orchestration, f->pop.gpus);
    pmpi_omp_print(out, &f->omp, pf.parallel);
}
