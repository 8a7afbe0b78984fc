/* aggregate.c: at MPI_Finalize, min/mean/max (and the ranks holding min and max) of
 * every metric by ONE reduction to rank 0 with a user operation that does MINLOC,
 * MAXLOC and SUM at once: each rank hands MPI one fixed-size vector whatever the number
 * of ranks (a tree reduction: what a rank sends does not grow with P). Rank 0 prints
 * the banner and writes the JSON report and the CSVs, pulling the other ranks' rows in
 * windows (report_files.c); the wait report's parts come with the rows, so its member
 * of the report and its banner lines follow them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <papi.h>
#include <papi_metrics.h>

#include "aggregate.h"
#include "callsites.h"
#include "clock.h"
#include "counter_mpx.h"
#include "idle_wait.h"
#include "record.h"
#include "region_energy.h"
#include "region_summary.h"
#include "report_files.h"
#include "row.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "sample_report.h"
#include "socket_layout.h"
#include "state.h"
#include "stdout_lines.h"
#include "text_buffer.h"
#include "wait_report.h"
#include "cause_report.h"
#include "wait_rules.h"
#include "env_flag.h"

#define NFIXED   4 /* wall_s, mpi_s, mpi_pct, compute_s */
#define NMETRICS (NFIXED + PMPI_MAX_EVENTS + 4 * PMPI_NCALLS + 3 * PMPI_MAX_METRICS)

struct dbl_int {
    double v;
    int rank;
};

/* One metric across ranks: what the reduction carries. */
struct mstat {
    double mn, mx, sum, sq; /* sq: sum of squares, for the coefficient of variation */
    int mn_rank, mx_rank;
};

/* Ties go to the lower rank, as MPI_MINLOC/MPI_MAXLOC do. */
static void mstat_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const struct mstat *a = in;
    struct mstat *b = inout;
    (void)type;
    for (int i = 0; i < *len; i++) {
        if (a[i].mn < b[i].mn || (a[i].mn == b[i].mn && a[i].mn_rank < b[i].mn_rank)) {
            b[i].mn = a[i].mn;
            b[i].mn_rank = a[i].mn_rank;
        }
        if (a[i].mx > b[i].mx || (a[i].mx == b[i].mx && a[i].mx_rank < b[i].mx_rank)) {
            b[i].mx = a[i].mx;
            b[i].mx_rank = a[i].mx_rank;
        }
        b[i].sum += a[i].sum;
        b[i].sq += a[i].sq;
    }
}

static const char *call_field[4] = {"calls", "time_s", "bytes_sent", "bytes_recv"};

/* Where the named metrics start (after the calls), the count of ranks that have each
 * (after the metrics), then each one's running fraction (after the counts): a rank
 * without a value (a zero denominator) is left out of that metric's min, max and mean,
 * and of its fraction's, never counted as 0. */
static int named_base(void)
{
    return NFIXED + pmpi_ev()->nevents + 4 * PMPI_NCALLS;
}

/* Metric i of a row: wall, MPI time, MPI share, counters, 4 per call, named metrics,
 * the ranks having each, each one's running fraction. */
static int metrics_of(const struct pmpi_row *row, double *m)
{
    int n = 0;
    m[n++] = row->wall_s;
    m[n++] = row->mpi_s;
    m[n++] = row->wall_s > 0 ? 100.0 * row->mpi_s / row->wall_s : 0;
    m[n++] = row->wall_s - row->mpi_s; /* compute time */
    /* NaN: another rank counts it (a socket's) or adds it (a node's device) */
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        m[n++] = pmpi_socket_counted_here(pmpi_ev()->event_names[e], 1) && pmpi_device_in_job(e)
                     ? (double)row->counts[e]
                     : NAN;
    for (int c = 0; c < PMPI_NCALLS; c++) {
        m[n++] = (double)row->calls[c];
        m[n++] = (double)row->ns[c] * 1e-9;
        m[n++] = (double)row->sent[c];
        m[n++] = (double)row->recvd[c];
    }
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        m[n++] = row->counters_read && row->metric_ok[k] ? row->metric[k] : NAN;
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        m[n++] = row->counters_read && row->metric_ok[k] ? 1 : 0;
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        m[n++] = row->counters_read && row->metric_ok[k] ? row->metric_fraction[k] : NAN;
    return n;
}

