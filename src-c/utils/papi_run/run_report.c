/* run_report.c: papi_run's file, DIR/papi_run_output/rank_XXXXXX-RUNID.json, in the region
 * API's format (PAPI 7's schema, papi_hl_report(5)) so papi_report and PAPI 7's
 * papi_hl_output_writer read it: one whole-program region "papi_run" with the totals of
 * every thread and child process. With --per-thread, "threads" holds each thread's own
 * counts (from the preloaded library) and the whole program's stay in "process_totals".
 * The --interval series is "series": per sample its time and the counts of that interval
 * (they sum to the totals). Written under a temporary name, then linked to its own name
 * (rank_XXXXXX-RUNID.json) only when no file has it. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "env.h"
#include "json_writer.h"
#include "output_file.h"
#include "papi_metrics.h"
#include "region_file_head.h"
#include "run.h"
#include "run_metrics.h"
#include "run_omp_live.h"
#include "run_openmp.h"
#include "run_report.h"
#include "run_threads.h"

/* The name of the component that counts event name ("perf_event", "powercap" ...). */
static void component_of(const char *name, char *out, size_t len)
{
    int code;
    const PAPI_component_info_t *c = NULL;
    if (PAPI_event_name_to_code(name, &code) == PAPI_OK)
        c = PAPI_get_component_info(PAPI_get_event_component(code));
    snprintf(out, len, "%s", c ? c->name : "perf_event");
}

/* Event name's unit into units[len] (as papi_native_avail lists it; "" for a plain
 * count) and its scope in the file (region.schema.json): "device" when its component
 * counts system-wide only (PAPI_GRN_SYS: a GPU, the node's counters, a socket's energy:
 * the same value whichever thread reads it), else "thread"; NULL (neither written) for
 * a name that does not resolve here. As the region API's hl_regions_config.c. */
static const char *event_meta(const char *name, char *units, size_t len)
{
    int code;
    PAPI_event_info_t info;
    units[0] = '\0';
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK)
        return NULL;
    if (PAPI_get_event_info(code, &info) == PAPI_OK)
        snprintf(units, len, "%s", info.units);
    const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
    return c && c->available_granularities == PAPI_GRN_SYS ? "device" : "thread";
}

static void write_events(struct jw *w, const struct run_state *s, const long long *v)
{
    long long cycles = 0;
    for (int i = 0; i < s->opt.nevents; i++)
        if (strcmp(s->opt.events[i], "PAPI_TOT_CYC") == 0)
            cycles = v[i];
    jw_int(w, "cycles", cycles);
    for (int i = 0; i < s->opt.nevents; i++)
        jw_int(w, s->opt.events[i], v[i]);
}

static void write_region(struct jw *w, const struct run_state *s, const char *key,
                         const long long *v, long long real_ns)
{
    jw_obj_begin(w, key);
    jw_obj_begin(w, "regions");
    jw_obj_begin(w, "0");
    jw_str(w, "name", "papi_run");
    jw_int(w, "parent_region_id", -1);
    jw_int(w, "region_count", 1);
    jw_int(w, "real_time_nsec", real_ns);
    write_events(w, s, v);
    jw_obj_end(w);
    jw_obj_end(w);
    jw_obj_end(w);
}

static void write_threads(struct jw *w, const struct run_state *s, const struct run_threads *t)
{
    char key[32];
    jw_obj_begin(w, "threads");
    if (t && t->n > 0) {
        for (int i = 0; i < t->n; i++) {
            snprintf(key, sizeof key, "%ld", (long)t->row[i].tid);
            write_region(w, s, key, t->row[i].value, t->row[i].real_ns);
        }
    } else {
        snprintf(key, sizeof key, "%ld", (long)s->child);
        write_region(w, s, key, s->value, s->end_ns - s->start_ns);
    }
    jw_obj_end(w);
}

