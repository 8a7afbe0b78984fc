/* partial_rows.c: when a rank never reaches MPI_Finalize (MPI_Abort, a fatal signal,
 * exit() without finalize), whatever exit path still runs writes the rank's own row to
 * <dir>/papi_mpi_rank<N>.partial.json with "finished": false and the reason. Plain
 * POSIX I/O: MPI may be unusable by then. A rank killed by SIGKILL runs no exit path:
 * with PAPI_MPI_CHECKPOINT=<seconds> a thread writes papi_mpi_rank<N>.checkpoint.json
 * that often; a separate name, so a checkpoint can never replace a dying rank's exit
 * row (papi_mpi_collect prefers the exit row).
 *
 * Signal handlers neither allocate nor lock: the row is formatted into a static buffer
 * (counters left out: PAPI_read is not async-signal-safe) and written with write(2).
 * Handlers are chained: SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT get ours whatever
 * was installed (UCX installs its own in MPI_Init) and ours then calls that one; the
 * termination signals get ours only where the default action was in place. The
 * handlers we replaced are put back once MPI_Finalize wrote the report, and when the
 * library is unloaded (dlclose: ours would then point into unmapped code). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "output_file.h"
#include "clock.h"
#include "event_log_file.h"
#include "own_threads.h"
#include "partial_rows.h"
#include "row.h"
#include "pmpi_identity.h"
#include "state.h"
#include "text_buffer.h"
#include "trace_export.h"

#define ROW_TEXT_CAP (1024 * 1024) /* as a finished row: a series of 512 samples fits */

struct handled {
    int sig;
    int always; /* chain to any handler; otherwise only replace the default action */
};
static const struct handled handled[] = {
    {SIGSEGV, 1}, {SIGBUS, 1}, {SIGFPE, 1}, {SIGILL, 1}, {SIGABRT, 1}, {SIGTERM, 0},
    {SIGINT, 0},  {SIGHUP, 0}, {SIGQUIT, 0}, {SIGUSR1, 0}, {SIGUSR2, 0}};
#define NHANDLED (sizeof handled / sizeof handled[0])
static struct sigaction old_actions[NHANDLED];
static int ours[NHANDLED]; /* our handler was installed for handled[i] */

/* Checkpoint thread: woken early (and joined) by MPI_Finalize, or by the library's
 * unload (own_threads.c). */
static pthread_t ckpt_thread;
static pid_t ckpt_pid; /* the process that started it (not a fork's child) */
static int ckpt_running, ckpt_stop;
static pthread_mutex_t ckpt_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ckpt_cond = PTHREAD_COND_INITIALIZER;
static long long ckpt_period_ns;
static _Atomic int ckpt_written; /* this rank published a checkpoint: remove it at the end */

static void say(const char *a, const char *b, const char *c)
{
    /* write(2) only: may run in a signal handler */
    const char *parts[4] = {"papi_mpi: ", a, b, c};
    for (int i = 0; i < 4; i++)
        if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0)
            return;
    if (write(2, "\n", 1) < 0)
        return;
}

static void fd_path(char *buf, int fd)
{
    /* "/proc/self/fd/<fd>" without stdio */
    struct tbuf t;
    tb_init(&t, buf, 40);
    tb_raw(&t, "/proc/self/fd/");
    tb_int(&t, fd);
}

/* Where the file system has no O_TMPFILE (or no /proc to link one by): a named
 * O_EXCL|O_NOFOLLOW temporary (output_file), renamed over the final name. A rank killed
 * between write and rename leaves it: its next start with checkpoints on removes it. */
static int publish_named(int dir, const char *name, const char *text, size_t len)
{
    char tmp[128];
    int fd = output_file_create(dir, name, tmp, sizeof tmp);
    if (fd < 0)
        return -1;
    int bad = output_file_write(fd, text, len);
    if (close(fd) != 0)
        bad = -1;
    if (bad) {
        output_file_discard(dir, tmp);
        return -1;
    }
    return output_file_publish(dir, tmp, name);
}

/* The output directory as an absolute name (the cwd of MPI_Init in front of a relative
 * one), for a rank other than 0 to open when it first writes a row of its own. */
static char outdir_abs[PATH_MAX];

/* The output directory's descriptor, or -1. Rank 0 opened it at MPI_Init (it writes the
 * report there); another rank opens it the first time it writes a row (an exit row, a
 * checkpoint): a run whose ranks reach MPI_Finalize makes no metadata operation but rank
 * 0's. Another user's directory is refused, as output_dir_open does (rank 0 said so).
 * Async-signal-safe (open, fstat); two threads racing keep one descriptor. */
