/* aggregate.c: at MPI_Finalize, min/mean/max (and the ranks holding min and max) of
 * every metric by ONE reduction to rank 0 with a user operation that does MINLOC,
 * MAXLOC and SUM at once: each rank hands MPI one fixed-size vector whatever the number
 * of ranks (a tree reduction: what a rank sends does not grow with P). Rank 0 prints
 * the banner; all ranks then write the JSON report and the CSV together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_mpi_internal.h"
#include "text_buffer.h"

#define NMETRICS (3 + PMPI_MAX_EVENTS + 4 * PMPI_NCALLS)

struct dbl_int {
    double v;
    int rank;
};

/* One metric across ranks: what the reduction carries. */
struct mstat {
    double mn, mx, sum;
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
    }
}

static const char *call_field[4] = {"calls", "time_s", "bytes_sent", "bytes_recv"};

/* Metric i of a row: wall, MPI time, MPI share, counters, then 4 per call. */
static int metrics_of(const struct pmpi_row *row, double *m)
{
    int n = 0;
    m[n++] = row->wall_s;
    m[n++] = row->mpi_s;
    m[n++] = row->wall_s > 0 ? 100.0 * row->mpi_s / row->wall_s : 0;
    for (int e = 0; e < pmpi_g.nevents; e++)
        m[n++] = (double)row->counts[e];
    for (int c = 0; c < PMPI_NCALLS; c++) {
        m[n++] = (double)row->calls[c];
        m[n++] = (double)row->ns[c] * 1e-9;
        m[n++] = (double)row->sent[c];
        m[n++] = (double)row->recvd[c];
    }
    return n;
}

static void metric_name(int i, char *buf, size_t len)
{
    static const char *fixed[3] = {"wall_s", "mpi_s", "mpi_pct"};
    if (i < 3) {
        snprintf(buf, len, "%s", fixed[i]);
        return;
    }
    i -= 3;
    if (i < pmpi_g.nevents) {
        snprintf(buf, len, "%s", pmpi_g.event_names[i]);
        return;
    }
    i -= pmpi_g.nevents;
    snprintf(buf, len, "%s.%s", pmpi_calls[i / 4].name, call_field[i % 4]);
}

struct agg {
    struct dbl_int mn[NMETRICS], mx[NMETRICS];
    double sum[NMETRICS];
    double m[NMETRICS];
    int n;
    long long bytes; /* what this rank handed to MPI for the aggregation and files */
    double seconds;
};

/* The report up to the ranks' rows (rank 0). Returns 0, or -1 when it did not fit. */
static int json_head(const struct agg *a, const struct pmpi_site_report *sites, struct tbuf *t)
{
    tb_raw(t, "{\"tool\": \"papi_mpi\", \"run_id\": ");
    tb_json(t, pmpi_g.run_id);
    tb_raw(t, ", \"nranks\": ");
    tb_int(t, pmpi_g.nranks);
    tb_raw(t, ", \"finished_ranks\": ");
    tb_int(t, pmpi_g.nranks);
    tb_raw(t, ", \"events\": [");
    for (int e = 0; e < pmpi_g.nevents; e++) {
        tb_raw(t, e ? ", " : "");
        tb_json(t, pmpi_g.event_names[e]);
    }
    tb_raw(t, "], \"counter_note\": ");
    tb_json(t, pmpi_g.counter_note);
    tb_fmt(t, ", \"aggregation\": {\"seconds\": %.9f, \"bytes_per_rank\": %lld, "
              "\"method\": \"one PMPI_Reduce (min/max/sum with ranks), call sites merged "
              "up a binomial tree, PMPI_Exscan, PMPI_File_write_at\"}, ",
           a->seconds, a->bytes);
    pmpi_callsites_json(sites, t);
    tb_raw(t, ",\n\"metrics\": {");
    int first = 1;
    for (int i = 0; i < a->n; i++) {
        char name[PMPI_NAME_LEN + 16];
        if (i >= 3 + pmpi_g.nevents && a->mx[i].v == 0 && a->mn[i].v == 0)
            continue; /* a call no rank made */
        metric_name(i, name, sizeof name);
        double mean = a->sum[i] / pmpi_g.nranks;
        tb_raw(t, first ? "\n  " : ",\n  ");
        tb_json(t, name);
        tb_fmt(t, ": {\"min\": %.9g, \"min_rank\": %d, \"mean\": %.9g, \"max\": %.9g, "
                  "\"max_rank\": %d, \"imbalance\": %.6f}",
               a->mn[i].v, a->mn[i].rank, mean, a->mx[i].v, a->mx[i].rank,
               mean > 0 ? a->mx[i].v / mean : 0.0);
        first = 0;
    }
    tb_raw(t, "},\n\"ranks\": [\n");
    return t->cut ? -1 : 0;
}

