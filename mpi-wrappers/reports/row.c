/* row.c: one rank's row (times, counters, per-call statistics, regions) and its JSON
 * and CSV text. Used at MPI_Finalize, by the checkpoint thread and by the exit paths,
 * signal handlers included: formatting goes into a caller's fixed buffer (text_buffer),
 * without allocation or lock in PMPI_ROW_SIGNAL mode. */
#include <string.h>

#include "clock.h"
#include "counter_mpx.h"
#include "counters.h"
#include "energy_events.h"
#include "gpu_row.h"
#include "mpi_sample.h"
#include "rank_series.h"
#include "record.h"
#include "region_state.h"
#include "omp_hybrid.h"
#include "row.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "socket_layout.h"
#include "text_buffer.h"
#include "traffic.h"

static int lock_for(int mode)
{
    if (mode == PMPI_ROW_SIGNAL)
        return 0;
    if (mode == PMPI_ROW_NORMAL)
        return pthread_mutex_lock(&pmpi_state_lock) == 0;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    return pthread_mutex_timedlock(&pmpi_state_lock, &until) == 0;
}

/* The finished row's counts, read as MPI_Finalize begins (pmpi_row_read_final). */
static struct {
    int taken;
    long long counts[PMPI_MAX_EVENTS];
    const char *note;
} final;

struct pmpi_run_end pmpi_row_read_final(void)
{
    pthread_mutex_lock(&pmpi_state_lock);
    long long t_final;
    final.note = pmpi_counters_read_rank_at(final.counts, &t_final);
    pmpi_end_set(t_final, pmpi_ticks());
    final.taken = 1;
    pthread_mutex_unlock(&pmpi_state_lock);
    return *pmpi_end();
}

void pmpi_collect_row(struct pmpi_row *row, int finished, const char *reason, int mode,
                      long long end_ns, long long end_tick)
{
    long long end = end_ns ? end_ns : pmpi_now_ns();
    if (!end_tick)
        end_tick = pmpi_ticks();
    long long mpi_ticks = 0;
    double ns_per_tick = pmpi_ns_per_tick(end, end_tick);
    int n = atomic_load(&pmpi_rec.nthreads);
    memset(row, 0, sizeof *row);
    row->rank = pmpi_id()->rank;
    row->nranks = pmpi_id()->nranks;
    row->finished = finished;
    row->exit_reason = reason;
    row->nthreads = n;
    row->ns_per_tick = ns_per_tick;
    row->traffic = mode != PMPI_ROW_SIGNAL; /* a handler's fixed buffer has no room */
    row->gpu = mode == PMPI_ROW_NORMAL;     /* locks: not on an exit path nor in a handler */
    n = pmpi_record_nslots();               /* the shared overflow slot included */
    for (int t = 0; t < n; t++) {
        const struct pmpi_thread *th = &pmpi_rec.threads[t];
        mpi_ticks += atomic_load(&th->mpi_ticks);
        for (int c = 0; c < PMPI_NCALLS; c++) {
            row->calls[c] += atomic_load(&th->stat[c].calls);
            row->ns[c] += atomic_load(&th->stat[c].ns);
            row->sent[c] += atomic_load(&th->stat[c].sent);
            row->recvd[c] += atomic_load(&th->stat[c].recvd);
        }
    }
    for (int c = 0; c < PMPI_NCALLS; c++)
        row->ns[c] = (long long)((double)row->ns[c] * ns_per_tick);
    row->wall_s = (double)(end - pmpi_id()->t_init) * 1e-9;
    row->mpi_thread_sum_s = (double)mpi_ticks * ns_per_tick * 1e-9;
    row->mpi_s = (double)pmpi_busy_ticks(mpi_ticks, end_tick) * ns_per_tick * 1e-9;
    if (!lock_for(mode)) {
        /* PAPI_read may lock or allocate: a handler must not. Regions are copied as they
         * are (a torn value is possible; a hang is not). */
        row->counter_note = mode == PMPI_ROW_SIGNAL
                                ? "counters not read: the row was written in a signal handler"
                                : "counters not read: the wrapper's lock was held at exit";
        row->nregions = pmpi_regions()->nregions;
        memcpy(row->regions, pmpi_regions()->regions, sizeof row->regions);
        return;
    }
    row->counters_read = 1;
    long long read_ns = end;
    if (finished && final.taken) { /* read at end: the series' last sample ends there */
        memcpy(row->counts, final.counts, sizeof row->counts);
        row->counter_note = final.note;
    } else { /* an exit or checkpoint row: the counts of now (its end came earlier) */
        row->counter_note = pmpi_counters_read_rank_at(row->counts, &read_ns);
    }
    pmpi_counters_metrics(row->counts, row->wall_s, row->metric, row->metric_ok, row->metric_why,
                          sizeof row->metric_why[0]);
    pmpi_mpx_metric_fractions(row->metric_fraction);
    row->series_end_ns = read_ns - pmpi_id()->t_init; /* the series' last sample: these counts */
    row->nregions = pmpi_regions()->nregions;
    memcpy(row->regions, pmpi_regions()->regions, sizeof row->regions);
    pthread_mutex_unlock(&pmpi_state_lock);
}