static void metric_name(int i, char *buf, size_t len)
{
    static const char *fixed[NFIXED] = {"wall_s", "mpi_s", "mpi_pct", "compute_s"};
    if (i < NFIXED) {
        snprintf(buf, len, "%s", fixed[i]);
        return;
    }
    i -= NFIXED;
    if (i < pmpi_ev()->nevents) {
        snprintf(buf, len, "%s", pmpi_ev()->event_names[i]);
        return;
    }
    i -= pmpi_ev()->nevents;
    if (i < 4 * PMPI_NCALLS) {
        snprintf(buf, len, "%s.%s", pmpi_calls[i / 4].name, call_field[i % 4]);
        return;
    }
    i -= 4 * PMPI_NCALLS;
    if (i < pmpi_ev()->nmetrics)
        snprintf(buf, len, "%s", pmpi_ev()->metric_names[i]);
    else
        snprintf(buf, len, "%s.ranks", pmpi_ev()->metric_names[i - pmpi_ev()->nmetrics]);
}

struct agg {
    struct dbl_int mn[NMETRICS], mx[NMETRICS];
    double sum[NMETRICS], sq[NMETRICS];
    double m[NMETRICS];
    int n;
    long long bytes; /* what this rank handed to MPI for the aggregation and files */
    double seconds;
    struct pmpi_wait_fold *waits;         /* rank 0: every rank's waits, or NULL */
    struct pmpi_wait_result *wait_result; /* this rank's (on rank 0 done says all's) */
    int settled;                          /* rank 0: waits is pmpi_wait_report_settle's */
};

/* The ranks that have metric i: every rank, but for a named metric (and its running
 * fraction) those with a value. */
static int ranks_of(const struct agg *a, int i)
{
    int nb = named_base(), nm = pmpi_ev()->nmetrics;
    if (i >= nb + 2 * nm && i < nb + 3 * nm)
        i -= 2 * nm;
    return i >= nb && i < nb + nm ? (int)a->sum[i + nm] : pmpi_id()->nranks;
}

/* Where named metric k's running fraction is in the reduced vector. */
static int fraction_index(int k)
{
    return named_base() + 2 * pmpi_ev()->nmetrics + k;
}

/* Named metric k's running fraction over the ranks that have it: min (its rank), mean,
 * max (1.0 each unless its events were multiplexed). */
static void fraction_json(struct jw *w, const struct agg *a, int k)
{
    int i = fraction_index(k), ranks = ranks_of(a, i);
    if (ranks < 1)
        return;
    jw_obj_begin(w, "running_fraction");
    jw_digits(w, "min", a->mn[i].v, 6);
    jw_int(w, "min_rank", a->mn[i].rank);
    jw_digits(w, "mean", a->sum[i] / ranks, 6);
    jw_digits(w, "max", a->mx[i].v, 6);
    jw_int(w, "max_rank", a->mx[i].rank);
    jw_obj_end(w);
}

/* Coefficient of variation of metric i across ranks (std / mean), 0 when the mean is. */
static double cov(const struct agg *a, int i)
{
    int P = ranks_of(a, i);
    if (P < 1)
        return 0.0;
    double mean = a->sum[i] / P, var = a->sq[i] / P - mean * mean;
    return mean > 0 && var > 0 ? sqrt(var) / mean : 0.0;
}

/* A named metric of the whole job, from the counts of all ranks summed and the longest
 * rank's wall time (rank 0, after the reduction); 0 with why when it has none. */
static int job_metric(const struct agg *a, int k, double *v)
{
    long long sums[PMPI_MAX_EVENTS];
    const char *names[PMPI_MAX_EVENTS];
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        sums[e] = (long long)a->sum[NFIXED + e];
        names[e] = pmpi_ev()->event_names[e];
    }
    const struct pmpi_events *ev = pmpi_ev();
    return PAPIM_evaluate(ev->metric_names[k], ev->nevents, names, sums, a->mx[0].v, v) == PAPI_OK;
}

