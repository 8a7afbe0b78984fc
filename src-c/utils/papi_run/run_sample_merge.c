/* run_sample_merge.c: the profiles of one run merged (run_sample_opts.h). Each process
 * of the program (each rank under mpirun) leaves .sample_RUNID_PID.txt in the output
 * directory (its stacks block, run_sample_stacks.h); papi_run, once its program has ended, merges every one of its run under an
 * exclusive flock on .profile.lock, so the papi_run of the last rank to end writes the
 * whole job's profile.folded and job_profile_RUNID.json, the job's profile papi_report
 * reads (the one merge of the job; papi_run --merge DIR, run_merge_dir.c, runs it again on
 * a folder left without it). Stacks are summed by their frames' names (threads and
 * processes together); a function's self share is its weight as the leaf frame. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/file.h>
#include <unistd.h>

#include "env.h"
#include "folded.h"
#include "handover_file.h"
#include "json_writer.h"
#include "output_file.h"
#include "papi_metrics.h"
#include "profile_writer.h"
#include "run_identity.h"
#include "run_options.h"
#include "run_sample_merge.h"
#include "run_sample_metric.h"
#include "run_sample_stacks.h"

#define TOP_FUNCTIONS    10
#define RS_JOB_PROCESSES 4096 /* processes the job's profile lists */

struct rs_job_process {
    long pid;
    int rank; /* -1: none */
    unsigned long long samples, lost, dropped, dropped_weight;
};

struct item {
    char *key;
    uint64_t w[1 + RS_MAX_READ];
    uint64_t samples; /* (the job file's tables) */
    struct item *next;
};

struct map {
    struct item **b;
    size_t nb, n;
};

static struct map stacks, funcs;
/* The job's profile (run_sample_job.c): stacks by names and places, each thread's
 * functions, the processes. */
static struct map placed, threads;
static struct rs_job_process procs[RS_JOB_PROCESSES];
static int nprocs;
static char events[1 + RS_MAX_READ][RS_NAME_LEN];
static int nw, nfiles, nleft; /* nleft: files found but left out (each said) */
static uint64_t total[1 + RS_MAX_READ], samples, lost, dropped, dropped_weight;
static size_t stack_cap; /* the processes' cap of distinct stacks */
static char notes[1024];
static char graphs[2048]; /* the processes' distinct "MODE\tREASON" lines (call_graph) */
static int offline;       /* papi_run --merge: no launcher's job around this papi_run */
/* The run header and -m metrics the job file takes with --merge: the papi_run that
 * started first (run_sample_header.c). */
static struct rs_header job_head;
#define RS_HEAD_WHOLE ((1 << RS_HEADER_KEYS) - 1)

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static struct item *find(struct map *m, const char *key, size_t len)
{
    if (!m->b) {
        m->nb = 4096;
        m->b = calloc(m->nb, sizeof *m->b);
        if (!m->b)
            return NULL;
    }
    char *k = strndup(key, len);
    if (!k)
        return NULL;
    size_t h = hash_str(k) & (m->nb - 1);
    for (struct item *it = m->b[h]; it; it = it->next)
        if (strcmp(it->key, k) == 0)
            return free(k), it;
    struct item *it = calloc(1, sizeof *it);
    if (!it)
        return free(k), NULL;
    it->key = k;
    it->next = m->b[h];
    m->b[h] = it;
    m->n++;
    return it;
}

static void add_note(const char *text)
{
    size_t n = strlen(notes);
    if (!strstr(notes, text))
        snprintf(notes + n, sizeof notes - n, "%s%s", n ? "; " : "", text);
}

static void add_graph(const char *text)
{
    size_t n = strlen(graphs), len = strlen(text);
    for (const char *g = graphs; *g; g += strcspn(g, "\n") + (g[strcspn(g, "\n")] != 0))
        if (strncmp(g, text, len) == 0 && (g[len] == '\n' || !g[len]))
            return;
    if (n + len + 2 < sizeof graphs)
        snprintf(graphs + n, sizeof graphs - n, "%s%s", n ? "\n" : "", text);
}