static void banner(const struct agg *a, const struct pmpi_site_report *sites)
{
    int P = pmpi_g.nranks;
    printf("papi_mpi: %d ranks finished; wall %.3f s; time in MPI %.1f%% (mean), "
           "max %.1f%% on rank %d\n",
           P, a->mx[0].v, a->sum[2] / P, a->mx[2].v, a->mx[2].rank);
    if (pmpi_g.counter_note[0])
        printf("papi_mpi: note: %s\n", pmpi_g.counter_note);
    printf("  %-28s %14s %5s %14s %14s %5s %8s\n", "metric", "min", "rank", "mean", "max",
           "rank", "max/mean");
    for (int i = 0; i < 3 + pmpi_g.nevents; i++) {
        char name[PMPI_NAME_LEN + 16];
        double mean = a->sum[i] / P;
        metric_name(i, name, sizeof name);
        printf("  %-28s %14.6g %5d %14.6g %14.6g %5d %8.3f\n", name, a->mn[i].v, a->mn[i].rank,
               mean, a->mx[i].v, a->mx[i].rank, mean > 0 ? a->mx[i].v / mean : 0.0);
    }
    /* The calls that took the most time (max over ranks), at most five. */
    int shown[5], nshown = 0;
    for (int k = 0; k < 5; k++) {
        int best = -1;
        for (int c = 0; c < PMPI_NCALLS; c++) {
            int i = 3 + pmpi_g.nevents + 4 * c + 1, dup = 0;
            for (int j = 0; j < nshown; j++)
                dup |= shown[j] == c;
            if (!dup && a->mx[i].v > 0 &&
                (best < 0 || a->mx[i].v > a->mx[3 + pmpi_g.nevents + 4 * best + 1].v))
                best = c;
        }
        if (best < 0)
            break;
        shown[nshown++] = best;
        int i = 3 + pmpi_g.nevents + 4 * best;
        printf("  %-28s calls %.0f..%.0f, time %.6f..%.6f s (max rank %d), sent %.0f B max\n",
               pmpi_calls[best].name, a->mn[i].v, a->mx[i].v, a->mn[i + 1].v, a->mx[i + 1].v,
               a->mx[i + 1].rank, a->mx[i + 2].v);
    }
    pmpi_callsites_print(sites, 5);
    fflush(stdout);
}

int pmpi_aggregate_and_report(const struct pmpi_row *row)
{
    static struct agg agg; /* static: no allocation can keep a rank from the reduction */
    static struct mstat in[NMETRICS], out[NMETRICS];
    struct agg *a = &agg;
    memset(a, 0, sizeof *a);
    long long t0 = pmpi_now_ns();
    a->n = metrics_of(row, a->m);
    for (int i = 0; i < a->n; i++) {
        in[i].mn = in[i].mx = in[i].sum = a->m[i];
        in[i].mn_rank = in[i].mx_rank = pmpi_g.rank;
    }
    MPI_Datatype type;
    MPI_Op op;
    PMPI_Type_contiguous((int)sizeof(struct mstat), MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    PMPI_Op_create(mstat_op, 1, &op);
    PMPI_Reduce(in, out, a->n, type, op, 0, MPI_COMM_WORLD);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
    for (int i = 0; i < a->n; i++) {
        a->mn[i] = (struct dbl_int){out[i].mn, out[i].mn_rank};
        a->mx[i] = (struct dbl_int){out[i].mx, out[i].mx_rank};
        a->sum[i] = out[i].sum;
    }
    a->bytes = a->n * (long long)sizeof(struct mstat);

    double ns_per_tick = pmpi_ns_per_tick(pmpi_g.t_final, pmpi_g.tick_final);
    struct pmpi_site_report *sites = pmpi_g.callsites ? pmpi_callsites_merge(ns_per_tick) : NULL;
    a->seconds = (double)(pmpi_now_ns() - t0) * 1e-9;

    /* Fixed capacities: a part that does not fit is never written (cut, not truncated). */
    size_t head_cap = pmpi_g.rank == 0 ? 65536 + (size_t)a->n * 200 : 1;
    size_t row_cap = 256 * 1024, csvh_cap = pmpi_g.rank == 0 ? 64 + (size_t)PMPI_NCALLS * 160 : 1;
    struct tbuf head, body, csvh, csv;
    tb_init(&head, malloc(head_cap), head_cap);
    tb_init(&body, malloc(row_cap), row_cap);
    tb_init(&csvh, malloc(csvh_cap), csvh_cap);
    tb_init(&csv, malloc(row_cap), row_cap);
    if (pmpi_g.rank == 0) {
        json_head(a, sites, &head);
        pmpi_csv_header(&csvh);
    }
    pmpi_row_json(row, &body);
    pmpi_row_csv(row, &csv);
    long long wbytes = 0;
    int bad = pmpi_write_shared("papi_mpi_report.json", head.cut ? NULL : head.s, head.len,
                                body.cut ? NULL : body.s, body.len, ",\n", "\n]}\n", &wbytes);
    bad |= pmpi_write_shared("papi_mpi_ranks.csv", csvh.cut ? NULL : csvh.s, csvh.len,
                             csv.cut ? NULL : csv.s, csv.len, "", "", &wbytes);
    double total = (double)(pmpi_now_ns() - t0) * 1e-9;
    if (pmpi_g.rank == 0) {
        banner(a, sites);
        if (bad)
            printf("papi_mpi: FAILED to write the report in %s (see the error above): no "
                   "report published\n", pmpi_g.outdir_fd >= 0 ? pmpi_g.outdir : "(no directory)");
        else
            printf("papi_mpi: wrote %s/papi_mpi_report.json and papi_mpi_ranks.csv; "
                   "aggregation %.3f ms (%lld B per rank to the reduction), with files %.3f ms\n",
                   pmpi_g.outdir, a->seconds * 1e3, a->bytes, total * 1e3);
        fflush(stdout);
    }
    pmpi_callsites_free(sites);
    free(head.s);
    free(body.s);
    free(csvh.s);
    free(csv.s);
    return bad;
}
