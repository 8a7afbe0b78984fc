/* papi_run: count a whole program, unchanged. papi_run [options] -- PROGRAM [ARGS...]
 * forks the program, attaches one event set to it with inherited counters (every thread
 * and child process it creates counts into it), lets it exec, waits for it (sampling with
 * --interval), prints a banner like perf stat on stderr and writes the region file
 * DIR/papi_run_output/rank_XXXXXX.json. It leaves with the program's exit status (128+N
 * when signal N killed it). The parts: run_options.c (command line, events), run_program.c
 * (the program's file, its environment), run_child.c (fork, signals, wait, samples),
 * run_series.c, run_threads.c (--per-thread rows), run_banner.c, run_report.c. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include "run.h"
#include "run_threads.h"
#include "util_common.h"

static void open_output(struct run_state *s)
{
    char why[512];
    if (snprintf(s->dir, sizeof s->dir, "%s/papi_run_output", s->opt.outdir) >=
        (int)sizeof s->dir) {
        fprintf(stderr, "papi_run: -o %.40s...: name too long\n", s->opt.outdir);
        exit(2);
    }
    s->dirfd = output_dir_open(s->dir, 1, why, sizeof why);
    if (s->dirfd < 0 || faccessat(s->dirfd, ".", W_OK, AT_EACCESS) != 0) {
        fprintf(stderr, "papi_run: -o %s: %s\n", s->opt.outdir,
                s->dirfd < 0 ? why : "the directory cannot be written");
        exit(2);
    }
    snprintf(s->threads_file, sizeof s->threads_file, "%s/.papi_run_threads.%ld", s->dir,
             (long)getpid());
}

int main(int argc, char **argv)
{
    static struct run_state state;
    struct run_state *s = &state;
    run_parse_options(argc, argv, &s->opt);
    if (!util_init("papi_run"))
        return 2;
    run_choose_events(&s->opt);
    open_output(s);
    s->sample_step_ns = (long long)(s->opt.interval * 1e9);
    int ret = run_child_fork(s);
    if (ret != 0)
        return ret;
    run_add_events(s);
    ret = run_child_go(s);
    if (ret != 0)
        return ret;
    run_child_wait(s);
    struct run_threads *t =
        s->opt.per_thread && !s->note[0] ? run_threads_read(s->threads_file, s->opt.nevents) : NULL;
    unlink(s->threads_file);
    run_banner(s);
    run_write_file(s, t);
    free(t);
    free(s->samples);
    close(s->dirfd);
    return run_exit_status(s);
}