/* {event: count} of the events counted here: a socket's event another rank counts is
 * left out, never written as 0. */
static void counters_json(struct jw *w, const char *key, const long long *counts, int rank_row)
{
    jw_obj_begin(w, key);
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (pmpi_socket_counted_here(pmpi_ev()->event_names[e], rank_row))
            jw_int(w, pmpi_ev()->event_names[e], counts[e]);
    jw_obj_end(w);
}

/* The ranks of this node reading its devices: the most over the node device events. */
static int device_sharing(void)
{
    int most = 0;
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (pmpi_device_shared_by(e) > most)
            most = pmpi_device_shared_by(e);
    return most;
}

/* The shared metrics: {metric: ranks on this rank's socket (a socket's events) or node
 * reading its devices (a GPU's)}; the latter known at MPI_Finalize only. */
static void shared_by_json(struct jw *w)
{
    const struct pmpi_socket_share *s = pmpi_socket();
    int first = 1, dev = device_sharing();
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        int n = pmpi_ev()->metric_socket[k] && s ? s->shared_by
                : pmpi_ev()->metric_device[k]    ? dev
                                                 : 0;
        if (n < 1)
            continue;
        if (first)
            jw_obj_begin(w, "named_metrics_shared_by");
        jw_int(w, pmpi_ev()->metric_names[k], n);
        first = 0;
    }
    if (!first)
        jw_obj_end(w);
}

/* {event: the node's ranks reading the device} of the node device events counted here:
 * each rank's count is the device's, the job's totals take it once per node. */
static void counters_shared_by_json(struct jw *w)
{
    int first = 1;
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        if (pmpi_device_shared_by(e) < 1 || !pmpi_node_device_event(pmpi_ev()->event_names[e]))
            continue;
        if (first)
            jw_obj_begin(w, "counters_shared_by");
        jw_int(w, pmpi_ev()->event_names[e], pmpi_device_shared_by(e));
        first = 0;
    }
    if (!first)
        jw_obj_end(w);
}

/* Each metric's running fraction (1 unless its events were multiplexed), and why the
 * sets were multiplexed. */
static void running_fraction_json(struct jw *w, const struct pmpi_row *row)
{
    jw_obj_begin(w, "named_metrics_running_fraction");
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        jw_digits(w, pmpi_ev()->metric_names[k], row->metric_fraction[k], 6);
    jw_obj_end(w);
    if (pmpi_mpx_note())
        jw_str(w, "multiplexed", pmpi_mpx_note());
}

/* The rank's named metrics (null where one has no value, with why). */
static void named_metrics_json(struct jw *w, const struct pmpi_row *row)
{
    jw_obj_begin(w, "named_metrics");
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        if (row->metric_ok[k])
            jw_digits(w, pmpi_ev()->metric_names[k], row->metric[k], 9);
        else
            jw_null(w, pmpi_ev()->metric_names[k]);
    }
    jw_obj_end(w);
    running_fraction_json(w, row);
    shared_by_json(w);
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        if (!row->metric_ok[k]) {
            jw_str(w, "named_metrics_note", row->metric_why[k]);
            break;
        }
}

/* Who and where, the times, the counters (when read). */
static void row_head_json(struct jw *w, const struct pmpi_row *row)
{
    jw_int(w, "rank", row->rank);
    jw_str(w, "run_id", pmpi_id()->run_id);
    jw_str(w, "host", pmpi_id()->host);
    jw_bool(w, "finished", row->finished);
    if (row->exit_reason)
        jw_str(w, "exit_reason", row->exit_reason);
    jw_int(w, "threads", row->nthreads);
    jw_secs(w, "wall_s", (long long)(row->wall_s * 1e9));
    jw_secs(w, "mpi_s", (long long)(row->mpi_s * 1e9));
    jw_secs(w, "mpi_thread_sum_s", (long long)(row->mpi_thread_sum_s * 1e9));
    if (row->counter_note)
        jw_str(w, "counter_note", row->counter_note);
    if (row->counters_read) {
        counters_json(w, "counters", row->counts, 1);
        counters_shared_by_json(w);
        if (pmpi_ev()->nmetrics > 0)
            named_metrics_json(w, row);
        pmpi_series_json(w, row->counts, row->series_end_ns);
    }
}

