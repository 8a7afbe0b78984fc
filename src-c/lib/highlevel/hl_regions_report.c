/* hl_regions_report.c: the region report, one JSON file per process,
 * <PAPI_OUTPUT_DIRECTORY or .>/papi_hl_output/rank_XXXXXX.json (as PAPI 7 names it), and
 * the PAPI_REPORT=1 summary on stdout. The rank comes from papi_hl_set_rank (the MPI
 * wrapper library calls it), else from the launcher's environment, else the process id
 * ("pid") names the file and there is no "rank".
 *
 * The schema is PAPI 7's (read by its papi_hl_output_writer): "event_definitions"
 * (name -> component, type), then "threads" -> number -> "regions" -> instance id -> name,
 * parent_region_id (the enclosing instance, -1 at top level), region_count (1),
 * cycles, real_time_nsec and one member per event: one entry per begin/end pair, as
 * PAPI 7 writes them, so its writer's min/median/max are over instances. An instance read
 * with PAPI_hl_read has {region_value, read_1, ..., read_N} for each value. Our additions
 * live beside them at the top level (and "tid", the OS thread id, beside each thread's
 * "regions"; PAPI 7 numbers the threads "0", "1", ... in the order of their thread ids, and
 * so do we, in every member keyed by thread): rank, rank_source, pid, event_source, note (why
 * software events were chosen), skipped_events, and region_totals (thread -> region
 * name -> parent name, region_count and the inclusive totals).
 *
 * The file is written under an exclusive temporary name in a directory this user owns,
 * then renamed into place: a planted symlink is never followed, and a full disk leaves the
 * previous report (or none), never a truncated one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "hl_all_threads.h"
#include "hl_gpu.h"
#include "hl_interval.h"
#include "hl_metric_value.h"
#include "hl_metrics_mpx.h"
#include "hl_openmp.h"
#include "hl_regions_report.h"
#include "hl_state.h"
#include "hl_trace.h"
#include "json_writer.h"
#include "output_file.h"
#include "region_file_head.h"
#include "papi_hl_rank.h"
#include "region_sample.h"

static int set_rank = -1;

int papi_hl_set_rank(int rank)
{
    if (rank < 0)
        return papi_error(PAPI_EINVAL, "papi_hl_set_rank: rank %d is negative", rank);
    set_rank = rank;
    return PAPI_OK;
}

/* The rank and where it came from; -1 when unknown. */
static int find_rank(const char **source)
{
    static const char *const vars[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", "MPI_LOCALRANKID"};
    if (set_rank >= 0) {
        *source = "MPI";
        return set_rank;
    }
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = env_get(vars[i]);
        char *end;
        if (!v || !*v)
            continue;
        long r = strtol(v, &end, 10);
        if (*end == '\0' && r >= 0 && r < 1000000000L) {
            *source = vars[i];
            return (int)r;
        }
    }
    *source = NULL;
    return -1;
}

/* A value: plain, or {region_value, read_1, ...} when the instance was read midway. */
static void write_value(struct jw *w, const char *key, const struct hlr_instance *in, int which)
{
#define PICK(s) (which == -2 ? (s).real : which == -1 ? (s).cyc : (s).value[which])
    if (in->nreads == 0) {
        jw_int(w, key, PICK(in->value));
        return;
    }
    char rk[32];
    jw_obj_begin(w, key);
    jw_int(w, "region_value", PICK(in->value));
    for (int k = 0; k < in->nreads; k++) {
        snprintf(rk, sizeof rk, "read_%d", k + 1);
        jw_int(w, rk, PICK(in->reads[k]));
    }
    jw_obj_end(w);
#undef PICK
}

/* cycles, real_time_nsec and the events of one sample, plain values. */
static void write_sample(struct jw *w, const struct hlr_sample *s)
{
    jw_int(w, "cycles", s->cyc);
    jw_int(w, "real_time_nsec", s->real);
    for (int i = 0; i < g_hlr.nevents; i++)
        jw_int(w, g_hlr.name[i], s->value[i]);
}

/* A thread's object, keyed by its number (the same key in every section). */
static void begin_thread(struct jw *w, const struct hlr_thread *t)
{
    char key[32];
    snprintf(key, sizeof key, "%d", t->key);
    jw_obj_begin(w, key);
}

/* Instance i's object, keyed by its index in the thread, with its region's name; NULL
 * (nothing written) for an instance still open and never read: it has no value yet. */