static int outdir(void)
{
    int fd = pmpi_outdir_fd();
    if (fd >= 0 || !outdir_abs[0])
        return fd;
    struct stat st;
    fd = open(outdir_abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_uid != geteuid())) {
        close(fd);
        return -1;
    }
    if (fd < 0)
        return -1;
    int kept = pmpi_outdir_fd_publish(fd);
    if (kept != fd)
        close(fd);
    return kept;
}

/* Gives the unnamed file fd the name `name` in dir (linkat never replaces: EEXIST). */
static int link_unnamed(int fd, int dir, const char *name)
{
    char proc[40];
    fd_path(proc, fd);
    return linkat(AT_FDCWD, proc, dir, name, AT_SYMLINK_FOLLOW);
}

/* Writes text to a new file published as name in the output directory; 0 or -1.
 * The row is written whole into an unnamed file (O_TMPFILE), then linked under its final
 * name: it never has a temporary name, so a SIGKILL at any instant (Open MPI's launcher
 * sends one after its SIGTERM) leaves whole rows only, never a temporary. linkat cannot
 * replace, so the row under that name goes first: a checkpoint moves the one before it to
 * `prev` (renameat, atomic: a SIGKILL between the two steps leaves that snapshot there,
 * and papi_mpi_collect reads it); an exit row, written once per run, removes the row an
 * earlier run left. Async-signal-safe. */
static int publish_file(const char *name, const char *prev, const char *text, size_t len)
{
    int dir = outdir();
    if (dir < 0)
        return -1;
    int fd = openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0)
        return publish_named(dir, name, text, len);
    if (output_file_write(fd, text, len) != 0) {
        close(fd); /* an unnamed file: nothing to remove */
        return -1;
    }
    if (prev)
        renameat(dir, name, dir, prev); /* ENOENT: the first checkpoint */
    int rc = link_unnamed(fd, dir, name);
    if (rc != 0 && errno == EEXIST && unlinkat(dir, name, 0) == 0)
        rc = link_unnamed(fd, dir, name);
    int linked = rc == 0, err = errno;
    close(fd);
    if (linked)
        return 0;
    if (err == EEXIST)
        return -1;
    return publish_named(dir, name, text, len); /* no /proc, or linkat refused */
}

static int write_row(const char *name, const char *reason, int mode)
{
    static char text[2][ROW_TEXT_CAP]; /* [0] exit paths, [1] the checkpoint thread */
    static struct pmpi_row rows[2];    /* static: no allocation on a dying path */
    int slot = reason ? 0 : 1;
    struct tbuf t;
    /* An exit row ends when its exit path ran; a checkpoint or a signal's row now. */
    long long end = mode == PMPI_ROW_EXIT ? pmpi_fault.t_end : 0;
    long long end_tick = mode == PMPI_ROW_EXIT ? pmpi_fault.tick_end : 0;
    pmpi_collect_row(&rows[slot], 0, reason ? reason : "checkpoint", mode, end, end_tick);
    tb_init(&t, text[slot], sizeof text[slot]);
    pmpi_row_json(&rows[slot], &t);
    tb_raw(&t, "\n");
    if (t.cut) {
        say("row too long for its buffer, not written: ", name, NULL);
        return -1;
    }
    if (publish_file(name, reason ? NULL : pmpi_fault.checkpoint_prev_name, t.s, t.len) != 0) {
        say("could not write ", name, " (write error or full disk): no row left");
        return -1;
    }
    return 0;
}

static void partial_write(const char *reason, int mode)
{
    int st = atomic_load(&pmpi_rec.state);
    if ((st != PMPI_ACTIVE && st != PMPI_PAUSED) || atomic_exchange(&pmpi_fault.written, 1))
        return;
    if (mode != PMPI_ROW_SIGNAL) {
        pmpi_fault.t_end = pmpi_now_ns();
        pmpi_fault.tick_end = pmpi_ticks();
    }
    write_row(pmpi_fault.partial_name, reason, mode);
    /* the event log up to now, beside it */
    pmpi_log_file_append(outdir(), reason, 1, mode == PMPI_ROW_SIGNAL);
}

void pmpi_partial_write(const char *reason)
{
    partial_write(reason, PMPI_ROW_EXIT);
}

static void *checkpoint_loop(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&ckpt_mutex);
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        long long ns = ts.tv_nsec + ckpt_period_ns % 1000000000LL;
        ts.tv_sec += (time_t)(ckpt_period_ns / 1000000000LL + ns / 1000000000LL);
        ts.tv_nsec = ns % 1000000000LL;
        while (!ckpt_stop && pthread_cond_timedwait(&ckpt_cond, &ckpt_mutex, &ts) == 0)
            ;
        int st = atomic_load(&pmpi_rec.state);
        if (ckpt_stop || st == PMPI_DONE || atomic_load(&pmpi_fault.written))
            break;
        /* Started inside MPI_Init, before the state turns active: a period shorter than
         * the rest of MPI_Init (1 ms on a loaded node) must wait, not end the thread. */
        if (st == PMPI_OFF)
            continue;
        pthread_mutex_unlock(&ckpt_mutex);
        if (write_row(pmpi_fault.checkpoint_name, NULL, PMPI_ROW_NORMAL) == 0)
            atomic_store(&ckpt_written, 1);
        pmpi_log_file_append(outdir(), "checkpoint", 0, 0);
        pmpi_trace_checkpoint(); /* PAPI_MPI_TRACE=otf2: this rank's archive up to it */
        pthread_mutex_lock(&ckpt_mutex);
    }
    pthread_mutex_unlock(&ckpt_mutex);
    return NULL;
}