/* The run: tool, version, ids, command, ranks, events, how the report was gathered. */
static void run_json(struct jw *w, const struct agg *a)
{
    jw_str(w, "tool", "papi_mpi");
    jw_str(w, "papi_compat_version", PAPI_compat_version());
    jw_str(w, "run_id", pmpi_id()->run_id);
    jw_str(w, "start_utc", pmpi_id()->start_utc);
    jw_arr_begin(w, "command");
    for (int i = 0; i < pmpi_id()->command_len;) {
        jw_str(w, NULL, pmpi_id()->command + i);
        i += (int)strlen(pmpi_id()->command + i) + 1;
    }
    jw_arr_end(w);
    jw_int(w, "nranks", pmpi_id()->nranks);
    jw_int(w, "finished_ranks", pmpi_id()->nranks);
    jw_arr_begin(w, "events");
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        jw_str(w, NULL, pmpi_ev()->event_names[e]);
    jw_arr_end(w);
    jw_str(w, "counter_note", pmpi_ev()->counter_note ? pmpi_ev()->counter_note : "");
    jw_obj_begin(w, "aggregation");
    jw_fixed(w, "seconds", a->seconds, 9);
    jw_int(w, "bytes_per_rank", a->bytes);
    jw_str(w, "method",
           "one PMPI_Reduce (min/max/sum with ranks), call sites merged up a "
           "binomial tree, rows pulled by rank 0 through group leaders");
    jw_obj_end(w);
}

/* "metrics": min (its rank), mean, max (its rank), imbalance and COV over the ranks of
 * each time, counter and call, a line each. */