/* "metrics": {name: value} of one interval's counts over its time (-m): each sample's
 * metric from its own counts, never a ratio of averages. */
static void write_sample_metrics(struct jw *w, const struct run_state *s, const long long *d,
                                 long long dt_ns)
{
    if (s->opt.nmetrics == 0)
        return;
    jw_obj_begin(w, "metrics");
    for (int m = 0; m < s->opt.nmetrics; m++) {
        double v;
        if (run_metric_value(s, m, d, (double)dt_ns * 1e-9, &v) == 0)
            jw_double(w, s->opt.metrics[m], v);
        else
            jw_null(w, s->opt.metrics[m]);
    }
    jw_obj_end(w);
}

static void write_series(struct jw *w, const struct run_state *s)
{
    long long d[RUN_MAX_EVENTS];
    if (s->series.n == 0)
        return;
    jw_obj_begin(w, "series");
    jw_double(w, "interval_s", (double)s->series.step_ns * 1e-9);
    jw_int(w, "skipped", s->skipped);
    jw_str(w, "counts", "of each interval (the samples sum to the totals)");
    jw_arr_begin(w, "samples");
    for (int k = 0; k < s->series.n; k++) {
        jw_obj_begin(w, NULL);
        jw_int(w, "time_nsec", s->series.t[k]);
        for (int i = 0; i < s->opt.nevents; i++) {
            d[i] = cs_delta(&s->series, k, i);
            jw_int(w, s->opt.events[i], d[i]);
        }
        write_sample_metrics(w, s, d, s->series.t[k] - (k ? s->series.t[k - 1] : 0));
        run_omp_live_write(w, s, k);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void write_metrics(struct jw *w, const struct run_state *s)
{
    const double seconds = (double)(s->end_ns - s->start_ns) * 1e-9;
    if (s->opt.nmetrics == 0)
        return;
    jw_obj_begin(w, "metrics");
    jw_obj_begin(w, "definitions");
    for (int m = 0; m < s->opt.nmetrics; m++) {
        PAPIM_metric_info_t info;
        jw_obj_begin(w, s->opt.metrics[m]);
        jw_str(w, "unit", PAPIM_query_metric(s->opt.metrics[m], &info) == PAPI_OK ? info.unit : "");
        jw_str(w, "time", "the program's wall time");
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_begin(w, "process");
    for (int m = 0; m < s->opt.nmetrics; m++) {
        double v;
        if (run_metric_value(s, m, s->value, seconds, &v) == 0)
            jw_double(w, s->opt.metrics[m], v);
        else
            jw_null(w, s->opt.metrics[m]);
    }
    jw_obj_end(w);
    jw_obj_end(w);
}

/* When multiplexed: why, and each event's share of the time it ran (null: unknown). */
static void write_fractions(struct jw *w, const struct run_state *s)
{
    if (!s->multiplexed)
        return;
    jw_str(w, "multiplexed",
           s->multiplexed == 1 ? "PAPI_MULTIPLEX" : "the events do not fit the counters together");
    jw_obj_begin(w, "running_fraction");
    for (int i = 0; i < s->opt.nevents; i++)
        if (isnan(s->fraction[i]))
            jw_null(w, s->opt.events[i]);
        else
            jw_double(w, s->opt.events[i], s->fraction[i]);
    jw_obj_end(w);
}

static void write_fate(struct jw *w, const struct run_state *s)
{
    jw_arr_begin(w, "argv");
    for (char **a = s->opt.argv; *a; a++)
        jw_str(w, NULL, *a);
    jw_arr_end(w);
    if (WIFSIGNALED(s->status)) {
        jw_null(w, "exit_status");
        jw_int(w, "signal", WTERMSIG(s->status));
        jw_str(w, "signal_name", strsignal(WTERMSIG(s->status)));
    } else {
        jw_int(w, "exit_status", WEXITSTATUS(s->status));
        jw_null(w, "signal");
    }
    jw_str(w, "mpi", s->mpi);
}

static int write_json(FILE *f, const struct run_state *s, const struct run_threads *t, int rank,
                      const char *rank_source)
{
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    struct region_file_event ev[RUN_MAX_EVENTS];
    char comp[RUN_MAX_EVENTS][PAPI_MAX_STR_LEN], units[RUN_MAX_EVENTS][PAPI_MIN_STR_LEN];
    for (int i = 0; i < s->opt.nevents; i++) {
        component_of(s->opt.events[i], comp[i], sizeof comp[i]);
        const char *scope = event_meta(s->opt.events[i], units[i], sizeof units[i]);
        ev[i] = (struct region_file_event){s->opt.events[i], comp[i], "delta",
                                           scope ? units[i] : NULL, scope};
    }
    region_file_head(&w, PAPI_compat_version(), ev, s->opt.nevents, rank, rank_source, &s->run);
    jw_str(&w, "tool", "papi_run");
    jw_int(&w, "pid", (long long)s->child);
    jw_str(&w, "event_source", s->opt.events_given ? "papi_run -e" : "papi_run default");
    jw_str(&w, "note", s->note);
    jw_obj_begin(&w, "domain"); /* where each event counts: perf stat's and PAPI's domains */
    for (int i = 0; i < s->opt.nevents; i++)
        jw_str(&w, s->opt.events[i],
               s->opt.cidx[i] != 0     ? "any" /* the node's or the process's count */
               : s->opt.kernel[i] == 2 ? "time"
               : s->opt.kernel[i]      ? "user+kernel"
                                       : "user");
    jw_obj_end(&w);
    write_fractions(&w, s);
    jw_arr_begin(&w, "skipped_events");
    jw_arr_end(&w);
    write_fate(&w, s);
    write_threads(&w, s, t);
    jw_obj_begin(&w, "process_totals");
    jw_str(&w, "counted", "every thread and child process (inherited counters)");
    jw_int(&w, "real_time_nsec", s->end_ns - s->start_ns);
    write_events(&w, s, s->value);
    jw_obj_end(&w);
    write_series(&w, s);
    write_metrics(&w, s);
    run_openmp_write(&w, s);
    jw_obj_end(&w);
    return jw_finish(&w);
}

int run_write_file(const struct run_state *s, const struct run_threads *t)
{
    const char *source;
    char name[RUN_ID_LEN + 64], tmp[NAME_MAX + 1];
    int rank = run_launcher_rank(&source);
    const long who = rank >= 0 ? rank : (long)s->child;
    snprintf(name, sizeof name, "rank_%06ld-%s.json", who, s->run.id);
    int fd = output_file_create(s->dirfd, name, tmp, sizeof tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "papi_run: cannot create %s/%s: %s\n", s->dir, name, strerror(errno));
        if (fd >= 0) {
            close(fd);
            output_file_discard(s->dirfd, tmp);
        }
        return 1;
    }
    errno = 0;
    int bad = write_json(f, s, t, rank, source);
    bad |= fclose(f) != 0;
    /* A name no other file has: one run's file is never replaced by another's (the same
     * rank of one job run twice gets the program's pid added). */
    int published = !bad && output_file_publish_new(s->dirfd, tmp, name) == 0;
    if (!bad && !published && errno == EEXIST) {
        snprintf(name, sizeof name, "rank_%06ld-%s-%ld.json", who, s->run.id, (long)s->child);
        published = output_file_publish_new(s->dirfd, tmp, name) == 0;
    }
    if (!published) {
        fprintf(stderr, "papi_run: writing %s/%s failed: %s; nothing was published\n", s->dir, name,
                strerror(errno ? errno : EIO));
        output_file_discard(s->dirfd, tmp);
        return 1;
    }
    if (!s->opt.quiet && !s->opt.json && !s->opt.csv_sep[0])
        fprintf(stderr, " report: %s/%s\n", s->dir, name);
    return 0;
}
