/* ompt_report.c: the tool's JSON file (ompt_report.h; its fields: schema/ompt.schema.json).
 * Names come from the project's one symbolizer (src-c/sampling/symbolizer.h), here at
 * finalize and never in a callback; the file is written under a temporary name and
 * renamed into place (output_file.h), or under papi_run handed over to it as a block of
 * the hand-over file PAPI_RUN_OMPT_TABLE_FILE names (handover_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "json_writer.h"
#include "ompt_contexts.h"
#include "ompt_counters.h"
#include "ompt_merge.h"
#include "ompt_names.h"
#include "ompt_construct_report.h"
#include "ompt_constructs.h"
#include "ompt_report.h"
#include "output_file.h"
#include "papi_region_context.h"
#include "pop_factors.h"
#include "symbolizer.h"

#define DEFAULT_DIR "papi_ompt_output"

/* An efficiency object, with what it is not over: the implicit tasks of threads without a
 * slot (the region's, or the run's), and for the run the instances they forked. */
static void put_efficiency(struct jw *w, const char *key, const struct pop_omp_factors *e,
                           int with_serialization, uint64_t unmeasured_tasks,
                           uint64_t unmeasured_instances)
{
    jw_obj_begin(w, key);
    const char *names[] = {"serialization", "load_balance", "scheduling", "parallel"};
    const double values[] = {e->serialization, e->load_balance, e->scheduling, e->parallel};
    for (int i = with_serialization ? 0 : 1; i < 4; i++) {
        if (values[i] < 0)
            jw_null(w, names[i]);
        else
            jw_fixed(w, names[i], values[i] > 1 ? 1 : values[i], 4);
    }
    jw_uint(w, "unmeasured_implicit_tasks", unmeasured_tasks);
    if (with_serialization)
        jw_uint(w, "unmeasured_instances", unmeasured_instances);
    jw_obj_end(w);
}

static void put_cpu_factors(struct jw *w, const struct pop_omp_cpu *f)
{
    jw_obj_begin(w, "cpu_time");
    const char *names[] = {"on_cpu", "load_balance"};
    const double values[] = {f->on_cpu, f->load_balance};
    for (int i = 0; i < 2; i++) {
        if (values[i] < 0)
            jw_null(w, names[i]);
        else
            jw_fixed(w, names[i], values[i], 4);
    }
    jw_obj_end(w);
}

/* A thread number's events: its sums when every task of it was counted, else null. */
static void put_thread_events(struct jw *w, const struct ompt_region_thread *t,
                              const struct ompt_counters_info *c)
{
    jw_uint(w, "counted_tasks", t->counted_tasks);
    jw_obj_begin(w, "events");
    for (int e = 0; e < c->nevents; e++)
        if (t->tasks && t->counted_tasks == t->tasks)
            jw_uint(w, c->names[e], t->events[e]);
        else
            jw_null(w, c->names[e]);
    jw_obj_end(w);
}

/* Per event, min, mean and max over the thread numbers whose every task was counted,
 * with the thread that has the min and the max. */