/* PAPI_MPI_CHECKPOINT=<seconds>, parsed whole: a finite number. 0 (or unset) is off; below
 * 1 ms it is 1 ms; above one day it is one day (1e10 or inf overflowed the nanoseconds and
 * the thread rewrote its file without pause). Garbage, inf, nan and negatives are refused
 * with a message: no checkpoints. Returns the period in ns, 0 for none. */
#define CKPT_MAX_SECONDS 86400.0
static long long checkpoint_period_ns(const char *env)
{
    if (!env || !*env)
        return 0;
    char *end = NULL;
    errno = 0;
    double s = strtod(env, &end);
    if (end == env || *end || !isfinite(s) || s < 0) {
        fprintf(stderr, "papi_mpi: PAPI_MPI_CHECKPOINT=%s is not a number of seconds from 0 to "
                        "%.0f: no checkpoints\n", env, CKPT_MAX_SECONDS);
        return 0;
    }
    if (s == 0)
        return 0;
    if (s > CKPT_MAX_SECONDS) {
        fprintf(stderr, "papi_mpi: PAPI_MPI_CHECKPOINT=%s is longer than a day: one checkpoint "
                        "every %.0f s\n", env, CKPT_MAX_SECONDS);
        s = CKPT_MAX_SECONDS;
    }
    return s < 0.001 ? 1000000LL : (long long)(s * 1e9);
}

/* Where rows are written under a temporary name (no O_TMPFILE: output_file's
 * ".NAME.XXXXXX"; earlier versions of this library also linked ".NAME.<pid>.<n>"), a
 * rank killed between write and rename leaves it: this rank's next start removes them. */
static void remove_stale_temporaries(int dirfd)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    const char *names[] = {pmpi_fault.partial_name, pmpi_fault.checkpoint_name};
    for (struct dirent *e; (e = readdir(d));)
        for (int i = 0; i < 2; i++) {
            size_t n = strlen(names[i]);
            if (e->d_name[0] == '.' && strncmp(e->d_name + 1, names[i], n) == 0 &&
                e->d_name[n + 1] == '.')
                unlinkat(dirfd, e->d_name, 0);
        }
    closedir(d);
}

/* Start the snapshot thread (fatal signals blocked in it, so the handlers run on the
 * program's threads). */
static void checkpoint_start(void)
{
    ckpt_period_ns = checkpoint_period_ns(env_get("PAPI_MPI_CHECKPOINT"));
    if (ckpt_period_ns <= 0)
        return;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ckpt_pid = getpid();
    if (pthread_create(&ckpt_thread, NULL, checkpoint_loop, NULL) == 0)
        ckpt_running = 1;
    else
        fprintf(stderr, "papi_mpi: no checkpoint thread (PAPI_MPI_CHECKPOINT ignored)\n");
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The checkpoint thread woken and joined (a fork's child has none: its mutex may be
 * the parent thread's, left locked). */
static void checkpoint_stop(void)
{
    if (!ckpt_running)
        return;
    if (pmpi_own_thread_here(ckpt_pid)) {
        pthread_mutex_lock(&ckpt_mutex);
        ckpt_stop = 1;
        pthread_cond_signal(&ckpt_cond);
        pthread_mutex_unlock(&ckpt_mutex);
        if (pmpi_own_thread_join(ckpt_thread, ckpt_pid, "checkpoint") != 0)
            return; /* still running (said) */
    }
    ckpt_running = 0;
}

/* MPI_Finalize reached: stop the checkpoint thread, then no snapshot of this run may
 * remain. Only a file this rank wrote is removed: without checkpoints a finishing rank
 * makes no metadata operation in the shared directory (no partial row exists: exit
 * rows are written only when MPI_Finalize is not reached). */
void pmpi_partial_finished(void)
{
    checkpoint_stop();
    int dir = atomic_load(&ckpt_written) ? outdir() : -1; /* opened: a checkpoint was written */
    if (dir >= 0) {
        unlinkat(dir, pmpi_fault.checkpoint_name, 0);
        unlinkat(dir, pmpi_fault.checkpoint_prev_name, 0);
    }
    pmpi_log_file_finished(outdir);
}

static void at_exit(void)
{
    partial_write("exit without MPI_Finalize", PMPI_ROW_EXIT);
}

static void chain(size_t i, int sig, siginfo_t *info, void *ctx)
{
    const struct sigaction *old = &old_actions[i];
    if (old->sa_flags & SA_SIGINFO) {
        old->sa_sigaction(sig, info, ctx);
    } else if (old->sa_handler == SIG_DFL) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig); /* pending until we return: then the default action */
    } else if (old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    }
}

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    static char reasons[NHANDLED][16];
    int saved = errno;
    for (size_t i = 0; i < NHANDLED; i++) {
        if (handled[i].sig != sig)
            continue;
        if (!reasons[i][0]) {
            struct tbuf t;
            tb_init(&t, reasons[i], sizeof reasons[i]);
            tb_raw(&t, "signal ");
            tb_int(&t, sig);
        }
        partial_write(reasons[i], PMPI_ROW_SIGNAL);
        chain(i, sig, info, ctx);
        break;
    }
    errno = saved;
}