/* {call: calls, time, bytes} of the calls the rank made. */
static void calls_json(struct jw *w, const struct pmpi_row *row)
{
    jw_obj_begin(w, "calls");
    for (int c = 0; c < PMPI_NCALLS; c++) {
        if (!row->calls[c])
            continue;
        jw_obj_begin(w, pmpi_calls[c].name);
        jw_int(w, "calls", row->calls[c]);
        jw_secs(w, "time_s", row->ns[c]);
        jw_int(w, "bytes_sent", row->sent[c]);
        jw_int(w, "bytes_recv", row->recvd[c]);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

/* One MPI_Pcontrol region of the rank: times, its calls, counters, energy, OpenMP, GPU
 * (written into t's free room: w's buffer). */
static void region_json(struct jw *w, struct tbuf *t, const struct pmpi_row *row, int i,
                        const struct ompt_query *omp)
{
    const struct pmpi_region *r = &row->regions[i];
    long long mpi_ns = (long long)((double)r->mpi_ticks * row->ns_per_tick);
    jw_obj_begin(w, r->name);
    jw_int(w, "entries", r->entries);
    jw_secs(w, "wall_s", r->wall_ns);
    jw_secs(w, "mpi_s", mpi_ns);
    jw_int(w, "mpi_calls", r->mpi_calls);
    jw_obj_begin(w, "calls");
    for (int c = 0; c < r->ncalls && c < PMPI_REGION_CALLS; c++) {
        int id = r->calls[c].id;
        if (id < 0 || id >= PMPI_NCALLS) /* a copy torn by a signal handler's row */
            continue;
        jw_obj_begin(w, pmpi_calls[id].name);
        jw_int(w, "calls", r->calls[c].calls);
        jw_secs(w, "time_s", (long long)((double)r->calls[c].ticks * row->ns_per_tick));
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_int(w, "calls_unlisted", r->calls_unlisted);
    counters_json(w, "counters", r->counts, 0);
    if (row->counters_read)
        pmpi_energy_region_json(w, r->counts, r->wall_ns);
    pmpi_omp_region_json(w, omp, i, r->wall_ns, mpi_ns);
    if (row->gpu)
        pmpi_gpu_region_json(w, t, r);
    jw_obj_end(w);
}

static void regions_json(struct jw *w, struct tbuf *t, const struct pmpi_row *row)
{
    struct ompt_query omp = {0}; /* the OMPT tool's table: at MPI_Finalize, not in a handler */
    if (row->finished)
        ompt_query_load(&omp);
    jw_obj_begin(w, "regions");
    for (int i = 0; i < row->nregions; i++)
        region_json(w, t, row, i, &omp);
    jw_obj_end(w);
    ompt_query_free(&omp);
}

void pmpi_row_json(const struct pmpi_row *row, struct tbuf *t)
{
    struct jw w;
    tb_jw(&w, t);
    jw_obj_begin(&w, NULL);
    row_head_json(&w, row);
    calls_json(&w, row);
    regions_json(&w, t, row);
    if (row->finished)
        pmpi_omp_row_json(&w, row->wall_s, row->mpi_s);
    if (row->traffic)
        pmpi_traffic_json(&w, row->ns_per_tick);
    if (row->finished)
        pmpi_sample_row_json(&w); /* PAPI_SAMPLE: the rank's sampled functions */
    if (row->gpu) {
        pmpi_gpu_row_json(&w, t); /* last: it takes what room the row's buffer has left */
        if (row->finished)
            pmpi_gpu_say_losses();
    }
    jw_obj_end(&w);
}

/* papi_mpi_summary.csv: one line per rank (times, threads, counters). */
void pmpi_summary_csv_header(struct tbuf *t)
{
    tb_raw(t, "rank,finished,threads,wall_s,mpi_s,mpi_thread_sum_s");
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        tb_raw(t, ",");
        tb_csv(t, pmpi_ev()->event_names[e]);
    }
    tb_raw(t, "\n");
}

void pmpi_row_summary_csv(const struct pmpi_row *row, struct tbuf *t)
{
    tb_int(t, row->rank);
    tb_raw(t, row->finished ? ",1," : ",0,");
    tb_int(t, row->nthreads);
    tb_kv_secs(t, ",", (long long)(row->wall_s * 1e9));
    tb_kv_secs(t, ",", (long long)(row->mpi_s * 1e9));
    tb_kv_secs(t, ",", (long long)(row->mpi_thread_sum_s * 1e9));
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        tb_raw(t, ",");
        /* empty field: not read (signal handler), or the socket's reader counts it */
        if (row->counters_read && pmpi_socket_counted_here(pmpi_ev()->event_names[e], 1))
            tb_int(t, row->counts[e]);
    }
    tb_raw(t, "\n");
}

/* papi_mpi_ranks.csv in long form: one line per (rank, call the rank made), so a
 * rank's bytes grow with the calls it used, not with the number wrapped. */
void pmpi_calls_csv_header(struct tbuf *t)
{
    tb_raw(t, "rank,call,calls,time_s,bytes_sent,bytes_recv\n");
}

void pmpi_row_calls_csv(const struct pmpi_row *row, struct tbuf *t)
{
    for (int c = 0; c < PMPI_NCALLS; c++) {
        if (!row->calls[c])
            continue;
        tb_int(t, row->rank);
        tb_raw(t, ",");
        tb_raw(t, pmpi_calls[c].name);
        tb_kv_int(t, ",", row->calls[c]);
        tb_kv_secs(t, ",", row->ns[c]);
        tb_kv_int(t, ",", row->sent[c]);
        tb_kv_int(t, ",", row->recvd[c]);
        tb_raw(t, "\n");
    }
}