/* A block's events: the first file's names; a file with others is skipped. */
static int check_events(const struct rs_stacks *b)
{
    if (nfiles == 0) {
        memcpy(events, b->events, sizeof events);
        nw = b->nw;
        return 0;
    }
    return b->nw == nw && memcmp(events, b->events, (size_t)nw * RS_NAME_LEN) == 0 ? 0 : -1;
}

/* The leaf frame's names: the last parts of stack's (an inlined chain is several). */
static const char *leaf_frame(const char *stack, int parts)
{
    const char *p = stack + strlen(stack);
    while (p > stack && (p[-1] != ';' || --parts > 0))
        p--;
    return p;
}

static void add_item(struct item *it, const uint64_t *w, uint64_t n)
{
    for (int i = 0; it && i < nw; i++)
        it->w[i] += w[i];
    if (it)
        it->samples += n;
}

/* The stack's thread and places into the job's tables. */
static void add_placed(const struct rs_stacks_stack *st)
{
    const struct rs_job_process *pr = &procs[nprocs - 1];
    char *key = NULL; /* as long as the stack (128 frames of C++ names): never cut */
    if (asprintf(&key, "%s\t%s", st->names, st->where) >= 0)
        add_item(find(&placed, key, strlen(key)), st->w, st->samples);
    free(key);
    key = NULL;
    if (asprintf(&key, "%d\t%ld\t%d\t%s", pr->rank, pr->pid, st->tid,
                 leaf_frame(st->names, st->parts)) >= 0)
        add_item(find(&threads, key, strlen(key)), st->w, st->samples);
    free(key);
}

static void add_stack(const struct rs_stacks_stack *st)
{
    const char *stack = st->names;
    const uint64_t *w = st->w;
    size_t len = strlen(stack);
    const char *leaf = strrchr(stack, ';');
    leaf = leaf ? leaf + 1 : stack;
    struct item *s = find(&stacks, stack, len),
                *f = find(&funcs, leaf, len - (size_t)(leaf - stack));
    for (int i = 0; i < nw && s && f; i++) {
        s->w[i] += w[i];
        f->w[i] += w[i];
        total[i] += w[i];
    }
    if (nprocs > 0)
        add_placed(st);
}

/* A block opens a process of the job file. */
static void add_process(long pid, unsigned long long sm, unsigned long long lo,
                        unsigned long long dr, unsigned long long dw)
{
    if (nprocs == RS_JOB_PROCESSES) {
        add_note("more processes than the job's profile lists: the first ones kept");
        return;
    }
    procs[nprocs++] = (struct rs_job_process){pid, -1, sm, lo, dr, dw};
}

/* One process's block (rs_stacks_load's take) into the job's tables. */
static int take_block(void *ctx, const struct rs_stacks *b)
{
    (void)ctx;
    if (check_events(b) != 0)
        return 0;
    add_process(b->pid, b->samples, b->lost, b->dropped, b->dropped_weight);
    samples += b->samples;
    lost += b->lost;
    dropped += b->dropped;
    dropped_weight += b->dropped_weight;
    stack_cap = b->cap;
    if (b->call_graph)
        add_graph(b->call_graph);
    if (b->note)
        add_note(b->note);
    if (nprocs > 0)
        procs[nprocs - 1].rank = b->rank;
    for (size_t k = 0; k < b->nstacks; k++)
        add_stack(&b->stack[k]);
    nfiles++;
    if (b->head.has == RS_HEAD_WHOLE &&
        (job_head.has != RS_HEAD_WHOLE ||
         strcmp(b->head.value[RS_RUN_START], job_head.value[RS_RUN_START]) < 0))
        memcpy(&job_head, &b->head, sizeof job_head);
    return 0;
}

/* A process's file (a FIFO there: not waited for, handover_open); one that is not a whole
 * stacks block is said and left out. */
static void read_file(const struct run_state *s, const char *name)
{
    char path[sizeof s->dir + 256], why[512];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    if (rs_stacks_load(path, take_block, NULL, why, sizeof why) < 0) {
        fprintf(stderr, "papi_run: --sample: %s: its profile left out\n", why);
        nleft++;
    }
}

/* --merge: the run's command, start and host and the -m metrics from the processes'
 * files; files of an older papi_run have none: one line says what the job file lacks. */
