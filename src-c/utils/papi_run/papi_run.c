/* papi_run: counts a whole program, unchanged. Every thread and every child process it
 * forks count into inherited counters attached to it before it starts; papi_run prints a
 * banner like perf stat's on stderr, writes the region file
 * DIR/papi_run_output/rank_XXXXXX-RUNID.json and leaves with the program's exit status.
 * (Its parts: run_options.c, run_output.c, run_program.c, run_child.c, run_threads.c,
 * run_banner.c, run_report.c.) */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output_file.h"
#include "run.h"
#include "run_banner.h"
#include "run_child.h"
#include "run_merge_dir.h"
#include "run_omp_live.h"
#include "run_openmp.h"
#include "run_options.h"
#include "run_output.h"
#include "run_report.h"
#include "run_sample_merge.h"
#include "run_sample_opts.h"
#include "run_sets.h"
#include "run_threads.h"
#include "run_trace.h"
#include "util_common.h"

/* The run's id (the launcher's job, else host, pid and start), command, start and host;
 * the program gets the id as PAPI_RUN_ID, so its own region files name this run. */
static void identify(struct run_state *s)
{
    struct run_identity *r = &s->run;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    run_id_make(r->id, sizeof r->id, 0, getpid(), now.tv_sec, now.tv_nsec);
    run_time_utc(now.tv_sec, r->start, sizeof r->start);
    if (gethostname(r->host, sizeof r->host - 1) != 0)
        r->host[0] = 0;
    for (char **a = s->opt.argv; *a; a++) {
        size_t n = strlen(r->command);
        snprintf(r->command + n, sizeof r->command - n, "%s%s", n ? " " : "", *a);
    }
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    r->cpu = hw ? hw->model_string : "";
    r->version = PAPI_compat_version();
    setenv("PAPI_RUN_ID", r->id, 1);
}

int main(int argc, char **argv)
{
    static struct run_state state;
    struct run_state *s = &state;
    run_parse_options(argc, argv, &s->opt);
    if (s->opt.merge_dir) /* (the merge needs no counter: no PAPI) */
        return run_merge_dir(s);
    if (!util_init("papi_run"))
        return 2;
    run_choose_events(&s->opt);
    snprintf(s->note, sizeof s->note, "%.500s", s->opt.domain_note);
    identify(s);
    run_open_output(s);
    run_trace_check(s);
    if (s->opt.interval > 0 &&
        cs_init(&s->series, RUN_MAX_SAMPLES, s->opt.nevents + RUN_OMP_LIVE_COLUMNS,
                s->opt.interval) != 0) {
        fprintf(stderr, "papi_run: out of memory for the time series\n");
        s->opt.interval = 0;
    }
    if (s->opt.sampling)
        run_sample_setup(s);
    int ret = run_child_fork(s);
    if (ret != 0)
        return ret;
    run_add_events(s);
    ret = run_child_go(s);
    if (ret != 0)
        return ret;
    run_child_wait(s);
    int ncpu = 0; /* the per-thread rows hold the CPU component's events */
    for (int i = 0; i < s->opt.nevents; i++)
        ncpu += s->opt.cidx[i] == 0;
    /* (no file where the per-thread library was not preloaded: a note says why) */
    struct run_threads *t = s->opt.per_thread ? run_threads_read(s->threads_file, ncpu) : NULL;
    run_spread_rows(s, t);
    unlink(s->threads_file);
    run_openmp_collect(s);
    int unsampled = s->opt.sampling && run_sample_merge(s) != 0;
    run_banner(s);
    /* (after the program's exec, which kept SIGXFSZ's default: a file-size limit then
     * fails papi_run's write, said, rather than killing papi_run) */
    signal(SIGXFSZ, SIG_IGN);
    int unwritten = run_write_file(s, t);
    run_trace_write(s);
    free(t);
    run_openmp_free(s);
    cs_free(&s->series);
    close(s->dirfd);
    /* A report that could not be written shows in the status: the program's when it
     * failed, else 1 (the line above said why). */
    int status = run_exit_status(s);
    return (unwritten || unsampled) && status == 0 ? 1 : status;
}
