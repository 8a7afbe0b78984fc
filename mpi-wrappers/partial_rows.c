/* partial_rows.c: when a rank never reaches MPI_Finalize (MPI_Abort, a fatal signal,
 * exit() without finalize), whatever exit path still runs writes the rank's own row to
 * <dir>/papi_mpi_rank<N>.partial.json with "finished": false and the reason. Plain
 * POSIX I/O: MPI may be unusable by then. A rank killed by SIGKILL runs no exit path:
 * with PAPI_MPI_CHECKPOINT=<seconds> a thread rewrites the same file that often
 * (reason "checkpoint"), so such a rank leaves its last snapshot. Files are replaced
 * by rename(), so a reader never sees half a row. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi_mpi_internal.h"

static const int fatal_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE,
                                    SIGABRT, SIGUSR1, SIGUSR2};
#define NSIG_HANDLED (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction old_actions[NSIG_HANDLED];
static _Atomic int written;
static char reason_buf[32];
static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER; /* checkpoint vs finalize */

static void row_path(char *path, size_t len, const char *suffix)
{
    snprintf(path, len, "%s/papi_mpi_rank%d.partial.json%s", pmpi_g.outdir, pmpi_g.rank, suffix);
}

/* Write the row to a temporary file, then rename it over the partial row file. */
static void write_row_file(struct pmpi_row *row, const char *tmp_suffix)
{
    size_t len = 0;
    char *text = pmpi_row_json(row, &len);
    char path[600], tmp[640];
    row_path(path, sizeof path, "");
    row_path(tmp, sizeof tmp, tmp_suffix);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0 && text) {
        const char *p = text;
        while (len > 0) {
            ssize_t w = write(fd, p, len);
            if (w <= 0)
                break;
            p += w;
            len -= (size_t)w;
        }
        if (write(fd, "\n", 1) != 1)
            len = 1;
    }
    if (fd >= 0) {
        close(fd);
        if (rename(tmp, path) != 0)
            unlink(tmp);
    }
    free(text);
}

void pmpi_partial_write(const char *reason)
{
    int st = atomic_load(&pmpi_g.state);
    if ((st != PMPI_ACTIVE && st != PMPI_PAUSED) || atomic_exchange(&written, 1))
        return;
    static struct pmpi_row row; /* static: no allocation on a dying path */
    pmpi_g.t_final = pmpi_now_ns();
    pmpi_g.tick_final = pmpi_ticks();
    pmpi_collect_row(&row, 0, reason);
    write_row_file(&row, ".exit");
}

static void *checkpoint_loop(void *arg)
{
    long long period_ns = *(const long long *)arg;
    static struct pmpi_row row;
    struct timespec ts = {period_ns / 1000000000LL, period_ns % 1000000000LL};
    for (;;) {
        while (nanosleep(&ts, NULL) != 0 && errno == EINTR)
            ;
        pthread_mutex_lock(&file_lock);
        int st = atomic_load(&pmpi_g.state);
        int stop = (st != PMPI_ACTIVE && st != PMPI_PAUSED) || atomic_load(&written);
        if (!stop) {
            pmpi_collect_row(&row, 0, "checkpoint");
            write_row_file(&row, ".ckpt");
        }
        pthread_mutex_unlock(&file_lock);
        if (stop)
            return NULL;
    }
}

/* PAPI_MPI_CHECKPOINT=<seconds>: start the snapshot thread (fatal signals blocked in
 * it, so the handlers run on the program's threads). */
static void checkpoint_start(void)
{
    static long long period_ns;
    const char *env = getenv("PAPI_MPI_CHECKPOINT");
    double s = env ? atof(env) : 0;
    if (s <= 0)
        return;
    period_ns = s < 0.001 ? 1000000LL : (long long)(s * 1e9);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    if (pthread_create(&t, NULL, checkpoint_loop, &period_ns) == 0)
        pthread_detach(t);
    else
        fprintf(stderr, "papi_mpi: no checkpoint thread (PAPI_MPI_CHECKPOINT ignored)\n");
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* MPI_Finalize reached: the final report holds this rank, an old snapshot must go. */
void pmpi_partial_finished(void)
{
    char path[600];
    pthread_mutex_lock(&file_lock);
    row_path(path, sizeof path, "");
    unlink(path);
    pthread_mutex_unlock(&file_lock);
}

static void at_exit(void)
{
    pmpi_partial_write("exit without MPI_Finalize");
}

/* Best effort: formatting is not async-signal-safe, but the process is dying anyway
 * and the row is worth more than the risk. Then the signal does what it did before. */
static void on_signal(int sig)
{
    snprintf(reason_buf, sizeof reason_buf, "signal %d", sig);
    pmpi_partial_write(reason_buf);
    for (size_t i = 0; i < NSIG_HANDLED; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &old_actions[i], NULL);
    raise(sig);
}

void pmpi_partial_install(void)
{
    static int installed;
    if (installed++)
        return;
    atexit(at_exit);
    checkpoint_start();
    for (size_t i = 0; i < NSIG_HANDLED; i++) {
        struct sigaction sa, old;
        if (sigaction(fatal_signals[i], NULL, &old) != 0)
            continue;
        old_actions[i] = old;
        if (old.sa_handler == SIG_IGN)
            continue; /* the program chose to ignore it: keep that */
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL)
            continue; /* the program (or MPI) handles it: do not step in */
        if (old.sa_flags & SA_SIGINFO)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
    }
}