static const char *offline_head(struct run_state *s)
{
    if (job_head.has != RS_HEAD_WHOLE) {
        fprintf(stderr,
                "papi_run: --merge %s: the processes' files of run %s are an older papi_run's, "
                "without the run's command, start and host and the -m metrics: the job file "
                "names the run's id only and has no metrics\n",
                s->dir, s->run.id);
        return "";
    }
    snprintf(s->run.command, sizeof s->run.command, "%.*s", (int)sizeof s->run.command - 1,
             job_head.value[RS_RUN_COMMAND]);
    snprintf(s->run.start, sizeof s->run.start, "%.*s", (int)sizeof s->run.start - 1,
             job_head.value[RS_RUN_START]);
    snprintf(s->run.host, sizeof s->run.host, "%.*s", (int)sizeof s->run.host - 1,
             job_head.value[RS_RUN_HOST]);
    return job_head.metrics;
}

static struct item **sorted(const struct map *m);

/* What the merge wrote of each event's folded file, recorded in the job file ("folded"):
 * papi_report copies a file only while its bytes are still these (another run's merge in
 * the same folder writes the same names). */
static struct {
    char name[RS_NAME_LEN + 32];
    size_t bytes;
    uint32_t crc32;
} folded_out[1 + RS_MAX_READ];

/* profile.folded (weight 0) or profile.EVENT.folded: "root;..;leaf count" per stack, in the
 * byte order of the stacks, made in memory first for its size and CRC-32. */
static int write_folded(int dirfd, int k)
{
    char tmp[512], *text = NULL;
    size_t len = 0;
    folded_file_name(folded_out[k].name, sizeof folded_out[k].name, events[k], k == 0);
    struct item **all = sorted(&stacks);
    FILE *mem = all ? open_memstream(&text, &len) : NULL;
    if (mem) {
        for (size_t i = 0; i < stacks.n; i++)
            if (all[i]->w[k])
                folded_line(mem, (const char *const *)&all[i]->key, 1, &all[i]->w[k], 1);
    }
    free(all);
    if (!mem || fclose(mem) != 0) {
        free(text);
        return -1;
    }
    folded_out[k].bytes = len;
    folded_out[k].crc32 = folded_crc32(0, text, len);
    int fd = output_file_create(dirfd, folded_out[k].name, tmp, sizeof tmp), ret = -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        ret = fwrite(text, 1, len, f) == len ? 0 : -1;
        if ((fclose(f) != 0) | ret || output_file_publish(dirfd, tmp, folded_out[k].name) != 0) {
            output_file_discard(dirfd, tmp);
            ret = -1;
        }
    } else if (fd >= 0) {
        close(fd), output_file_discard(dirfd, tmp);
    }
    free(text);
    return ret;
}

