/* run_trace.c: papi_run --trace json|otf2: the program's timeline in a directory of its
 * own beside the report's (region readers take every file of papi_run_output for a rank
 * file), DIR/papi_run_trace/trace_rank_NNNNNN-RUNID.json (or the OTF2 archive of that name):
 * the program as one region on the track of its process, and with --interval each sample
 * of the counts (since the start) as counter tracks; with --gpu, the GPU operations (kernels,
 * copies, memsets) of the program's processes as regions on a track per device and stream:
 * the preloaded library (run_gpu_preload.c) appends them to a file of the output
 * directory at each process's exit, read here and removed; the OpenMP slices of its
 * processes (parallel regions, implicit tasks, barriers, joins, task waits, explicit tasks:
 * trace_openmp.h) on their threads' tracks, which the OMPT tool appends to a file of the
 * output directory at each process's end (PAPI_RUN_OMPT_TRACE_FILE), read here and
 * removed. The program also gets PAPI_TRACE
 * (unless set), so its own regions (the region API) are traced into papi_hl_trace/.
 * A bad format or OTF2 without libotf2 is one line: the program still runs and its
 * counts are written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include "run.h"
#include "run_trace.h"
#include "trace_gpu_tracks.h"
#include "trace_openmp.h"
#include "trace_writer.h"

static enum trace_format format;
static int tracing;

void run_trace_check(struct run_state *s)
{
    char why[256];
    if (!s->opt.trace)
        return;
    if (trace_format_parse(s->opt.trace, &format, why, sizeof why) != 0 ||
        (format == TRACE_OTF2 && !trace_otf2_available(why, sizeof why))) {
        fprintf(stderr, "papi_run: --trace: %s: no trace (the counts are still written)\n", why);
        return;
    }
    tracing = 1;
    setenv("PAPI_TRACE", trace_format_name(format), 0);
    snprintf(s->omp_trace_file, sizeof s->omp_trace_file, "%s/.papi_run_omp_trace.%ld", s->dir,
             (long)getpid());
    unlink(s->omp_trace_file); /* a killed run's of this pid: not this run's */
    setenv("PAPI_RUN_OMPT_TRACE_FILE", s->omp_trace_file, 1);
    if (s->opt.gpu) {
        snprintf(s->gpu_trace_file, sizeof s->gpu_trace_file, "%s/.papi_run_gpu_trace.%ld", s->dir,
                 (long)getpid());
        unlink(s->gpu_trace_file); /* a killed run's of this pid: not this run's */
        setenv("PAPI_RUN_GPU_TRACE_FILE", s->gpu_trace_file, 1);
    }
}

/* --gpu: the GPU tracks of the program's processes (their file: run_trace_write removes it). */
static void add_gpu_tracks(struct trace_writer *w, const struct run_state *s)
{
    struct trace_gpu_ops g = {0};
    char why[512];
    if (!s->gpu_trace_file[0])
        return;
    int rc = trace_gpu_ops_load(s->gpu_trace_file, &g, why, sizeof why);
    if (rc < 0)
        fprintf(stderr, "papi_run: --trace: the GPU tracks: %s: %s\n", why,
                g.n ? "the operations before it traced" : "none traced");
    if (trace_gpu_ops_add(w, &g) != 0)
        fprintf(stderr, "papi_run: --trace: no memory for the GPU tracks\n");
    if (g.dropped)
        fprintf(stderr,
                "papi_run: --trace: %llu GPU operations past the first 65536 of a "
                "process not traced\n",
                (unsigned long long)g.dropped);
    trace_gpu_ops_free(&g);
}

/* The OpenMP slices of the program's processes (their file: run_trace_write removes it). */
static void add_omp_tracks(struct trace_writer *w, const struct run_state *s)
{
    struct trace_omp_spans o = {0};
    char why[512];
    if (!s->omp_trace_file[0])
        return;
    int rc = trace_omp_spans_load(s->omp_trace_file, &o, why, sizeof why);
    if (rc < 0)
        fprintf(stderr, "papi_run: --trace: the OpenMP slices: %s: %s\n", why,
                o.n ? "the slices before it traced" : "none traced");
    if (trace_omp_spans_add(w, &o) != 0)
        fprintf(stderr, "papi_run: --trace: no memory for the OpenMP slices\n");
    trace_omp_say_dropped("papi_run: --trace", &o);
    trace_omp_spans_free(&o);
}

static void write_trace(const struct run_state *s)
{
    char why[512], base[RUN_ID_LEN + 64], host[256] = "", dir[4096 + 32];
    if (!tracing)
        return;
    if (snprintf(dir, sizeof dir, "%s/%s", s->opt.outdir, RUN_TRACE_DIR) >= (int)sizeof dir) {
        fprintf(stderr, "papi_run: --trace: -o %.40s...: name too long: no trace\n", s->opt.outdir);
        return;
    }
    int fd = output_dir_open(dir, 1, why, sizeof why);
    if (fd < 0) {
        fprintf(stderr, "papi_run: --trace: %s: no trace\n", why);
        return;
    }
    close(fd);
    const char *source;
    int rank = run_launcher_rank(&source);
    const char *prog = strrchr(s->opt.argv[0], '/');
    prog = prog ? prog + 1 : s->opt.argv[0];
    gethostname(host, sizeof host - 1);
    struct trace_writer *w = trace_open(format, rank >= 0 ? rank : 0, (long)s->child, host, 0);
    if (!w) {
        fprintf(stderr, "papi_run: --trace: out of memory: no trace\n");
        return;
    }
    const uint32_t tid = (uint32_t)s->child;
    const uint64_t t0 = (uint64_t)s->start_ns;
    int region = trace_define_region(w, prog);
    trace_enter(w, t0, tid, region);
    for (int i = 0; i < s->opt.nevents && s->series.n > 0; i++) {
        int c = trace_define_counter(w, s->opt.events[i]);
        trace_counter(w, t0, tid, c, 0);
        for (int k = 0; k < s->series.n; k++)
            trace_counter(w, t0 + (uint64_t)s->series.t[k], tid, c,
                          s->series.v[(size_t)k * (size_t)s->series.width + (size_t)i]);
    }
    trace_leave(w, (uint64_t)s->end_ns, tid, region);
    add_gpu_tracks(w, s);
    add_omp_tracks(w, s);
    struct trace_rank v;
    trace_view(w, &v);
    snprintf(base, sizeof base, "trace_rank_%06ld-%s", rank >= 0 ? (long)rank : (long)s->child,
             s->run.id);
    const struct trace_meta meta = {prog, s->run.id, "papi_run", 0};
    if (trace_write(dir, base, format, &meta, &v, 1, why, sizeof why) != 0)
        fprintf(stderr, "papi_run: --trace: %s\n", why);
    else if (!s->opt.quiet && !s->opt.json && !s->opt.csv_sep[0])
        fprintf(stderr, " trace: %s/%s%s\n", dir, base,
                format == TRACE_JSON ? ".json" : "/traces.otf2");
    trace_close(w);
}

void run_trace_write(const struct run_state *s)
{
    write_trace(s);
    if (s->gpu_trace_file[0])
        unlink(s->gpu_trace_file); /* read, or not wanted: a trace that could not be made */
    if (s->omp_trace_file[0])
        unlink(s->omp_trace_file);
}
