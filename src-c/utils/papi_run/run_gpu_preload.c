/* run_gpu_preload.c: libpapi_run_gpu.so, which papi_run --gpu preloads into the program:
 * libpapi's GPU activity layer (CUPTI's kernels, copies, memsets, synchronisation) started
 * in the program's process as its constructor runs (PAPI_GPU_ACTIVITY=1, which papi_run
 * sets unless the user did), and at exit, CUPTI flushed, the process's activity written to
 * PAPI_RUN_GPU_DIR/gpu_activity_RUNID_PID.json (gpu_activity.schema.json), where the layer
 * recorded (else the line saying why, from the job's first rank only, and no file). A forked child
 * holds its parent's sums and CUPTI does not follow it: it writes nothing; an exec'd image
 * starts again and writes gpu_activity_RUNID_PID_execN.json after its predecessor's.
 * With papi_run --trace (PAPI_RUN_GPU_TRACE_FILE) each kernel, copy and memset is also
 * kept with its times and appended at exit to that file, a block per process image
 * (trace_gpu_tracks.h's file form), for papi_run's trace.
 * With papi_run --gpu-counters (PAPI_RUN_GPU_COUNTERS: CUPTI metric names) the cuda
 * component counts them per kernel from the constructor (papi_gpu_kernels.h: a range per
 * launch on each device the program uses) and the file gains "kernel_counters": a row per
 * device and kernel name. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "json_writer.h"
#include "output_file.h"
#include "papi_gpu_activity.h"
#include "papi_gpu_kernels.h"
#include "run_identity.h"
#include "trace_gpu_tracks.h"
#include "trace_records.h"

#define MAX_JSON (64u << 20) /* 1024 kernel rows are ~300 KiB: a bound, never reached */

static pid_t started_by;
static int counting_kernels; /* --gpu-counters' per-kernel session started */

static int kernel_rows = -1; /* --gpu-counters' rows once stopped (stop_kernels), -1 none */

/* The per-kernel session stopped and collected, before the trace and the file use it. */
static void stop_kernels(void)
{
    char why[1024];
    if (!counting_kernels)
        return;
    kernel_rows = papi_gpu_kernels_stop(why, sizeof why);
    if (kernel_rows < 0 || why[0]) /* none counted, or some devices not */
        fprintf(stderr, "papi_run --gpu-counters: the kernels' counters lost: %s\n", why);
}

/* The per-kernel rows as the file's "kernel_counters" (gpu_activity.schema.json). */
static void write_kernel_counters(struct jw *w)
{
    int n = kernel_rows;
    if (n < 0)
        return;
    int devices[16], ndev = papi_gpu_kernels_devices(devices, 16);
    jw_obj_begin(w, "kernel_counters");
    jw_arr_begin(w, "devices");
    for (int i = 0; i < ndev; i++)
        jw_int(w, NULL, devices[i]);
    jw_arr_end(w);
    jw_arr_begin(w, "metrics");
    for (int i = 0; i < papi_gpu_kernels_nmetrics(); i++)
        jw_str(w, NULL, papi_gpu_kernels_metric(i));
    jw_arr_end(w);
    jw_arr_begin(w, "kernels");
    for (int k = 0; k < n; k++) {
        const char *name;
        unsigned long launches;
        const double *sums;
        int device;
        if (papi_gpu_kernels_row(k, &device, &name, &launches, &sums) != 0)
            continue;
        jw_obj_begin(w, NULL);
        jw_int(w, "device", device);
        jw_str(w, "kernel", name);
        jw_int(w, "launches", (long long)launches);
        jw_obj_begin(w, "sums");
        for (int i = 0; i < papi_gpu_kernels_nmetrics(); i++)
            jw_double(w, papi_gpu_kernels_metric(i), sums[i]);
        jw_obj_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_int(w, "dropped_launches", (long long)papi_gpu_kernels_dropped());
    jw_obj_end(w);
    if (papi_gpu_kernels_dropped())
        fprintf(stderr,
                "papi_run --gpu-counters: %lu launches not counted (CUPTI's counter data "
                "holds the first ranges only, or no memory for a row)\n",
                papi_gpu_kernels_dropped());
}

/* The process's GPU activity as JSON, in a buffer grown until it fits (heap), or NULL. */
static char *activity_json(void)
{
    for (size_t len = 64 * 1024; len <= MAX_JSON; len *= 4) {
        char *buf = malloc(len);
        if (!buf)
            return NULL;
        long n = papi_gpu_activity_json(buf, len);
        if (n > 0)
            return buf;
        free(buf);
        if (n == 0)
            return NULL; /* the layer was never asked */
    }
    return NULL;
}

/* The file's name: gpu_activity_ID_PID.json, or _execN for the Nth image after the first. */
static void file_name(int dirfd, const char *id, char *out, size_t len)
{
    snprintf(out, len, "gpu_activity_%s_%ld.json", id, (long)getpid());
    for (int n = 1; n < 100000 && faccessat(dirfd, out, F_OK, AT_SYMLINK_NOFOLLOW) == 0; n++)
        snprintf(out, len, "gpu_activity_%s_%ld_exec%d.json", id, (long)getpid(), n);
}

/* The file's text to fd, written with the project's JSON writer around the layer's own
 * (papi_gpu_activity_json): 0, or -1 on a write error. */
static int write_text(int fd, const char *id, const char *json, const char *run_pop)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "tool", "papi_run");
    jw_str(&w, "kind", "gpu_activity");
    jw_str(&w, "run_id", id);
    jw_int(&w, "pid", (long long)getpid());
    jw_raw(&w, "gpu", json);
    if (run_pop)
        jw_raw(&w, "run_pop", run_pop);
    if (counting_kernels)
        write_kernel_counters(&w);
    jw_obj_end(&w);
    int bad = jw_finish(&w) != 0;
    bad |= fclose(f) != 0;
    bad = bad || output_file_write(fd, text, len) != 0;
    free(text);
    return bad ? -1 : 0;
}