static void metrics_json(struct jw *w, const struct agg *a)
{
    int nb = named_base();
    jw_break(w, "\n");
    jw_obj_begin(w, "metrics");
    for (int i = 0; i < a->n; i++) {
        char name[PMPI_NAME_LEN + 16];
        if (i >= nb + pmpi_ev()->nmetrics)
            break; /* the ranks having each named metric: in named_metrics */
        if (i >= NFIXED + pmpi_ev()->nevents && i < nb && a->mx[i].v == 0 && a->mn[i].v == 0)
            continue; /* a call no rank made */
        metric_name(i, name, sizeof name);
        int ranks = ranks_of(a, i);
        if (ranks < 1)
            continue; /* a named metric no rank has: named_metrics says so */
        double mean = a->sum[i] / ranks;
        jw_break(w, "\n  ");
        jw_obj_begin(w, name);
        jw_digits(w, "min", a->mn[i].v, 9);
        jw_int(w, "min_rank", a->mn[i].rank);
        jw_digits(w, "mean", mean, 9);
        jw_digits(w, "max", a->mx[i].v, 9);
        jw_int(w, "max_rank", a->mx[i].rank);
        jw_fixed(w, "imbalance", mean > 0 ? a->mx[i].v / mean : 0.0, 6);
        jw_fixed(w, "cov", cov(a, i), 6);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

/* "named_metrics": each one's unit, the job's value and how it is formed, a line each. */
static void named_metrics_json(struct jw *w, const struct agg *a)
{
    int nb = named_base();
    jw_break(w, "\n");
    jw_obj_begin(w, "named_metrics");
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        double v;
        jw_break(w, "\n  ");
        jw_obj_begin(w, pmpi_ev()->metric_names[k]);
        jw_str(w, "unit", pmpi_ev()->metric_units[k]);
        jw_int(w, "ranks_with_value", ranks_of(a, nb + k));
        if (ranks_of(a, nb + k) > 0 && job_metric(a, k, &v)) /* no rank's value: none */
            jw_digits(w, "job", v, 9);
        else
            jw_null(w, "job");
        jw_str(w, "job_from",
               "the counts of all ranks summed, over the longest rank's wall "
               "time; per rank: metrics");
        fraction_json(w, a, k);
        if (pmpi_ev()->metric_socket[k])
            jw_str(w, "per_socket",
                   "read by one rank per socket; each rank's value is its "
                   "socket's, shared by the ranks on it (rows: "
                   "named_metrics_shared_by)");
        if (pmpi_ev()->metric_device[k])
            jw_str(w, "per_device",
                   "a node's device (GPU) read by every rank on the node: each "
                   "rank's value is its device's (rows: named_metrics_shared_by); "
                   "the job figure takes each node's device once");
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

/* The report up to the ranks' rows (rank 0): its object and its "ranks" list are left
 * open for the rows and json_tail. Returns 0, or -1 when it did not fit. */
static int json_head(const struct agg *a, const struct pmpi_site_report *sites, struct tbuf *t)
{
    struct jw w;
    tb_jw(&w, t);
    jw_obj_begin(&w, NULL);
    run_json(&w, a);
    pmpi_callsites_json(sites, &w);
    pmpi_sample_report_json(&w);
    metrics_json(&w, a);
    named_metrics_json(&w, a);
    pmpi_region_energy_head_json(&w); /* after the regions' reduction (pmpi_region_summary) */
    jw_break(&w, "\n");
    jw_arr_begin(&w, "ranks");
    tb_raw(t, "\n");
    return t->cut ? -1 : 0;
}

static int is_apart(int c)
{
    return c == PMPI_ID_MPI_Init || c == PMPI_ID_MPI_Init_thread || c == PMPI_ID_MPI_Finalize;
}

/* Per call over all ranks, sorted by time (mpiP's table): calls, time, mean per call,
 * share of the time in MPI and of the wall time, COV of the per-rank times. MPI_Init,
 * MPI_Init_thread and MPI_Finalize are not part of "time in MPI": listed apart. */
static void banner_calls(FILE *out, const struct agg *a)
{
    int order[PMPI_NCALLS], n = 0, base = NFIXED + pmpi_ev()->nevents;
    double mpi = a->sum[1], wall = a->sum[0];
    for (int c = 0; c < PMPI_NCALLS; c++)
        if (a->sum[base + 4 * c] > 0 && !is_apart(c))
            order[n++] = c;
    for (int i = 1; i < n; i++) /* insertion sort by total time, descending */
        for (int j = i;
             j > 0 && a->sum[base + 4 * order[j] + 1] > a->sum[base + 4 * order[j - 1] + 1]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    fprintf(out, "  %-24s %10s %12s %12s %6s %6s %6s %14s\n", "call (all ranks)", "calls", "time s",
            "mean/call s", "%MPI", "%wall", "COV", "max s (rank)");
    for (int k = 0; k < n && k < pmpi_id()->top; k++) {
        int c = order[k], i = base + 4 * c;
        double t = a->sum[i + 1];
        fprintf(out, "  %-24s %10.0f %12.6f %12.3g %6.1f %6.1f %6.2f %9.6f (%d)\n",
                pmpi_calls[c].name, a->sum[i], t, a->sum[i] > 0 ? t / a->sum[i] : 0.0,
                mpi > 0 ? 100 * t / mpi : 0.0, wall > 0 ? 100 * t / wall : 0.0, cov(a, i + 1),
                a->mx[i + 1].v, a->mx[i + 1].rank);
    }
    if (n > pmpi_id()->top)
        fprintf(out, "  ... %d more calls in papi_mpi_report.json\n", n - pmpi_id()->top);
    for (int c = 0; c < PMPI_NCALLS; c++)
        if (is_apart(c) && a->sum[base + 4 * c] > 0) {
            int i = base + 4 * c + 1;
            fprintf(
                out,
                "  %-24s (apart from time in MPI) min %.6f s (rank %d), mean %.6f s, max %.6f s "
                "(rank %d)\n",
                pmpi_calls[c].name, a->mn[i].v, a->mn[i].rank, a->sum[i] / pmpi_id()->nranks,
                a->mx[i].v, a->mx[i].rank);
        }
}

/* " (min 62.50% running, rank 3)" as perf stat's column, when the metric's events were
 * multiplexed on some rank; "" when every rank counted them all the time. */
static const char *fraction_text(const struct agg *a, int k)
{
    static char buf[64];
    int i = fraction_index(k);
    buf[0] = 0;
    if (pmpi_mpx_on() && ranks_of(a, i) > 0)
        snprintf(buf, sizeof buf, " (%.2f%% running, min on rank %d)", 100 * a->mn[i].v,
                 a->mn[i].rank);
    return buf;
}

static void banner(FILE *out, const struct agg *a, const struct pmpi_site_report *sites)
{
    int P = pmpi_id()->nranks;
    fprintf(out,
            "papi_mpi: %d ranks finished; wall %.3f s; time in MPI %.1f%% (mean), "
            "max %.1f%% on rank %d\n",
            P, a->mx[0].v, a->sum[2] / P, a->mx[2].v, a->mx[2].rank);
    fprintf(out,
            "papi_mpi: compute time (wall - MPI) per rank: min %.6f s (rank %d), mean %.6f s, "
            "max %.6f s (rank %d), max/mean %.3f, COV %.3f\n",
            a->mn[3].v, a->mn[3].rank, a->sum[3] / P, a->mx[3].v, a->mx[3].rank,
            a->sum[3] > 0 ? a->mx[3].v / (a->sum[3] / P) : 0.0, cov(a, 3));
    if (pmpi_ev()->counter_banner && pmpi_ev()->counter_banner[0])
        fprintf(out, "papi_mpi: note: %s\n", pmpi_ev()->counter_banner);
    else if (pmpi_ev()->counter_note && pmpi_ev()->counter_note[0])
        fprintf(out, "papi_mpi: note: %s\n", pmpi_ev()->counter_note);
    fprintf(out, "  %-28s %14s %5s %14s %14s %5s %8s\n", "metric", "min", "rank", "mean", "max",
            "rank", "max/mean");
    for (int i = 0; i < NFIXED + pmpi_ev()->nevents; i++) {
        char name[PMPI_NAME_LEN + 16];
        double mean = a->sum[i] / P;
        metric_name(i, name, sizeof name);
        fprintf(out, "  %-28s %14.6g %5d %14.6g %14.6g %5d %8.3f\n", name, a->mn[i].v,
                a->mn[i].rank, mean, a->mx[i].v, a->mx[i].rank, mean > 0 ? a->mx[i].v / mean : 0.0);
    }
    for (int k = 0, i = named_base(); k < pmpi_ev()->nmetrics; k++, i++) {
        int ranks = ranks_of(a, i);
        double mean = ranks > 0 ? a->sum[i] / ranks : 0, job;
        if (ranks < 1) {
            fprintf(out, "  %-28s no rank has a value (papi_mpi_report.json says why)\n",
                    pmpi_ev()->metric_names[k]);
            continue;
        }
        fprintf(out, "  %-28s %14.6g %5d %14.6g %14.6g %5d %8.3f%s\n", pmpi_ev()->metric_names[k],
                a->mn[i].v, a->mn[i].rank, mean, a->mx[i].v, a->mx[i].rank,
                mean > 0 ? a->mx[i].v / mean : 0.0, fraction_text(a, k));
        if (job_metric(a, k, &job))
            fprintf(out, "  %-28s %14.6g %s for the whole job (summed counts, longest wall time)\n",
                    "", job, pmpi_ev()->metric_units[k]);
        if (pmpi_ev()->metric_socket[k])
            fprintf(out,
                    "  %-28s read once per socket: each rank's value is its socket's, shared by "
                    "the ranks on it\n",
                    "");
        if (pmpi_ev()->metric_device[k])
            fprintf(out,
                    "  %-28s a node's device: each rank's value is its device's, the job's "
                    "takes each node's device once\n",
                    "");
    }
    banner_calls(out, a);
    pmpi_callsites_print(out, sites, pmpi_id()->top); /* the waits' lines: after the rows */
    pmpi_sample_report_print(out);
}

/* Every metric of this rank's row reduced across ranks to rank 0 in ONE PMPI_Reduce
 * (min and max with their ranks, sum, sum of squares); a->m keeps this rank's values. */
static void reduce_metrics(const struct pmpi_row *row, struct agg *a)
{
    static struct mstat in[NMETRICS], out[NMETRICS]; /* static: no allocation can fail */
    a->n = metrics_of(row, a->m);
    for (int i = 0; i < a->n; i++) {
        in[i].mn = in[i].mx = in[i].sum = a->m[i];
        in[i].sq = a->m[i] * a->m[i];
        in[i].mn_rank = in[i].mx_rank = pmpi_id()->rank;
        if (isnan(a->m[i])) { /* no value here: out of min, max and sums */
            in[i].mn = INFINITY;
            in[i].mx = -INFINITY;
            in[i].sum = in[i].sq = 0;
        }
    }
    MPI_Datatype type;
    MPI_Op op;
    PMPI_Type_contiguous((int)sizeof(struct mstat), MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    PMPI_Op_create(mstat_op, 1, &op);
    MPI_Request req;
    pmpi_idle_complete(PMPI_Ireduce(in, out, a->n, type, op, 0, MPI_COMM_WORLD, &req), &req);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
    for (int i = 0; i < a->n; i++) {
        a->mn[i] = (struct dbl_int){out[i].mn, out[i].mn_rank};
        a->mx[i] = (struct dbl_int){out[i].mx, out[i].mx_rank};
        a->sum[i] = out[i].sum;
        a->sq[i] = out[i].sq;
    }
    a->bytes = a->n * (long long)sizeof(struct mstat);
}

/* This rank's parts of the three shared files: rank 0's heads (the report up to the
 * rows, the CSV headers) and every rank's own row of each. */
struct parts {
    struct tbuf head, body, csvh, csv, sumh, sum;
};

/* A row's capacity is fixed: one that does not fit is never written (cut, not
 * truncated); a row holds its partners (up to 1024 per thread, traffic.c). Rank 0's head
 * (the metrics, every call site, the sampled functions) grows with what it holds. */
static void parts_alloc(struct parts *p)
{
    int root = pmpi_id()->rank == 0;
    size_t row_cap = 1024 * 1024, csvh_cap = root ? 4096 : 1;
    if (root)
        tb_init_growing(&p->head, 64 * 1024);
    else
        tb_init(&p->head, malloc(1), 1);
    tb_init(&p->body, malloc(row_cap), row_cap);
    tb_init(&p->csvh, malloc(csvh_cap), csvh_cap);
    tb_init(&p->csv, malloc(row_cap), row_cap);
    tb_init(&p->sumh, malloc(csvh_cap), csvh_cap);
    tb_init(&p->sum, malloc(4096), 4096);
}

static void parts_format(struct parts *p, const struct agg *a, const struct pmpi_site_report *sites,
                         const struct pmpi_row *row)
{
    if (pmpi_id()->rank == 0) {
        json_head(a, sites, &p->head);
        pmpi_calls_csv_header(&p->csvh);
        pmpi_summary_csv_header(&p->sumh);
    }
    pmpi_row_json(row, &p->body);
    pmpi_row_calls_csv(row, &p->csv);
    pmpi_row_summary_csv(row, &p->sum);
}

static void parts_free(struct parts *p)
{
    struct tbuf *all[] = {&p->head, &p->body, &p->csvh, &p->csv, &p->sumh, &p->sum};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]->s);
}

/* One shared file from a head and a row; a part that was cut is missing (NULL). */
static struct pmpi_shared shared(const struct tbuf *head, const struct tbuf *body, const char *sep,
                                 const char *tail)
{
    return (struct pmpi_shared){head->cut ? NULL : head->s,
                                head->len,
                                body->cut ? NULL : body->s,
                                body->len,
                                sep,
                                tail,
                                NULL,
                                NULL};
}

/* Rank 0, once every rank's wait report part is folded (or there is none): the fold
 * kept when every rank's waits were computed. */
static void settle_waits(struct agg *a)
{
    if (a->settled++ || pmpi_id()->rank != 0)
        return;
    a->waits = pmpi_wait_report_settle(a->waits, a->wait_result);
}

/* Why the report has no root causes where the replay did not run. */
static const char *cause_off(const struct pmpi_wait_result *w)
{
    if (!w->done)
        return "no wait states";
    return pmpi_env_flag("PAPI_MPI_ROOT_CAUSES", 0, pmpi_id()->rank, "0 used")
               ? "a rank had no memory for the replay"
               : "off (PAPI_MPI_ROOT_CAUSES=1 computes them at MPI_Finalize)";
}

/* Rank 0, after the last row: the report's end, the wait states with it (their parts
 * came with the rows), handed to the file a buffer at a time as it is made: the ranks'
 * wait-state text (about 330 B a rank) is copied from the fold's spools (memory, then
 * their unnamed files). -1 when a piece was longer than the buffer (said). */
static int json_tail(void *arg, void (*put)(void *o, const char *s, size_t n), void *o)
{
    static char mem[1 << 16]; /* rank 0's only, once */
    struct agg *a = arg;
    struct tbuf t;
    settle_waits(a);
    tb_init_sink(&t, mem, sizeof mem, put, o);
    struct jw w;
    tb_jw(&w, &t);
    jw_resume(&w, 1); /* the report's object, opened by json_head */
    jw_resume(&w, 1); /* its "ranks", each row written by its rank */
    jw_break(&w, "\n");
    jw_arr_end(&w);
    jw_break(&w, "\n");
    pmpi_wait_report_json(&w, &t, a->waits, a->wait_result);
    jw_break(&w, "\n");
    pmpi_cause_report_json(&w, a->wait_result->causes, cause_off(a->wait_result));
    jw_obj_end(&w);
    tb_raw(&t, "\n");
    tb_flush(&t);
    if (t.cut) {
        fprintf(stderr,
                "papi_mpi: a piece of the report's wait states did not fit its %zu-byte "
                "buffer: the report is not written\n",
                sizeof mem);
        return -1;
    }
    return 0;
}

/* Collective: the three files written by rank 0 from every rank's parts (and its wait
 * report part, folded on rank 0), published together. Nonzero: not published. */
static int write_files(const struct parts *p, struct agg *a, const struct pmpi_row *row,
                       const struct pmpi_pull_agreed *agreed)
{
    static const char *const names[3] = {"papi_mpi_report.json", "papi_mpi_ranks.csv",
                                         "papi_mpi_summary.csv"};
    char tmps[3][PMPI_TMP_NAME];
    long long wbytes = 0;
    struct pmpi_shared files[3] = {
        shared(&p->head, &p->body, ",\n", ""),
        shared(&p->csvh, &p->csv, "", ""),
        shared(&p->sumh, &p->sum, "", ""),
    };
    files[0].late_tail = json_tail;
    files[0].arg = a;
    const struct pmpi_shared_record rec = {pmpi_wait_report_part(row, a->wait_result),
                                           pmpi_wait_report_part_size(),
                                           a->waits ? pmpi_wait_report_take : NULL, a->waits};
    int bad = pmpi_write_shared(names, files, 3, &rec, agreed, &wbytes, tmps);
    settle_waits(a); /* where the pull did not run */
    return pmpi_publish_shared(names, tmps, 3, bad);
}

/* Rank 0: where the files went (or that they were not published), after the banner. */
static void say_result(FILE *out, const struct agg *a, int bad, double total)
{
    if (bad)
        fprintf(out,
                "papi_mpi: FAILED to write the report in %s (see the error above): no "
                "report published; every rank's exit status 0 becomes 74 (EX_IOERR)\n",
                pmpi_outdir_fd() >= 0 ? pmpi_id()->outdir : "(no directory)");
    else
        fprintf(out,
                "papi_mpi: wrote %s/papi_mpi_report.json, papi_mpi_ranks.csv and "
                "papi_mpi_summary.csv; "
                "aggregation %.3f ms (%lld B per rank to the reduction), with files %.3f ms\n",
                pmpi_id()->outdir, a->seconds * 1e3, a->bytes, total * 1e3);
}

int pmpi_aggregate_and_report(const struct pmpi_row *row, struct pmpi_wait_result *waits,
                              const struct pmpi_pull_agreed *files_agreed, int regions_agreed)
{
    static struct agg agg; /* static: no allocation can keep a rank from the reduction */
    struct parts parts;
    memset(&agg, 0, sizeof agg);
    agg.waits = pmpi_wait_report_fold(waits); /* rank 0: folded from the files' pull */
    agg.wait_result = waits;
    long long t0 = pmpi_now_ns();
    reduce_metrics(row, &agg);
    pmpi_sample_report_reduce(); /* PAPI_SAMPLE: the sampled functions, job-wide */
    double ns_per_tick = pmpi_ns_per_tick(pmpi_end()->t_final, pmpi_end()->tick_final);
    struct pmpi_site_report *sites =
        pmpi_rec.callsites ? pmpi_callsites_merge(ns_per_tick, waits) : NULL;
    agg.seconds = (double)(pmpi_now_ns() - t0) * 1e-9;
    /* Rank 0 prints the regions before the banner's tail; the banner goes out in whole
     * lines (stdout_lines.h), before the files are written (their errors follow it). */
    struct pmpi_lines lines;
    FILE *out = pmpi_id()->rank == 0 ? pmpi_lines_open(&lines) : stdout;
    if (pmpi_id()->rank == 0)
        banner(out, &agg, sites);
    pmpi_region_summary(row, regions_agreed, out);
    if (pmpi_id()->rank == 0)
        pmpi_lines_write(&lines);
    parts_alloc(&parts);
    parts_format(&parts, &agg, sites, row);
    int bad = write_files(&parts, &agg, row, files_agreed);
    if (pmpi_id()->rank == 0) {
        out = pmpi_lines_open(&lines);
        pmpi_wait_report_print(out, agg.waits);
        if (agg.waits)
            pmpi_cause_report_print(out, waits->causes);
        say_result(out, &agg, bad, (double)(pmpi_now_ns() - t0) * 1e-9);
        pmpi_lines_write(&lines);
    }
    pmpi_callsites_free(sites);
    parts_free(&parts);
    pmpi_wait_report_free(agg.waits);
    agg.waits = NULL;
    return bad;
}
