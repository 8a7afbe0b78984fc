/* partial_rows.c: when a rank never reaches MPI_Finalize (MPI_Abort, a fatal signal,
 * exit() without finalize), whatever exit path still runs writes the rank's own row to
 * <dir>/papi_mpi_rank<N>.partial.json with "finished": false and the reason. Plain
 * POSIX I/O: MPI may be unusable by then. */
#include <fcntl.h>
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

void pmpi_partial_write(const char *reason)
{
    int st = atomic_load(&pmpi_g.state);
    if ((st != PMPI_ACTIVE && st != PMPI_PAUSED) || atomic_exchange(&written, 1))
        return;
    static struct pmpi_row row; /* static: no allocation on a dying path */
    pmpi_g.t_final = pmpi_now_ns();
    pmpi_g.tick_final = pmpi_ticks();
    pmpi_collect_row(&row, 0, reason);
    size_t len = 0;
    char *text = pmpi_row_json(&row, &len);
    char path[600];
    snprintf(path, sizeof path, "%s/papi_mpi_rank%d.partial.json", pmpi_g.outdir, pmpi_g.rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
    if (fd >= 0)
        close(fd);
    free(text);
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