static const struct hlr_instance *begin_instance(struct jw *w, const struct hlr_thread *t, int i)
{
    const struct hlr_instance *in = &t->inst[i];
    if (!in->done && in->nreads == 0)
        return NULL;
    char key[32];
    snprintf(key, sizeof key, "%d", i);
    jw_obj_begin(w, key);
    jw_str(w, "name", t->region[in->region].name);
    return in;
}

/* PAPI 7's entries: one per instance (begin/end pair), keyed by its id in the thread.
 * An instance still open and never read has no value yet and is left out (its region's
 * totals say what it counted). No key beyond PAPI 7's: its writer treats every other
 * key of an entry as an event. */
static void write_thread(struct jw *w, struct hlr_thread *t)
{
    begin_thread(w, t);
    jw_int(w, "tid", t->tid);
    jw_obj_begin(w, "regions");
    for (int i = 0; i < t->ninst; i++) {
        const struct hlr_instance *in = begin_instance(w, t, i);
        if (!in)
            continue;
        jw_int(w, "parent_region_id", in->parent);
        jw_int(w, "region_count", 1);
        write_value(w, "cycles", in, -1);
        write_value(w, "real_time_nsec", in, -2);
        for (int e = 0; e < g_hlr.nevents; e++)
            write_value(w, g_hlr.name[e], in, e);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_end(w);
}

/* Ours, beside PAPI 7's (its writer reads only event_definitions and threads): per
 * thread, per region name, the enclosing region's name, the completed instances and the
 * inclusive totals. */
static void write_totals(struct jw *w, struct hlr_thread *t)
{
    begin_thread(w, t);
    for (int r = 0; r < t->nregions; r++) {
        const struct hlr_region *g = &t->region[r];
        jw_obj_begin(w, g->name);
        if (g->parent >= 0)
            jw_str(w, "parent", t->region[g->parent].name);
        else
            jw_null(w, "parent");
        jw_int(w, "region_count", g->count);
        write_sample(w, &g->total);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

static const char *region_name(void *arg, int r)
{
    const struct hlr_thread *t = arg;
    return r >= 0 && r < t->nregions ? t->region[r].name : "?";
}

static void write_samples(struct jw *w, struct hlr_thread *t)
{
    char key[32];
    snprintf(key, sizeof key, "%d", t->key);
    rsample_write_thread(w, key, t->sampler, region_name, t);
}

/* PAPI_METRICS on one sample's counts and real time: the value, or null when it has none
 * (a denominator counted 0, or no time passed). */
static void write_metrics_of(struct jw *w, const struct hlr_sample *s,
                             const struct hlr_times *times)
{
    for (int m = 0; m < g_hlr.nmetrics; m++)
        hl_write_metric_value(w, &g_hlr.metric[m], s->value, s->real);
    jw_obj_begin(w, "running_fraction"); /* 1.0 unless its events were time-shared */
    for (int m = 0; m < g_hlr.nmetrics; m++)
        jw_double(w, g_hlr.metric[m].name, hl_metric_running_fraction(&g_hlr.metric[m], times));
    jw_obj_end(w);
}

/* The metrics of the all-thread sums (every thread of the process during the instance,
 * over the calling thread's wall span: CPU_UTILIZATION then counts the CPUs the whole
 * team used). A region's only when every instance has all-thread values, so counts and
 * time cover the same instances. */
static void write_all_thread_metrics(struct jw *w, const struct hlr_thread *t)
{
    char key[32];
    jw_obj_begin(w, "all_threads");
    jw_obj_begin(w, "instances");
    for (int i = 0; i < t->ninst; i++) {
        const struct hlr_instance *in = &t->inst[i];
        if (!in->all_ok)
            continue;
        snprintf(key, sizeof key, "%d", i);
        jw_obj_begin(w, key);
        jw_str(w, "name", t->region[in->region].name);
        for (int m = 0; m < g_hlr.nmetrics; m++)
            hl_write_metric_value(w, &g_hlr.metric[m], in->all_value, in->value.real);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_begin(w, "regions");
    for (int r = 0; r < t->nregions; r++) {
        const struct hlr_region *g = &t->region[r];
        if (g->all_count == 0 || g->all_count != g->count)
            continue;
        jw_obj_begin(w, g->name);
        for (int m = 0; m < g_hlr.nmetrics; m++)
            hl_write_metric_value(w, &g_hlr.metric[m], g->all_total, g->total.real);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_end(w);
}

/* An instance read with PAPI_hl_read: each read's metrics (read_1 ... read_N, as the
 * values), with the running fraction of that read's counts since the begin. */
static void write_read_metrics(struct jw *w, const struct hlr_instance *in)
{
    if (in->nreads == 0)
        return;
    char rk[32];
    jw_obj_begin(w, "reads");
    for (int k = 0; k < in->nreads; k++) {
        snprintf(rk, sizeof rk, "read_%d", k + 1);
        jw_obj_begin(w, rk);
        write_metrics_of(w, &in->reads[k], &in->read_times[k]);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

/* Ours (PAPI 7's writer reads only event_definitions and threads, and takes every key of
 * an instance for an integer count): each instance's metrics, keyed as in threads, and
 * each region's from its summed counts and summed time. */
static void write_thread_metrics(struct jw *w, struct hlr_thread *t)
{
    begin_thread(w, t);
    jw_obj_begin(w, "instances");
    for (int i = 0; i < t->ninst; i++) {
        const struct hlr_instance *in = begin_instance(w, t, i);
        if (!in)
            continue;
        write_metrics_of(w, &in->value, &in->t_value);
        write_read_metrics(w, in);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_begin(w, "regions");
    for (int r = 0; r < t->nregions; r++) {
        jw_obj_begin(w, t->region[r].name);
        write_metrics_of(w, &t->region[r].total, &t->region[r].t_total);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    write_all_thread_metrics(w, t);
    jw_obj_end(w);
}

static int by_id(const void *a, const void *b)
{
    const struct hlr_thread *x = *(struct hlr_thread *const *)a,
                            *y = *(struct hlr_thread *const *)b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->tid > y->tid) - (x->tid < y->tid);
}

/* PAPI 7's thread keys: the threads that have regions numbered 0, 1, ... in the order of
 * their thread ids (PAPI_list_threads sorted), not the ids themselves (Hatchet's reader
 * looks for thread "0"). The others get -1 and are not written. Under g_hlr_lock. */
static void number_threads(void)
{
    int n = 0, k = 0;
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        t->key = t->nregions > 0 ? n++ : -1;
        pthread_mutex_unlock(&t->lock);
    }
    struct hlr_thread **v = n > 0 ? malloc((size_t)n * sizeof *v) : NULL;
    if (!v)
        return; /* no memory: numbered in the list's order */
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next)
        if (t->key >= 0 && k < n)
            v[k++] = t;
    qsort(v, (size_t)k, sizeof *v, by_id);
    for (int i = 0; i < k; i++) {
        pthread_mutex_lock(&v[i]->lock);
        v[i]->key = i;
        pthread_mutex_unlock(&v[i]->lock);
    }
    free(v);
}

/* "lost_events": each set of a thread whose component could not be read any more (a GPU
 * gone), once: its events, the thread, the region open then and the component's reason.
 * Its events count 0 in that thread from then on (their last values are kept). */
static void write_lost(struct jw *w)
{
    jw_arr_begin(w, "lost_events");
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        for (int i = 0; t->key >= 0 && i < t->nlost; i++) {
            const struct hlr_lost *l = &t->lost_sets[i];
            const struct hlr_set *set = &g_hlr.set[l->set];
            jw_obj_begin(w, NULL);
            jw_str(w, "component", g_hlr.component[set->idx[0]]);
            jw_arr_begin(w, "events");
            for (int j = 0; j < set->n; j++)
                jw_str(w, NULL, g_hlr.name[set->idx[j]]);
            jw_arr_end(w);
            jw_int(w, "thread", t->key);
            jw_int(w, "tid", t->tid);
            if (l->region)
                jw_str(w, "region", l->region);
            else
                jw_null(w, "region");
            jw_str(w, "reason", l->why ? l->why : "");
            jw_obj_end(w);
        }
        pthread_mutex_unlock(&t->lock);
    }
    jw_arr_end(w);
}

static struct ompt_query openmp; /* the OMPT tool's table, under g_hlr_lock */

static void write_openmp(struct jw *w, struct hlr_thread *t)
{
    hl_openmp_write_thread(w, &openmp, t);
}

static int write_json(FILE *f, int rank, const char *rank_source)
{
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    struct region_file_event ev[HLR_MAX_EVENTS];
    for (int i = 0; i < g_hlr.nevents; i++)
        ev[i] = (struct region_file_event){g_hlr.name[i], g_hlr.component[i],
                                           g_hlr.instant[i] ? "instant" : "delta", g_hlr.units[i],
                                           g_hlr.scope[i]};
    static struct run_identity run; /* (4 KB: under g_hlr_lock, one writer at a time) */
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    run_identity_self(&run, hw ? hw->model_string : "", PAPI_compat_version());
    region_file_head(&w, PAPI_compat_version(), ev, g_hlr.nevents, rank, rank_source, &run);
    jw_int(&w, "pid", (long long)getpid());
    jw_str(&w, "event_source", g_hlr.source ? g_hlr.source : "none");
    jw_str(&w, "note", g_hlr.note ? g_hlr.note : "");
    jw_arr_begin(&w, "skipped_events");
    for (int i = 0; i < g_hlr.nskipped; i++) {
        jw_obj_begin(&w, NULL);
        jw_str(&w, "name", g_hlr.skipped[i].name);
        jw_str(&w, "reason", g_hlr.skipped[i].why);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    number_threads();
    write_lost(&w);
    hl_write_threads(&w, "threads", write_thread);
    hl_write_threads(&w, "region_totals", write_totals);
    hl_write_threads(&w, "all_threads", hla_write_thread);
    ompt_query_load(&openmp); /* the OMPT tool ran: the named regions' OpenMP tables */
    if (openmp.have)
        hl_write_threads(&w, "openmp_regions", write_openmp);
    ompt_query_free(&openmp);
    hl_gpu_write(&w);
    if (rsample_write_head(&w)) /* PAPI_SAMPLE: function x region per thread */
        hl_write_threads(&w, "sampled_functions", write_samples);
    hli_write(&w);
    if (g_hlr.nmetrics > 0) {
        jw_obj_begin(&w, "metrics");
        jw_obj_begin(&w, "definitions");
        for (int m = 0; m < g_hlr.nmetrics; m++) {
            jw_obj_begin(&w, g_hlr.metric[m].name);
            jw_str(&w, "unit", g_hlr.metric[m].unit);
            jw_str(&w, "time", "the instance's or region's real_time_nsec");
            jw_obj_end(&w);
        }
        jw_obj_end(&w);
        const char *mpx = hl_metrics_multiplex_reason();
        if (mpx)
            jw_str(&w, "multiplexed", mpx);
        else if (hl_metrics_seen_multiplexed())
            jw_str(&w, "multiplexed", "PAPI_MULTIPLEX: the region event sets are multiplexed");
        else
            jw_null(&w, "multiplexed");
        hl_write_threads(&w, "threads", write_thread_metrics);
        jw_obj_end(&w);
    }
    jw_obj_end(&w);
    return jw_finish(&w);
}

/* ", NAME value unit" for each metric, or its reason when it has no value. */
static void print_metrics(const long long *v, long long real_nsec)
{
    for (int m = 0; m < g_hlr.nmetrics; m++) {
        double x;
        char why[256];
        if (metric_plan_eval(&g_hlr.metric[m], v, (double)real_nsec * 1e-9, &x, why, sizeof why) ==
            PAPI_OK)
            printf(", %s %.4g %s", g_hlr.metric[m].name, x, g_hlr.metric[m].unit);
        else
            printf(", %s none (%s)", g_hlr.metric[m].name, why);
    }
}

static void write_summary(const char *path, const char *trace, int rank)
{
    printf("PAPI high-level report%s", rank >= 0 ? "" : "\n");
    if (rank >= 0)
        printf(" (rank %d)\n", rank);
    if (g_hlr.note && g_hlr.note[0])
        printf("  note: %s\n", g_hlr.note);
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        for (int r = 0; r < t->nregions; r++) {
            const struct hlr_region *g = &t->region[r];
            printf("  thread %d (tid %ld) region %s: count %lld, real %.6f s", t->key, t->tid,
                   g->name, g->count, (double)g->total.real * 1e-9);
            for (int i = 0; i < g_hlr.nevents; i++)
                printf(", %s %lld", g_hlr.name[i], g->total.value[i]);
            print_metrics(g->total.value, g->total.real);
            if (g_hlr.nmetrics > 0 && g->all_count > 0 && g->all_count == g->count) {
                printf("; all threads");
                print_metrics(g->all_total, g->total.real);
            }
            putchar('\n');
        }
        pthread_mutex_unlock(&t->lock);
    }
    printf("  written to %s\n", path);
    if (trace[0])
        printf("  trace written to %s\n", trace);
    fflush(stdout);
}

/* As PAPI 7: a papi_hl_output left by an earlier run is set aside as
 * papi_hl_output-YYYYMMDD-HHMMSS (its last change), so the new run's files are not mixed
 * with old ones. "Earlier" means last changed before this process started: the ranks of
 * one job all start before any of them writes, so they share the new directory. */
static void set_aside_earlier_run(const char *dir)
{
    struct stat st;
    time_t started = run_process_start();
    if (!started || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        st.st_mtime >= started)
        return;
    char stamp[32], old[PATH_MAX + 40];
    struct tm tm;
    if (!localtime_r(&st.st_mtime, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
        return;
    if (snprintf(old, sizeof old, "%s-%s", dir, stamp) >= (int)sizeof old)
        return;
    /* Fails harmlessly when another rank moved it first or the name is taken. */
    if (rename(dir, old) == 0 && env_get("PAPI_REPORT"))
        printf("PAPI: the earlier run's %s was renamed %s\n", dir, old);
}

/* <PAPI_OUTPUT_DIRECTORY or .>/<sub> (papi_hl_output, papi_hl_trace), an earlier run's
 * set aside, created when missing, refused when it belongs to another user. Returns its
 * fd or a PAPI error; what names the files (report, trace) for the message. */
static int open_output_dir(const char *sub, const char *what, char *dir, size_t dirlen)
{
    const char *base = env_get("PAPI_OUTPUT_DIRECTORY");
    char why[PAPI_HUGE_STR_LEN + 64];
    if (!base || !*base)
        base = ".";
    if (snprintf(dir, dirlen, "%s/%s", base, sub) >= (int)dirlen)
        return papi_error(PAPI_EINVAL,
                          "PAPI_OUTPUT_DIRECTORY is longer than %zu bytes; the "
                          "region %s is not written",
                          dirlen - strlen(sub) - 2, what);
    set_aside_earlier_run(dir);
    int fd = output_dir_open(dir, 1, why, sizeof why);
    if (fd < 0)
        return papi_error(PAPI_ESYS, "region %s (PAPI_OUTPUT_DIRECTORY): %s", what, why);
    return fd;
}

/* PAPI_TRACE's timeline, in papi_hl_trace/ beside papi_hl_output/: region readers (PAPI 7's
 * papi_hl_output_writer, Hatchet) take every file of papi_hl_output for a rank file. Its
 * path into path (empty when none was written). */
static void write_trace(int rank, char *path, size_t pathlen)
{
    char dir[PATH_MAX];
    path[0] = '\0';
    if (!hl_trace_on())
        return;
    int fd = open_output_dir("papi_hl_trace", "trace", dir, sizeof dir);
    if (fd < 0) {
        fprintf(stderr, "PAPI: PAPI_TRACE: %s\n", papi_last_error_detail());
        return;
    }
    close(fd);
    hl_trace_write(dir, rank, path, pathlen);
}

static int write_file(int dirfd, const char *dir, const char *name, int rank,
                      const char *rank_source)
{
    char tmp[NAME_MAX + 1];
    int fd = output_file_create(dirfd, name, tmp, sizeof tmp);
    if (fd < 0)
        return papi_error(PAPI_ESYS, "cannot create the region report in %s: %s", dir,
                          strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        output_file_discard(dirfd, tmp);
        return papi_error(PAPI_ESYS, "cannot write the region report in %s: %s", dir,
                          strerror(errno));
    }
    errno = 0;
    int bad = write_json(f, rank, rank_source);
    int err = bad ? (errno ? errno : EIO) : 0;
    if (fsync(fileno(f)) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        output_file_discard(dirfd, tmp);
        return papi_error(PAPI_ESYS,
                          "writing the region report %s/%s failed (%s); nothing "
                          "was published",
                          dir, name, strerror(err));
    }
    if (output_file_publish(dirfd, tmp, name) != 0)
        return papi_error(PAPI_ESYS, "cannot rename the region report into %s/%s: %s", dir, name,
                          strerror(errno));
    return PAPI_OK;
}

int hlr_write_report(int summary)
{
    char dir[PATH_MAX], name[64], path[PATH_MAX + 64], trace[PATH_MAX + 64];
    const char *rank_source;
    int ret = PAPI_OK;
    pthread_mutex_lock(&g_hlr_lock);
    int any = 0;
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        any |= t->nregions > 0;
        pthread_mutex_unlock(&t->lock);
    }
    if (!any)
        goto out;
    hli_stop(); /* the series' last sample */
    int rank = find_rank(&rank_source);
    int dirfd = open_output_dir("papi_hl_output", "report", dir, sizeof dir);
    if (dirfd < 0) {
        ret = dirfd;
        goto out;
    }
    snprintf(name, sizeof name, "rank_%06d.json", rank >= 0 ? rank : (int)getpid());
    ret = write_file(dirfd, dir, name, rank, rank_source);
    close(dirfd);
    write_trace(rank, trace, sizeof trace);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ret == PAPI_OK && summary)
        write_summary(path, trace, rank);
out:
    if (ret != PAPI_OK)
        fprintf(stderr, "PAPI: %s\n", papi_last_error_detail());
    pthread_mutex_unlock(&g_hlr_lock);
    return ret;
}

int papi_hl_write_report(void)
{
    return hlr_write_report(0);
}