static void put_region_events(struct jw *w, const struct ompt_region_row *r,
                              const struct ompt_counters_info *c)
{
    jw_obj_begin(w, "events");
    for (int e = 0; e < c->nevents; e++) {
        unsigned n = 0, tmin = 0, tmax = 0;
        double sum = 0;
        for (unsigned t = 0; t < r->nthreads; t++) {
            const struct ompt_region_thread *x = &r->threads[t];
            if (!x->tasks || x->counted_tasks != x->tasks)
                continue;
            if (n == 0 || x->events[e] < r->threads[tmin].events[e])
                tmin = t;
            if (n == 0 || x->events[e] > r->threads[tmax].events[e])
                tmax = t;
            sum += (double)x->events[e];
            n++;
        }
        jw_obj_begin(w, c->names[e]);
        jw_uint(w, "threads", n);
        if (n) {
            jw_uint(w, "min", r->threads[tmin].events[e]);
            jw_uint(w, "min_thread", tmin);
            jw_fixed(w, "mean", sum / n, 1);
            jw_uint(w, "max", r->threads[tmax].events[e]);
            jw_uint(w, "max_thread", tmax);
            jw_fixed(w, "total", sum, 0);
        }
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

/* What the counting cost: two reads per counted implicit task (its begin, its work's
 * end) at the read's measured cost, over the work of those tasks (papi_run's banner says
 * it when it matters: regions as short as a few reads). */
static void put_counting_cost(struct jw *w, const struct ompt_merged *m,
                              const struct ompt_counters_info *c)
{
    uint64_t tasks = 0;
    double work_ns = 0;
    for (int i = 0; i < m->nrows; i++)
        for (unsigned t = 0; t < m->rows[i].nthreads; t++) {
            const struct ompt_region_thread *th = &m->rows[i].threads[t];
            tasks += th->counted_tasks;
            if (th->counted_tasks)
                work_ns += (double)th->work_ns;
        }
    jw_uint(w, "read_ns", c->read_ns);
    jw_uint(w, "counted_tasks", tasks);
    if (c->read_ns && tasks && work_ns > 0)
        jw_fixed(w, "cost_share", 2.0 * (double)c->read_ns * (double)tasks / work_ns, 4);
    else
        jw_null(w, "cost_share");
}

static void put_counters(struct jw *w, const struct ompt_merged *m,
                         const struct ompt_counters_info *c)
{
    jw_obj_begin(w, "counters");
    jw_str(w, "source", c->source);
    jw_arr_begin(w, "events");
    for (int e = 0; e < c->nevents; e++)
        jw_str(w, NULL, c->names[e]);
    jw_arr_end(w);
    jw_uint(w, "threads_counted", c->threads_counted);
    jw_uint(w, "threads_not_counted", c->threads_not_counted);
    jw_str(w, "reason", c->reason);
    put_counting_cost(w, m, c);
    jw_obj_end(w);
}

static void put_thread(struct jw *w, const struct ompt_region_thread *t, unsigned tnum,
                       int walls_known, const struct ompt_counters_info *c)
{
    jw_obj_begin(w, NULL);
    jw_uint(w, "thread", tnum);
    jw_uint(w, "implicit_tasks", t->tasks);
    jw_uint(w, "work_ns", t->work_ns);
    jw_uint(w, "barrier_wait_ns", t->barrier_ns);
    jw_uint(w, "taskwait_wait_ns", t->taskwait_ns);
    if (walls_known && t->tasks) {
        jw_uint(w, "wall_ns", t->wall_ns);
        jw_uint(w, "join_wait_ns", t->wall_ns > t->in_team_ns ? t->wall_ns - t->in_team_ns : 0);
    } else {
        jw_null(w, "wall_ns");
        jw_null(w, "join_wait_ns");
    }
    put_thread_events(w, t, c);
    jw_obj_end(w);
}

/* A region's efficiencies; only regions all of whose instances were outermost add to the
 * run's sums. */
struct pop_omp_factors ompt_report_efficiency(const struct ompt_region_row *r,
                                              struct pop_omp_in *sums)
{
    uint64_t useful[r->nthreads ? r->nthreads : 1];
    for (unsigned t = 0; t < r->nthreads; t++)
        useful[t] = r->threads[t].work_ns;
    if (r->unmeasured_tasks) /* threads past the slots: their work unknown, nothing judged */
        return (struct pop_omp_factors){-1, -1, -1, -1};
    int outermost = r->outer_instances == r->instances;
    return pop_omp_region(useful, r->team_max, r->wall_ns, outermost ? sums : NULL);
}

/* Thread time lost in the region: each thread number's share of the wall time (the
 * whole wall where team sizes were not kept) less its work; where threads without a slot
 * ran some of its tasks, over the thread numbers with a task measured. */
uint64_t ompt_report_lost_ns(const struct ompt_region_row *r)
{
    uint64_t lost = 0;
    for (unsigned t = 0; t < r->nthreads; t++) {
        if (r->unmeasured_tasks && r->threads[t].tasks == 0)
            continue; /* run by a thread without a slot: its loss unknown, not all of it */
        uint64_t wall = r->other_size_instances ? r->wall_ns : r->threads[t].wall_ns;
        lost += wall > r->threads[t].work_ns ? wall - r->threads[t].work_ns : 0;
    }
    return lost;
}

/* The regions a row was forked in, named by libpapi (papi_region_context.h). */
static void put_context(struct jw *w, unsigned ctx)
{
    long named;
    int mpi;
    char name[160];
    const char *keys[] = {"named_region", "mpi_region"};
    int have = ompt_context_of(ctx, &named, &mpi);
    for (int kind = PAPI_CONTEXT_NAMED; kind <= PAPI_CONTEXT_MPI; kind++) {
        long id = kind == PAPI_CONTEXT_NAMED ? named : mpi;
        if (ctx == OMPT_CONTEXT_DROPPED) {
            jw_obj_begin(w, keys[kind]);
            jw_int(w, "id", 0);
            jw_str(w, "name", "(not recorded)");
            jw_obj_end(w);
            continue;
        }
        if (!have || id <= (kind == PAPI_CONTEXT_NAMED ? 0 : -1)) {
            jw_null(w, keys[kind]);
            continue;
        }
        if (papi_region_context_name(kind, id, name, sizeof name) != 0)
            name[0] = '\0';
        jw_obj_begin(w, keys[kind]);
        jw_int(w, "id", id);
        jw_str(w, "name", name);
        jw_obj_end(w);
    }
}

/* The event that is a thread's CPU time, counted per region: perf's task clock (papi_run
 * -e perf::TASK-CLOCK counts it per region); -1 when not counted. */
static int task_clock_event(const struct ompt_counters_info *c)
{
    for (int e = 0; e < c->nevents; e++) {
        const char *sep = strrchr(c->names[e], ':'), *base = sep ? sep + 1 : c->names[e];
        if (strcmp(base, "TASK-CLOCK") == 0 || strcmp(base, "PERF_COUNT_SW_TASK_CLOCK") == 0)
            return e;
    }
    return -1;
}

/* A region's CPU time per thread (the task clock) added to sums: 0, or -1 where the task
 * clock is not counted or a thread's tasks were not all (sums unchanged). */
static int region_cpu(const struct ompt_region_row *r, const struct ompt_counters_info *c,
                      struct pop_omp_cpu_in *sums, struct pop_omp_cpu *f)
{
    int e = task_clock_event(c);
    unsigned n = r->nthreads;
    int known = e >= 0 && n > 0 && !r->unmeasured_tasks;
    uint64_t cpu[n ? n : 1], useful[n ? n : 1];
    for (unsigned t = 0; t < n && known; t++) {
        const struct ompt_region_thread *th = &r->threads[t];
        known = th->tasks > 0 && th->counted_tasks == th->tasks;
        cpu[t] = th->events[e];
        useful[t] = th->work_ns;
    }
    if (!known)
        return -1;
    *f = pop_omp_cpu_region(cpu, useful, n, sums);
    return 0;
}

/* A region's factors on CPU time (pop_factors.h: on CPU, load balance on CPU time), added
 * to sums; null where they are not known (region_cpu). */
static void put_cpu_time(struct jw *w, const struct ompt_region_row *r,
                         const struct ompt_counters_info *c, struct pop_omp_cpu_in *sums)
{
    struct pop_omp_cpu f;
    if (region_cpu(r, c, sums, &f) != 0) {
        jw_null(w, "cpu_time");
        return;
    }
    put_cpu_factors(w, &f);
}

static void put_region(struct jw *w, const struct ompt_name *name, const struct ompt_region_row *r,
                       struct pop_omp_in *sums, struct pop_omp_cpu_in *cpu_sums,
                       const struct ompt_counters_info *c)
{
    jw_obj_begin(w, NULL);
    ompt_name_put(w, name);
    put_context(w, r->context);
    jw_uint(w, "instances", r->instances);
    jw_uint(w, "outermost_instances", r->outer_instances);
    jw_uint(w, "wall_ns", r->wall_ns);
    jw_arr_begin(w, "team_sizes");
    for (int i = 0; i < r->nsizes; i++) {
        jw_obj_begin(w, NULL);
        jw_uint(w, "size", r->sizes[i].size);
        jw_uint(w, "instances", r->sizes[i].instances);
        jw_uint(w, "wall_ns", r->sizes[i].wall_ns);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_uint(w, "other_team_size_instances", r->other_size_instances);
    struct pop_omp_factors e = ompt_report_efficiency(r, sums);
    put_efficiency(w, "efficiency", &e, 0, r->unmeasured_tasks, 0);
    put_cpu_time(w, r, c, r->outer_instances == r->instances ? cpu_sums : NULL);
    jw_uint(w, "lost_ns", ompt_report_lost_ns(r));
    put_region_events(w, r, c);
    jw_arr_begin(w, "threads");
    for (unsigned t = 0; t < r->nthreads; t++)
        put_thread(w, &r->threads[t], t, r->other_size_instances == 0, c);
    jw_arr_end(w);
    jw_obj_end(w);
}

static void put_limits(struct jw *w, const struct ompt_merged *m)
{
    jw_obj_begin(w, "not_measured");
    jw_uint(w, "region_instances_dropped", m->region_drops);
    jw_uint(w, "regions_max", OMPT_REGIONS_MAX);
    jw_uint(w, "implicit_tasks_too_deep", m->deep_tasks);
    jw_uint(w, "nesting_max", OMPT_DEPTH_MAX);
    jw_uint(w, "implicit_tasks_no_room", m->pair_drops);
    jw_uint(w, "events_of_threads_past_max", m->unmeasured_events);
    jw_uint(w, "threads_max", OMPT_THREADS_MAX);
    jw_uint(w, "threads_without_slot", m->threads_without_slot);
    jw_uint(w, "implicit_tasks_without_slot", m->unmeasured_tasks);
    jw_uint(w, "instances_without_slot", m->unmeasured_instances);
    jw_uint(w, "instances_context_dropped", m->context_drops);
    jw_uint(w, "contexts_max", OMPT_CONTEXTS_MAX);
    jw_uint(w, "construct_encounters_dropped", ompt_construct_drops());
    jw_uint(w, "constructs_max", OMPT_CONSTRUCTS_MAX);
    jw_uint(w, "construct_pairs_no_room", ompt_constructs_pair_drops());
    jw_obj_end(w);
}

static void put_document(struct jw *w, const struct ompt_run_info *info,
                         const struct ompt_merged *m, struct symbolizer *sym,
                         const struct ompt_name *names)
{
    struct pop_omp_in sums = {0};
    struct pop_omp_cpu_in cpu_sums = {0, 0, 0};
    struct ompt_counters_info counters;
    ompt_counters_describe(&counters);
    uint64_t parallel = m->outer_unnamed_ns;
    for (int i = 0; i < m->nrows; i++)
        parallel += m->rows[i].outer_wall_ns;
    jw_obj_begin(w, NULL);
    jw_str(w, "tool", "papi_ompt");
    jw_str(w, "kind", "ompt");
    jw_int(w, "pid", (long long)getpid());
    jw_str(w, "runtime", info->runtime);
    jw_uint(w, "omp_version", info->omp_version);
    jw_arr_begin(w, "unsupported_callbacks");
    for (int i = 0; i < info->nunsupported; i++)
        jw_str(w, NULL, info->unsupported[i]);
    jw_arr_end(w);
    jw_str(w, "names", sym ? sym_how(sym) : "out of memory");
    jw_uint(w, "wall_ns", info->wall_ns);
    jw_uint(w, "excluded_ns", info->excluded_ns);
    jw_uint(w, "parallel_ns", parallel);
    jw_uint(w, "serial_ns", info->wall_ns > parallel ? info->wall_ns - parallel : 0);
    jw_uint(w, "threads_seen", m->threads_seen);
    jw_uint(w, "threads_ended", m->threads_ended);
    put_limits(w, m);
    put_counters(w, m, &counters);
    jw_arr_begin(w, "regions");
    for (int i = 0; i < m->nrows; i++)
        put_region(w, &names[i], &m->rows[i], &sums, &cpu_sums, &counters);
    jw_arr_end(w);
    jw_arr_begin(w, "construct_callbacks_declined");
    for (int i = 0; i < info->ndeclined_detail; i++)
        jw_str(w, NULL, info->declined_detail[i]);
    jw_arr_end(w);
    ompt_constructs_put(w, sym, m, names);
    sums.parallel_ns = (double)parallel;
    struct pop_omp_factors run =
        pop_omp_factors(&sums, (double)info->wall_ns, POP_CAP_SERIALIZATION);
    put_efficiency(w, "efficiency", &run, 1, m->unmeasured_tasks, m->unmeasured_instances);
    if (cpu_sums.cpu_ns > 0) { /* over the outermost regions whose CPU time is known */
        struct pop_omp_cpu cpu = pop_omp_cpu_factors(&cpu_sums);
        put_cpu_factors(w, &cpu);
    } else {
        jw_null(w, "cpu_time");
    }
    jw_obj_end(w);
}

/* The rows' names, told apart (ompt_names.h); NULL when out of memory. */
struct ompt_name *ompt_report_names(struct symbolizer *sym, const struct ompt_merged *m)
{
    struct ompt_name *names = calloc(m->nrows ? (size_t)m->nrows : 1, sizeof *names);
    for (int i = 0; names && i < m->nrows; i++) {
        int same = -1; /* a row of the same code address (another context) named already */
        for (int j = 0; j < i && same < 0; j++)
            same = m->rows[j].address == m->rows[i].address ? j : -1;
        if (same >= 0)
            names[i] = names[same];
        else
            ompt_name_of(sym, m->rows[i].address, &names[i]);
    }
    if (names)
        ompt_names_apart(names, m->nrows);
    return names;
}

int ompt_report_sums(struct pop_omp_in *sums, struct pop_omp_cpu_in *cpu)
{
    struct ompt_merged m;
    struct ompt_counters_info counters;
    struct pop_omp_cpu ignored;
    memset(sums, 0, sizeof *sums);
    memset(cpu, 0, sizeof *cpu);
    if (ompt_merge(&m, 1) != 0)
        return -1;
    ompt_counters_describe(&counters);
    uint64_t parallel = m.outer_unnamed_ns;
    for (int i = 0; i < m.nrows; i++) {
        parallel += m.rows[i].outer_wall_ns;
        ompt_report_efficiency(&m.rows[i], sums);
        /* over the outermost regions whose CPU time is known, as the region file's */
        if (m.rows[i].outer_instances == m.rows[i].instances)
            region_cpu(&m.rows[i], &counters, cpu, &ignored);
    }
    sums->parallel_ns = (double)parallel;
    int n = m.nrows;
    ompt_merged_free(&m);
    return n;
}

/* The document of the merged regions m to f (m freed): 0, or -1 (out of memory, a failed
 * write). */
static int put_table(FILE *f, const struct ompt_run_info *info, struct ompt_merged *m)
{
    struct symbolizer *sym = sym_open_process();
    struct ompt_name *names = ompt_report_names(sym, m);
    struct jw w;
    jw_init(&w, f);
    if (names)
        put_document(&w, info, m, sym, names);
    ompt_merged_free(m);
    free(names);
    if (sym)
        sym_close(sym);
    return !names || jw_finish(&w) != 0 ? -1 : 0;
}

/* The document's lines, handed over as "j LINE" items. */
struct table_lines {
    const char *text;
    size_t *start; /* line i: text[start[i]] up to its newline */
};

static void table_line(FILE *f, const void *ctx, size_t i)
{
    const struct table_lines *t = ctx;
    const char *line = t->text + t->start[i];
    fprintf(f, "j %.*s\n", (int)strcspn(line, "\n"), line);
}

/* Under papi_run: the document as one hand-over block appended to path (handover_file.h,
 * kind "omp_table": no names, a "j LINE" item per line of the document). */
static int hand_over(const struct ompt_run_info *info, const char *path)
{
    char *text = NULL;
    size_t len = 0, n = 0;
    struct ompt_merged m;
    FILE *f = open_memstream(&text, &len);
    int rc = f && ompt_merge(&m, 0) == 0 ? put_table(f, info, &m) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    size_t *start = rc == 0 ? malloc((len + 1) * sizeof *start) : NULL;
    for (size_t i = 0; start && i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        start[n++] = i;
        i = nl ? (size_t)(nl - text) + 1 : len;
    }
    struct table_lines lines = {text, start};
    int fd = start ? handover_open(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    if (fd < 0 ||
        handover_save(fd, "omp_table", (long)getpid(), 0, n, 0, NULL, table_line, &lines) != 0) {
        fprintf(stderr, "papi_ompt: no table handed over: %s: %s\n", path,
                !start ? "out of memory" : handover_strerror(errno));
        rc = -1;
    }
    if (fd >= 0)
        close(fd);
    free(start);
    free(text);
    return rc;
}

int ompt_report_write(const struct ompt_run_info *info)
{
    const char *handover = env_get("PAPI_RUN_OMPT_TABLE_FILE");
    if (handover && handover[0])
        return hand_over(info, handover);
    const char *dir = env_get("PAPI_OMPT_OUTPUT_DIR");
    char why[256], final[64], tmp[96];
    struct ompt_merged m;
    dir = dir && dir[0] ? dir : DEFAULT_DIR;
    int dirfd = output_dir_open(dir, 1, why, sizeof why);
    if (dirfd < 0) {
        fprintf(stderr, "papi_ompt: no report written: %s: %s\n", dir, why);
        return -1;
    }
    snprintf(final, sizeof final, "ompt_%ld.json", (long)getpid());
    int fd = output_file_create(dirfd, final, tmp, sizeof tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || ompt_merge(&m, 0) != 0) {
        fprintf(stderr, "papi_ompt: no report written: %s/%s: %s\n", dir, final,
                f ? "out of memory" : strerror(errno));
        if (f)
            fclose(f);
        else if (fd >= 0)
            close(fd);
        if (fd >= 0)
            output_file_discard(dirfd, tmp);
        close(dirfd);
        return -1;
    }
    int bad = put_table(f, info, &m) != 0;
    if ((fclose(f) != 0) | bad || output_file_publish(dirfd, tmp, final) != 0) {
        fprintf(stderr, "papi_ompt: no report written: %s/%s: %s\n", dir, final, strerror(errno));
        output_file_discard(dirfd, tmp);
        close(dirfd);
        return -1;
    }
    close(dirfd);
    return 0;
}
