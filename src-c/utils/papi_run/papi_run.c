/* papi_run: counts a whole program, unchanged. Every thread and every child process it
 * forks count into inherited counters attached to it before it starts; papi_run prints a
 * banner like perf stat's on stderr, writes the region file
 * DIR/papi_run_output/rank_XXXXXX.json and leaves with the program's exit status. (Its
 * parts: run_options.c, run_program.c, run_child.c, run_threads.c,
 * run_banner.c, run_report.c.) */
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
    snprintf(s->note, sizeof s->note, "%.500s", s->opt.domain_note);
    open_output(s);
    if (s->opt.interval > 0 &&
        cs_init(&s->series, RUN_MAX_SAMPLES, s->opt.nevents, s->opt.interval) != 0) {
        fprintf(stderr, "papi_run: out of memory for the time series\n");
        s->opt.interval = 0;
    }
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
    cs_free(&s->series);
    close(s->dirfd);
    return run_exit_status(s);
}