/* Our handlers out, the ones we replaced back (MPI_Finalize, and when the library is
 * unloaded: a handler left behind would point into unmapped code). A signal whose
 * handler someone installed after ours keeps theirs. */
void pmpi_partial_uninstall(void)
{
    for (size_t i = 0; i < NHANDLED; i++) {
        struct sigaction now;
        if (!ours[i] || sigaction(handled[i].sig, NULL, &now) != 0)
            continue;
        if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_signal)
            sigaction(handled[i].sig, &old_actions[i], NULL);
        ours[i] = 0;
    }
}

/* Unloaded (dlclose) or exiting without MPI_Finalize: the checkpoint thread must not
 * outlive the library's code. */
__attribute__((destructor)) static void partial_unload(void)
{
    checkpoint_stop();
    pmpi_partial_uninstall();
}

void pmpi_partial_install(void)
{
    static int installed;
    if (installed++)
        return;
    snprintf(pmpi_fault.partial_name, sizeof pmpi_fault.partial_name,
             "papi_mpi_rank%d.partial.json", pmpi_id()->rank);
    snprintf(pmpi_fault.checkpoint_name, sizeof pmpi_fault.checkpoint_name,
             "papi_mpi_rank%d.checkpoint.json", pmpi_id()->rank);
    snprintf(pmpi_fault.checkpoint_prev_name, sizeof pmpi_fault.checkpoint_prev_name,
             "papi_mpi_rank%d.checkpoint.prev.json", pmpi_id()->rank);
    if (pmpi_id()->rank != 0 && pmpi_id()->outdir[0]) {
        char cwd[PATH_MAX];
        size_t c = 0, d = strlen(pmpi_id()->outdir);
        if (pmpi_id()->outdir[0] == '/') {
            memcpy(outdir_abs, pmpi_id()->outdir, d + 1);
        } else if (getcwd(cwd, sizeof cwd) && (c = strlen(cwd)) + 1 + d < sizeof outdir_abs) {
            memcpy(outdir_abs, cwd, c);
            outdir_abs[c] = '/';
            memcpy(outdir_abs + c + 1, pmpi_id()->outdir, d + 1);
        } else { /* no absolute name: the directory opened now, as before */
            snprintf(outdir_abs, sizeof outdir_abs, "%s", pmpi_id()->outdir);
            outdir();
        }
    }
    if (pmpi_outdir_fd() < 0 && !outdir_abs[0])
        return; /* nowhere to write: said at MPI_Init */
    /* Rows an earlier run left in this directory are not removed here (that would be
     * one metadata operation per rank on the shared file system): every row carries
     * its run_id, a new row replaces an old one by rename, and papi_mpi_collect counts
     * only the newest run's files. */
    atexit(at_exit);
    checkpoint_start();
    /* Only a rank whose user asked for checkpoints (PAPI_MPI_CHECKPOINT set, even to a
     * refused value) looks for the temporaries a SIGKILL left of its own rows: a default
     * run does no metadata operation here. */
    const char *ckpt = env_get("PAPI_MPI_CHECKPOINT");
    int dir = ckpt && *ckpt ? outdir() : -1;
    if (dir >= 0)
        remove_stale_temporaries(dir);
    for (size_t i = 0; i < NHANDLED; i++) {
        struct sigaction sa, old;
        if (sigaction(handled[i].sig, NULL, &old) != 0)
            continue;
        if (old.sa_handler == SIG_IGN && !(old.sa_flags & SA_SIGINFO))
            continue; /* the program chose to ignore it: keep that */
        int is_default = !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL;
        if (!is_default && !handled[i].always)
            continue; /* the program handles it: do not step in */
        old_actions[i] = old;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        ours[i] = sigaction(handled[i].sig, &sa, NULL) == 0;
    }
}