/* Whether operation o is a kernel (not a copy or a memset: the layer's own names). */
static int is_kernel(const struct trace_gpu_ops *g, const struct trace_gpu_op *o)
{
    const char *name = o->name >= 0 && o->name < g->nnames ? g->name[o->name] : "";
    return strncmp(name, "memcpy ", 7) != 0 && strcmp(name, "memset") != 0;
}

static const struct trace_gpu_op *sort_ops; /* by_start's array (one sort at a time) */

static int by_start(const void *x, const void *y)
{
    uint64_t a = sort_ops[*(const size_t *)x].start, b = sort_ops[*(const size_t *)y].start;
    return (a > b) - (a < b);
}

/* Device's kernel operations (indices into g->op) in time order: their count, or -1 when
 * out of memory (*out: heap, freed by the caller). */
static long device_kernels(const struct trace_gpu_ops *g, int device, size_t **out)
{
    long n = 0;
    *out = malloc((g->n ? g->n : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t k = 0; k < g->n; k++)
        if (TRACE_IS_GPU_TRACK(g->op[k].label) && g->op[k].pid == 0 &&
            ((g->op[k].label >> 20) & 0xFFu) == (uint32_t)device && is_kernel(g, &g->op[k]))
            (*out)[n++] = k;
    sort_ops = g->op;
    qsort(*out, (size_t)n, sizeof **out, by_start);
    return n;
}

/* --gpu-counters with --trace: each kept launch's metrics as counter points on its
 * kernel's GPU track, "METRIC (per kernel)", its value from the kernel's start and 0 from
 * its end. A device's launches are in launch order and its kernels ran one at a time
 * (a range per launch serialises them), so its i-th kernel operation in time order is
 * its i-th launch; a launch whose kernel's name is not the operation's (the activity
 * layer lost records) ends the device's points, said in one line. */
static void add_kernel_points(struct trace_gpu_ops *g)
{
    long not_kept, n = kernel_rows >= 0 ? papi_gpu_kernels_launches(&not_kept) : 0;
    int nm = papi_gpu_kernels_nmetrics(), names[32], device = -1;
    if (n <= 0 || nm <= 0 || nm > 32)
        return;
    for (int m = 0; m < nm; m++) {
        char name[TRACE_GPU_NAME_LEN];
        snprintf(name, sizeof name, "%s (per kernel)", papi_gpu_kernels_metric(m));
        if ((names[m] = trace_gpu_ops_name(g, name)) < 0)
            return;
    }
    size_t *ops = NULL, nops = 0, at = 0;
    long placed = 0, unmatched = 0;
    for (long i = 0; i < n; i++) {
        int d;
        const char *kernel;
        const double *values;
        if (papi_gpu_kernels_launch(i, &d, &kernel, &values) != 0)
            continue;
        if (d != device) { /* a device's launches come together, in launch order */
            free(ops);
            long got = device_kernels(g, d, &ops);
            if (got < 0)
                return;
            device = d, nops = (size_t)got, at = 0;
        }
        const struct trace_gpu_op *o = at < nops ? &g->op[ops[at]] : NULL;
        if (!o || strcmp(g->name[o->name], kernel) != 0) {
            unmatched++, at = nops; /* the rest of this device's launches: no points */
            continue;
        }
        at++;
        for (int m = 0; m < nm; m++)
            if (trace_gpu_ops_point(g, o->label, o->start, names[m], values[m]) != 0 ||
                trace_gpu_ops_point(g, o->label, o->end, names[m], 0.0) != 0) {
                free(ops);
                return;
            }
        placed++;
    }
    free(ops);
    if (unmatched || not_kept)
        fprintf(stderr,
                "papi_run --gpu-counters: the trace's counter tracks have %ld of %ld launches "
                "(%s)\n",
                placed, n + not_kept,
                unmatched ? "a kernel record of the GPU activity is missing or out of order"
                          : "the first 65536 are kept");
}

/* The GPU operations kept for papi_run's trace appended to its file. */
static void write_trace_ops(void)
{
    const char *path = env_get("PAPI_RUN_GPU_TRACE_FILE");
    struct trace_gpu_ops g = {0};
    struct trace_gpu_since since = {0};
    if (!path || !*path)
        return;
    int rc = papi_gpu_activity_trace_ops(&g, &since);
    if (rc == 0)
        add_kernel_points(&g);
    int fd = rc == 0 ? handover_open(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    if (rc < 0 || (rc == 0 && (fd < 0 || trace_gpu_ops_save(fd, (long)getpid(), &g) != 0)))
        fprintf(stderr, "papi_run --gpu: %s: the GPU tracks not written: %s\n", path,
                rc < 0 ? "out of memory" : handover_strerror(errno));
    if (fd >= 0)
        close(fd);
    trace_gpu_ops_free(&g);
}

static void write_file(void)
{
    const char *dir = env_get("PAPI_RUN_GPU_DIR"), *id = env_get("PAPI_RUN_ID");
    char why[256], tmp[4096], final[256];
    char run_pop[2048];
    if (getpid() != started_by || !dir || !*dir)
        return;
    /* 0: the layer never recorded (it said why, once per job): no file, as papi_run(1) says */
    long pop = papi_gpu_activity_run_pop_json(run_pop, sizeof run_pop);
    if (pop == 0)
        return;
    /* papi_run's ids are letters, digits, '.', '_' and '-': anything else is no id of its */
    if (!id || !*id || strlen(id) > 64 || strspn(id, RUN_ID_CHARS) != strlen(id))
        id = "run";
    papi_gpu_activity_flush();
    papi_gpu_activity_say_losses("papi_run --gpu");
    stop_kernels();
    write_trace_ops();
    char *json = activity_json();
    int dirfd = json ? output_dir_open(dir, 0, why, sizeof why) : -1;
    if (dirfd < 0) {
        if (json)
            fprintf(stderr, "papi_run --gpu: no GPU activity file: %s\n", why);
        free(json);
        return;
    }
    file_name(dirfd, id, final, sizeof final);
    int fd = output_file_create(dirfd, final, tmp, sizeof tmp);
    int bad = fd < 0 || write_text(fd, id, json, pop > 0 ? run_pop : NULL) != 0;
    if (fd >= 0)
        bad |= close(fd) != 0;
    if (bad || output_file_publish(dirfd, tmp, final) != 0) {
        fprintf(stderr, "papi_run --gpu: %s/%s could not be written\n", dir, final);
        if (fd >= 0)
            output_file_discard(dirfd, tmp);
    }
    free(json);
    close(dirfd);
}

__attribute__((constructor)) static void run_gpu_start(void)
{
    started_by = getpid();
    const char *trace = env_get("PAPI_RUN_GPU_TRACE_FILE"), *source;
    /* says why not itself, once per job: by its first rank (every process outside one) */
    if (papi_gpu_activity_start(run_launcher_rank(&source) > 0 ? NULL : "papi_run --gpu") &&
        trace && *trace && !papi_gpu_activity_trace_keep())
        fprintf(stderr, "papi_run --gpu: no memory for the GPU tracks\n");
    const char *metrics = env_get("PAPI_RUN_GPU_COUNTERS");
    char why[1024];
    if (metrics && *metrics) {
        if (trace && *trace)
            papi_gpu_kernels_keep_launches(); /* the trace's counter tracks per kernel */
        counting_kernels = papi_gpu_kernels_start(metrics, why, sizeof why) == 0;
        /* once per job, as --gpu's reason: by its first rank (every process outside one) */
        if (!counting_kernels && run_launcher_rank(&source) <= 0)
            fprintf(stderr, "papi_run --gpu-counters: not counted: %s\n", why);
    }
    atexit(write_file); /* after the layer's start: before its own flush at exit */
}