/* "folded": each event's folded file as written, its name, event, size and CRC-32. */
static void write_folded_record(struct jw *w)
{
    jw_arr_begin(w, "folded");
    for (int k = 0; k < nw; k++) {
        jw_obj_begin(w, NULL);
        jw_str(w, "file", folded_out[k].name);
        jw_str(w, "event", events[k]);
        jw_uint(w, "bytes", folded_out[k].bytes);
        jw_uint(w, "crc32", folded_out[k].crc32);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static int job_partial(void);

static int by_key(const void *a, const void *b)
{
    return strcmp((*(struct item *const *)a)->key, (*(struct item *const *)b)->key);
}

/* m's items in the order of their keys (NULL when out of memory). */
static struct item **sorted(const struct map *m)
{
    struct item **all = malloc((m->n + 1) * sizeof *all);
    size_t n = 0;
    for (size_t b = 0; all && b < m->nb; b++)
        for (struct item *it = m->b[b]; it; it = it->next)
            all[n++] = it;
    if (all)
        qsort(all, n, sizeof *all, by_key);
    return all;
}

static void write_rank(struct jw *w, int rank)
{
    if (rank >= 0)
        jw_int(w, "rank", rank);
    else
        jw_null(w, "rank");
}

static void write_processes(struct jw *w)
{
    jw_arr_begin(w, "processes");
    for (int i = 0; i < nprocs; i++) {
        jw_obj_begin(w, NULL);
        jw_int(w, "pid", procs[i].pid);
        write_rank(w, procs[i].rank);
        jw_uint(w, "samples", procs[i].samples);
        jw_uint(w, "lost_records", procs[i].lost);
        jw_uint(w, "dropped_samples", procs[i].dropped);
        jw_uint(w, "dropped_weight", procs[i].dropped_weight);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* "stacks": by names and places ("NAMES\tWHERE" keys); "thread_functions": each thread's
 * leaf frames ("RANK\tPID\tTID\tFUNCTION" keys). */
static int write_tables(struct jw *w)
{
    struct item **st = sorted(&placed), **th = sorted(&threads);
    jw_arr_begin(w, "stacks");
    for (size_t k = 0; st && th && k < placed.n; k++) {
        char *tab = strchr(st[k]->key, '\t'); /* (add_placed's: always there) */
        if (!tab)
            continue;
        jw_obj_begin(w, NULL);
        *tab = 0;
        jw_str(w, "stack", st[k]->key);
        jw_str(w, "where", tab + 1);
        *tab = '\t';
        jw_uint(w, "samples", st[k]->samples);
        profile_counts_write(w, "counts", st[k]->w, nw);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_arr_begin(w, "thread_functions");
    for (size_t k = 0; st && th && k < threads.n; k++) {
        int rank = -1, tid = 0, at = 0;
        long pid = 0;
        sscanf(th[k]->key, "%d\t%ld\t%d\t%n", &rank, &pid, &tid, &at);
        jw_obj_begin(w, NULL);
        write_rank(w, rank);
        jw_int(w, "pid", pid);
        jw_int(w, "tid", tid);
        jw_str(w, "function", th[k]->key + at);
        jw_uint(w, "samples", th[k]->samples);
        profile_counts_write(w, "counts", th[k]->w, nw);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    int ok = st && th;
    free(st);
    free(th);
    return ok ? 0 : -1;
}

static void write_job_head(struct jw *w, const struct run_state *s, const char *metrics)
{
    const char *src;
    int size = run_launcher_size();
    jw_str(w, "kind", "profile_job");
    jw_obj_begin(w, "run");
    jw_str(w, "id", s->run.id);
    jw_str(w, "command", s->run.command);
    jw_str(w, "start", s->run.start);
    jw_str(w, "host", s->run.host);
    jw_obj_end(w);
    jw_arr_begin(w, "events");
    for (int i = 0; i < nw; i++)
        jw_str(w, NULL, events[i]);
    jw_arr_end(w);
    profile_metrics_write(w, metrics, nw);
    if (!offline && run_launcher_rank(&src) >= 0 && size > 0)
        jw_int(w, "ranks_expected", size);
    else
        jw_null(w, "ranks_expected");
    jw_bool(w, "partial", job_partial());
    jw_uint(w, "samples", samples);
    jw_uint(w, "lost_records", lost);
    jw_uint(w, "dropped_samples", dropped);
    jw_uint(w, "dropped_weight", dropped_weight);
    jw_uint(w, "stack_cap", stack_cap);
    jw_str(w, "notes", notes);
}

/* job_profile_RUNID.json (schema/profile_job.schema.json): the job's profile merged once,
 * the file papi_report reads. 0, or -1. */
static int write_job(const struct run_state *s, const char *metrics)
{
    char final[256], tmp[512];
    snprintf(final, sizeof final, "job_profile_%s.json", s->run.id);
    int fd = output_file_create(s->dirfd, final, tmp, sizeof tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd), output_file_discard(s->dirfd, tmp);
        return -1;
    }
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    write_job_head(&w, s, metrics);
    write_processes(&w);
    int bad = write_tables(&w);
    write_folded_record(&w);
    jw_obj_end(&w);
    bad |= jw_finish(&w);
    if ((fclose(f) != 0) | bad || output_file_publish(s->dirfd, tmp, final) != 0) {
        output_file_discard(s->dirfd, tmp);
        return -1;
    }
    return 0;
}

int run_sample_merge(struct run_state *s)
{
    char prefix[160];
    snprintf(prefix, sizeof prefix, ".sample_%s_", s->run.id);
    offline = s->opt.merge_dir != NULL;
    int lock = openat(s->dirfd, ".profile.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock >= 0)
        flock(lock, LOCK_EX);
    int fd = dup(s->dirfd), ret = 0;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) {
        rewinddir(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t n = strlen(e->d_name);
            if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n > 4 &&
                strcmp(e->d_name + n - 4, ".txt") == 0)
                read_file(s, e->d_name);
        }
        closedir(d);
    } else if (fd >= 0) {
        close(fd);
    }
    if (nfiles == 0 && nleft > 0) {
        fprintf(stderr,
                "papi_run: --sample: none of the %d process file%s of run %s could be merged "
                "(each said above): no job profile written\n",
                nleft, nleft == 1 ? "" : "s", s->run.id);
        ret = -1;
    } else if (nfiles == 0 && s->exited && WIFSIGNALED(s->status)) {
        fprintf(stderr,
                "papi_run: --sample: no process of the program left a profile: it was killed by "
                "signal %d (%s) before one was written\n",
                WTERMSIG(s->status), strsignal(WTERMSIG(s->status)));
        ret = -1;
    } else if (nfiles == 0) {
        fprintf(stderr, "papi_run: --sample: no process of the program left a profile (%s)\n",
                s->note[0] ? s->note : "the program never ran the sampling library");
        ret = -1;
    }
    for (int k = 0; k < nw && ret == 0; k++)
        if (write_folded(s->dirfd, k) != 0) {
            fprintf(stderr, "papi_run: --sample: the folded profile could not be written in %s\n",
                    s->dir);
            ret = -1;
        }
    const char *metrics = env_get("PAPI_RUN_SAMPLE_METRICS");
    if (ret == 0 && offline)
        metrics = offline_head(s);
    if (ret == 0 && write_job(s, metrics ? metrics : "") != 0) {
        fprintf(stderr,
                "papi_run: --sample: the job's profile (job_profile_%s.json) could not "
                "be written in %s\n",
                s->run.id, s->dir);
        ret = -1;
    }
    if (lock >= 0)
        close(lock);
    return ret;
}

/* Metric m of one function from its summed self counts (a ratio of sums); 0, or -1 when
 * it cannot be formed there (a denominator of 0). */
static int function_metric(const struct run_sample_metric *m, const struct item *f, double *v)
{
    const char *names[1 + RS_MAX_READ];
    long long values[1 + RS_MAX_READ];
    for (int k = 0; k < m->nev; k++) {
        if (m->slot[k] >= nw)
            return -1;
        names[k] = m->ev[k];
        values[k] = (long long)f->w[m->slot[k]];
    }
    return PAPIM_evaluate(m->name, m->nev, names, values, 0.0, v) == PAPI_OK ? 0 : -1;
}

static int by_weight(const void *a, const void *b)
{
    uint64_t x = (*(struct item *const *)a)->w[0], y = (*(struct item *const *)b)->w[0];
    return x < y   ? 1
           : x > y ? -1
                   : strcmp((*(struct item *const *)a)->key, (*(struct item *const *)b)->key);
}

void run_sample_call_graph(const struct run_state *s)
{
    static const char cost[] = " (libdw unwinds the 8 KiB of user stack copied with each sample)";
    if (s->opt.call_graph != RUN_CG_AUTO || !graphs[0]) {
        fprintf(stderr, " call stacks: --call-graph %s%s\n", run_call_graph_name(s->opt.call_graph),
                s->opt.call_graph == RUN_CG_DWARF ? cost : "");
        return;
    }
    for (const char *g = graphs; *g;) { /* auto: what each kind of process took, and why */
        size_t len = strcspn(g, "\n"), mode = strcspn(g, "\t\n");
        fprintf(stderr, " call stacks: --call-graph %.*s%s: %.*s\n", (int)mode, g,
                strncmp(g, "dwarf\t", 6) == 0 ? cost : "", (int)(len - mode - (mode < len)),
                g + mode + (mode < len));
        g += len + (g[len] != 0);
    }
}

/* Under a job launcher each rank's papi_run merges the profiles of the processes that
 * had ended when it did: 1 when fewer than the job's ranks were there (its banner is
 * not the job's), 0 otherwise or outside a launched job. */
static int job_partial(void)
{
    const char *src;
    int size = run_launcher_size();
    return !offline && run_launcher_rank(&src) >= 0 && (size < 0 || nfiles < size);
}

/* What the banner's profile covers, under a launcher: the job's, or part of it. */
static const char *job_scope(void)
{
    static char text[160];
    const char *src;
    int size = run_launcher_size(), rank = run_launcher_rank(&src);
    if (rank < 0)
        return "";
    if (!job_partial())
        snprintf(text, sizeof text, ": the job's %d ranks", size);
    else if (size > 0)
        snprintf(text, sizeof text,
                 ": PARTIAL, rank %d's papi_run merged those of the job's %d "
                 "ranks that had ended",
                 rank, size);
    else
        snprintf(text, sizeof text, ": PARTIAL, rank %d's papi_run merged the ranks that had ended",
                 rank);
    return text;
}

void run_sample_banner(const struct run_state *s)
{
    if (nfiles == 0 || s->opt.quiet || s->opt.json || s->opt.csv_sep[0])
        return;
    struct item **all = malloc((funcs.n + 1) * sizeof *all);
    size_t n = 0;
    for (size_t b = 0; all && b < funcs.nb; b++)
        for (struct item *it = funcs.b[b]; it; it = it->next)
            all[n++] = it;
    if (!all)
        return;
    qsort(all, n, sizeof *all, by_weight);
    fprintf(
        stderr,
        "\n top functions, self share of %s (%llu samples, %d process%s%s, %s/profile.folded%s):\n",
        events[0], (unsigned long long)samples, nfiles, nfiles == 1 ? "" : "es", job_scope(),
        s->dir, job_partial() ? " has the whole job once every rank ends" : "");
    fprintf(stderr, " %9s", events[0]);
    for (int i = 1; i < nw; i++)
        fprintf(stderr, " %*s", (int)(strlen(events[i]) > 9 ? strlen(events[i]) : 9), events[i]);
    int nm;
    const struct run_sample_metric *m = run_sample_metrics(&nm);
    for (int j = 0; j < nm; j++)
        fprintf(stderr, " %*s", (int)(strlen(m[j].name) > 12 ? strlen(m[j].name) : 12), m[j].name);
    fprintf(stderr, "  function\n");
    for (size_t k = 0; k < n && k < TOP_FUNCTIONS; k++) {
        for (int i = 0; i < nw; i++) {
            int width = i == 0 ? 8 : (int)(strlen(events[i]) > 9 ? strlen(events[i]) : 9) - 1;
            fprintf(stderr, " %*.2f%%", width,
                    total[i] ? 100.0 * (double)all[k]->w[i] / (double)total[i] : 0.0);
        }
        for (int j = 0; j < nm; j++) {
            int width = (int)(strlen(m[j].name) > 12 ? strlen(m[j].name) : 12);
            double v;
            if (function_metric(&m[j], all[k], &v) == 0)
                fprintf(stderr, " %*.6g", width, v);
            else
                fprintf(stderr, " %*s", width, "-");
        }
        fprintf(stderr, "  %s\n", all[k]->key);
    }
    if (dropped || lost) /* the shares above are of what was kept: say what was not */
        fprintf(stderr,
                " dropped: %llu samples (%llu %s, %.2f%% of all sampled) past the cap of %zu "
                "distinct stacks per process (--sample-stacks), %llu records lost by the kernel\n",
                (unsigned long long)dropped, (unsigned long long)dropped_weight, events[0],
                total[0] + dropped_weight
                    ? 100.0 * (double)dropped_weight / (double)(total[0] + dropped_weight)
                    : 0.0,
                stack_cap, (unsigned long long)lost);
    for (int j = 0; j < nm; j++)
        fprintf(stderr,
                " %s per function (%s): of the function's own counts summed; - where "
                "it cannot be formed\n",
                m[j].name, m[j].unit);
    if (notes[0])
        fprintf(stderr, " sample notes: %s\n", notes);
    free(all);
}

void run_sample_note(struct run_state *s, const char *text)
{
    size_t n = strlen(s->note);
    snprintf(s->note + n, sizeof s->note - n, "%s%s", n ? "; " : "", text);
}
