/* run_child.c: the program papi_run measures. It is forked and held before exec until
 * its counters run (event sets attached to it, the CPU events' inherited by every thread
 * and process it creates), then waited for: signals papi_run receives go to it, and with --interval the
 * counts are read every interval by this thread (a sample costs one read, no signal). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "run_child.h"
#include "run_omp_live.h"
#include "run_program.h"
#include "run_sets.h"

static int go_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
static volatile sig_atomic_t child_pid;

long long run_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void forward(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static void forward_signals(void)
{
    static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1,
                               SIGUSR2, SIGALRM, SIGCONT, SIGWINCH};
    struct sigaction sa = {0};
    sa.sa_handler = forward;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* In the child: wait for the go byte, then exec; tell the parent errno on failure. */
static _Noreturn void child_main(struct run_state *s)
{
    char go;
    close(go_pipe[1]);
    close(err_pipe[0]);
    if (read(go_pipe[0], &go, 1) != 1)
        _exit(127); /* papi_run went away before the counters ran */
    close(go_pipe[0]);
    execvp(s->opt.argv[0], s->opt.argv);
    int e = errno;
    if (write(err_pipe[1], &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

int run_child_fork(struct run_state *s)
{
    if (pipe2(go_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
        perror("papi_run: pipe");
        return 2;
    }
    int ret = run_program_prepare(s);
    if (ret != 0)
        return ret;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("papi_run: fork");
        return 2;
    }
    if (pid == 0)
        child_main(s);
    s->child = pid;
    child_pid = pid;
    close(go_pipe[0]);
    close(err_pipe[1]);
    forward_signals();
    return 0;
}

int run_child_go(struct run_state *s)
{
    int e = 0;
    s->start_ns = run_now_ns();
    if (write(go_pipe[1], "g", 1) != 1)
        return 127;
    close(go_pipe[1]);
    ssize_t n;
    while ((n = read(err_pipe[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(err_pipe[0]);
    if (n != (ssize_t)sizeof e)
        return 0; /* the exec succeeded: the pipe closed with it */
    waitpid(s->child, NULL, 0);
    fprintf(stderr, "papi_run: %s: %s (%s)\n", s->opt.argv[0], strerror(e),
            e == ENOENT ? "not found" : "cannot be executed");
    return e == ENOENT ? 127 : 126; /* as a shell: ENOTDIR is 126 too */
}

/* Whether the program has ended (left unreaped: its counts are final once it is a
 * zombie, and reading them needs no live task). */
static int ended(struct run_state *s, int block)
{
    siginfo_t si;
    for (;;) {
        memset(&si, 0, sizeof si);
        int r = waitid(P_PID, (id_t)s->child, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
        if (r == 0)
            return si.si_pid == s->child;
        if (errno != EINTR)
            return 1;
    }
}

/* A sample every series step (from the start): the step doubles when the series merges,
 * so the samples stay one step apart and interval_s says what they are. The ticks that
 * passed while papi_run could not run (stopped, not scheduled) are skipped, counted, not
 * taken back to back after it (samples an instant apart say nothing of the time). */
static void sample_loop(struct run_state *s)
{
    long long next = s->start_ns;
    long long v[RUN_MAX_EVENTS + RUN_OMP_LIVE_COLUMNS];
    for (;;) {
        next += s->series.step_ns;
        struct timespec ts = {next / 1000000000LL, next % 1000000000LL};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            if (ended(s, 0))
                return;
        if (ended(s, 0))
            return;
        long long step = s->series.step_ns;
        if (run_read(s, v) == PAPI_OK) {
            run_omp_live_columns(s, v + s->opt.nevents);
            cs_add(&s->series, run_now_ns() - s->start_ns, v);
        }
        if (s->series.step_ns != step) /* merged: the ticks skipped so far, at the new step */
            s->skipped = s->skipped * step / s->series.step_ns;
        long long late = run_now_ns() - next;
        if (late >= s->series.step_ns) {
            s->skipped += late / s->series.step_ns;
            next += late / s->series.step_ns * s->series.step_ns;
        }
    }
}

void run_child_wait(struct run_state *s)
{
    if (s->opt.interval > 0)
        sample_loop(s);
    else
        ended(s, 1);
    s->end_ns = run_now_ns();
    int ret = run_read(s, s->value);
    if (ret != PAPI_OK)
        fprintf(stderr, "papi_run: reading the counters: %s\n", PAPI_strerror(ret));
    if (s->multiplexed && (ret != PAPI_OK || run_fractions(s, s->fraction) != PAPI_OK))
        for (int i = 0; i < s->opt.nevents; i++)
            s->fraction[i] = NAN; /* unknown: the banner says so */
    if (s->opt.interval > 0) {    /* the last sample: the counts and the tool's final sums */
        long long v[RUN_MAX_EVENTS + RUN_OMP_LIVE_COLUMNS];
        memcpy(v, s->value, (size_t)s->opt.nevents * sizeof *v);
        run_omp_live_columns(s, v + s->opt.nevents);
        cs_add(&s->series, s->end_ns - s->start_ns, v);
    }
    while (waitpid(s->child, &s->status, 0) < 0 && errno == EINTR)
        ;
    child_pid = 0;
    s->exited = 1;
    run_stop(s);
}

int run_exit_status(const struct run_state *s)
{
    if (WIFSIGNALED(s->status))
        return 128 + WTERMSIG(s->status);
    return WEXITSTATUS(s->status);
}
