/* lifecycle.c: the rank's lifetime (MPI_Init .. MPI_Finalize) and the hand-written
 * wrappers (Init, Init_thread, Finalize, Abort, Pcontrol). The top of the library: it
 * starts and ends each part below it (recording, counters, the fault path, the report)
 * and nothing below calls it. */
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "env_flag.h"
#include "aggregate.h"
#include "comm_translate.h"
#include "counters.h"
#include "gpu_row.h"
#include "lifecycle.h"
#include "mpi_sample.h"
#include "omp_hybrid.h"
#include "output_file.h"
#include "papi_hl_rank.h"
#include "partial_rows.h"
#include "rank_series.h"
#include "record.h"
#include "region_summary.h"
#include "regions.h"
#include "report_files.h"
#include "row.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "sample_report.h"
#include "socket_layout.h"
#include "state.h"
#include "trace_export.h"
#include "wait_states.h"
#include "event_log.h"
#include "finalize_agreement.h"

/* PAPI_MPI_OUTPUT_DIR: opened once (output_dir_open refuses other users' directories);
 * every file goes there by name relative to that descriptor. Rank 0 creates it (a mkdir
 * per component of the path) and writes the report there; another rank opens it only
 * when it writes a row of its own (partial_rows.c): no metadata operation per rank. */
static void env_outdir(void)
{
    struct pmpi_identity *id = pmpi_identity_init();
    const char *d = env_get("PAPI_MPI_OUTPUT_DIR");
    char why[PATH_MAX + 128];
    if (!d || !*d)
        d = ".";
    if (strlen(d) >= sizeof id->outdir) {
        if (id->rank == 0)
            fprintf(stderr,
                    "papi_mpi: PAPI_MPI_OUTPUT_DIR is %zu bytes, longer than the %zu "
                    "a path may have: no report or rows will be written\n",
                    strlen(d), sizeof id->outdir - 1);
        return;
    }
    snprintf(id->outdir, sizeof id->outdir, "%s", d);
    if (id->rank != 0)
        return; /* opened when this rank writes a row (partial_rows.c) */
    if (pmpi_outdir_fd_publish(output_dir_open(id->outdir, 1, why, sizeof why)) < 0)
        fprintf(stderr,
                "papi_mpi: PAPI_MPI_OUTPUT_DIR %s: %s: no report or rows will be "
                "written\n",
                id->outdir, why);
}

/* PAPI_MPI_CALLSITES: 1 (the default) or 0. */
static int env_callsites(void)
{
    return pmpi_env_flag("PAPI_MPI_CALLSITES", 1, pmpi_id()->rank, "call sites on");
}

/* PAPI_MPI_TOP: how many calls and call sites the banner shows (default 10; the
 * report lists them all). */
static int env_top(void)
{
    const char *v = env_get("PAPI_MPI_TOP");
    char *end = NULL;
    long n = v && *v ? strtol(v, &end, 10) : 10;
    if (v && *v && (*end || n < 0 || n > 1000000)) {
        if (pmpi_id()->rank == 0)
            fprintf(stderr, "papi_mpi: PAPI_MPI_TOP=%s: expected a number from 0; 10 shown\n", v);
        n = 10;
    }
    return (int)n;
}

/* The report's run header beside the id and start: this rank's host and the program's
 * arguments (cut at the buffer, whole arguments only). */
static void run_header(void)
{
    struct pmpi_identity *id = pmpi_identity_init();
    if (gethostname(id->host, sizeof id->host) != 0)
        id->host[0] = '\0';
    id->host[sizeof id->host - 1] = '\0';
    id->command_len = 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, id->command, sizeof id->command);
    close(fd);
    if (n <= 0)
        return;
    while (n > 0 && id->command[n - 1] != '\0') /* a cut argument is left out */
        n--;
    id->command_len = (int)n;
}

/* PAPI_RUN_ID when papi_run launched this rank (it sets it, and names its own files with
 * it: one launch, one id) and it is a run id (RUN_ID_CHARS, shorter than RUN_ID_LEN);
 * else time.nanoseconds-pid of now, which starts with the time so that a reader takes
 * the newest of two runs in one directory (papi_report's mpi_rows.run_time). */
static void make_run_id(char *buf, size_t len, const struct timespec *now)
{
    const char *v = env_get("PAPI_RUN_ID");
    size_t n = v ? strlen(v) : 0;
    if (n > 0 && n < len && strspn(v, RUN_ID_CHARS) == n) {
        memcpy(buf, v, n + 1);
        return;
    }
    snprintf(buf, len, "%lld.%09ld-%ld", (long long)now->tv_sec, now->tv_nsec, (long)getpid());
}

/* One id for the run, from rank 0 to all: every file of this run carries it, and rank 0
 * removes an earlier run's report so it cannot be taken for this one. */
static void start_run(void)
{
    struct pmpi_identity *id = pmpi_identity_init();
    /* rank 0's id and start, sent together: every rank takes rank 0's, whatever its
     * own environment says */
    char run[sizeof id->run_id + sizeof id->start_utc] = "";
    if (id->rank == 0) {
        struct timespec ts;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &ts);
        make_run_id(run, sizeof id->run_id, &ts);
        if (gmtime_r(&ts.tv_sec, &tm))
            strftime(run + sizeof id->run_id, sizeof id->start_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    PMPI_Bcast(run, (int)sizeof run, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(id->run_id, sizeof id->run_id, "%s", run);
    snprintf(id->start_utc, sizeof id->start_utc, "%s", run + sizeof id->run_id);
    run_header();
    if (id->rank == 0 && pmpi_outdir_fd() >= 0) {
        unlinkat(pmpi_outdir_fd(), "papi_mpi_report.json", 0);
        unlinkat(pmpi_outdir_fd(), "papi_mpi_ranks.csv", 0);
        unlinkat(pmpi_outdir_fd(), "papi_mpi_summary.csv", 0);
    }
}

/* A thread's slot: its counters and (PAPI_SAMPLE) its sampling start and end. */
static void thread_start(int slot)
{
    pmpi_counters_thread_start(slot);
    pmpi_sample_thread_start(slot);
}

static void thread_exit(int slot)
{
    pmpi_sample_thread_exit(slot);
    pmpi_counters_thread_exit(slot);
}

void pmpi_after_init(void)
{
    struct pmpi_identity *id = pmpi_identity_init();
    int expected = PMPI_OFF;
    if (atomic_load(&pmpi_rec.state) != PMPI_OFF)
        return;
    pmpi_omp_tool_work(1); /* this set-up is the measurement's, not the program's */
    PMPI_Comm_rank(MPI_COMM_WORLD, &id->rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &id->nranks);
    env_outdir();
    int callsites = env_callsites();
    id->top = env_top();
    start_run();
    papi_hl_set_rank(id->rank); /* names the region API's per-rank report */
    pmpi_counters_init();
    pmpi_gpu_start();   /* CUPTI's GPU activity, where the program loaded CUDA */
    pmpi_sample_init(); /* PAPI_SAMPLE: before the slots, which start it per thread */
    pmpi_comm_translate_init();
    pmpi_log_init(id->rank);
    pmpi_own_comm_open();       /* the clock's and the finalize sequence's, no Comm_dup there */
    pmpi_waits_init(&pmpi_log); /* the log on every rank or none, the clock offsets */
    /* Threads in MPI at once only under MPI_THREAD_MULTIPLE: then the rank's time in MPI
     * is the union of theirs. Slot 0, the initialising thread, claimed and its counters
     * started. */
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    pmpi_record_start(callsites, level == MPI_THREAD_MULTIPLE, thread_start, thread_exit);
    id->t_init = pmpi_now_ns();
    id->tick_init = pmpi_ticks();
    pmpi_partial_install(); /* after t_init: the checkpoint thread reads it */
    pmpi_series_start();    /* PAPI_INTERVAL: the rank's time series */
    pmpi_omp_start();       /* the OMPT tool's sums so far: the report's are the run's */
    pmpi_omp_tool_work(0);
    atomic_compare_exchange_strong(&pmpi_rec.state, &expected, PMPI_ACTIVE);
}

/* The exit status of a process whose report was not published: sysexits.h's EX_IOERR. */
#define PMPI_EXIT_REPORT_FAILED 74

/* At exit: a status of 0 becomes PMPI_EXIT_REPORT_FAILED, so that mpirun fails too. exit
 * called again from a handler runs the handlers left (the program's, the libraries'
 * destructors, stdio's flush) and ends with its status (glibc). */
static void exit_report_failed(int status, void *arg)
{
    (void)arg;
    if (status == 0)
        exit(PMPI_EXIT_REPORT_FAILED);
}

/* The report was not published (full disk...): MPI_Finalize still returns the MPI's
 * own code (the program's MPI is not changed), the process's exit status tells. */
static void fail_exit_status(void)
{
    static int armed;
    Dl_info self;
    if (armed++)
        return;
    /* the handler's code must stay mapped, even if the program dlcloses this library */
    if (dladdr((void *)exit_report_failed, &self) && self.dli_fname)
        dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    on_exit(exit_report_failed, NULL);
}

int pmpi_before_finalize(void)
{
    int st = atomic_load(&pmpi_rec.state);
    if (st != PMPI_ACTIVE && st != PMPI_PAUSED)
        return 0;
    atomic_store(&pmpi_rec.state, PMPI_DONE);
    /* t_final: the row's counts, the series' last sample */
    struct pmpi_run_end end = pmpi_row_read_final();
    /* From here to pmpi_after_finalize the report, trace and files, and the MPI's
     * finalize, which waits for rank 0's: not the program's time (omp_hybrid.h). */
    pmpi_omp_tool_work(1);
    pmpi_series_stop();         /* its samples after t_final are left out (rank_series.c) */
    pmpi_sample_finish();       /* PAPI_SAMPLE: this thread stops, the tables are named */
    papi_hl_write_report();     /* region API report, if the program used regions */
    static struct pmpi_row row; /* static: every rank must reach the reduction */
    pmpi_partial_finished();    /* the checkpoint thread stops before the row is made */
    pmpi_collect_row(&row, 1, NULL, PMPI_ROW_NORMAL, end.t_final, end.tick_final);
    /* A socket's figure (memory bandwidth) is its reader's, on every rank of the socket. */
    const struct pmpi_events *ev = pmpi_ev();
    pmpi_socket_attribute(row.metric, row.metric_ok, ev->metric_socket, ev->nmetrics);
    pmpi_device_layout(row.counters_read); /* a node's GPU enters the job's totals once */
    pmpi_own_comm_open(); /* local now: MPI_COMM_WORLD's error handler onto the steps' */
    /* What rides in the wait states' agreement round, registered in this order on every
     * rank; each handle goes to the step that reads its agreed value. */
    struct pmpi_pull_agreed files_agreed = pmpi_report_files_prepare(); /* rank 0's pull */
    int regions_agreed = pmpi_region_summary_prepare(&row); /* whether any rank has a region */
    int trace_agreed = pmpi_trace_prepare();                /* whether rank 0 asks for a trace */
    struct pmpi_wait_result waits = pmpi_waits_compute(&pmpi_log, row.ns_per_tick);
    pmpi_log.on = 0;
    /* the waits' parts in its pull */
    int bad = pmpi_aggregate_and_report(&row, &waits, &files_agreed, regions_agreed);
    pmpi_socket_layout_free(); /* the regions' energy used its groups until here */
    /* PAPI_MPI_TRACE: after the report */
    pmpi_trace_export(&pmpi_log, row.ns_per_tick, bad, &waits, trace_agreed);
    if (bad)
        fail_exit_status();
    pmpi_waits_free(&waits);
    pmpi_own_comm_close();
    pmpi_counters_shutdown();
    pmpi_partial_uninstall(); /* before the MPI's own finalize restores its handlers */
    return bad;
}

void pmpi_after_finalize(void)
{
    pmpi_omp_tool_work(0);
}

void pmpi_before_abort(void)
{
    int st = atomic_load(&pmpi_rec.state);
    if (st != PMPI_ACTIVE && st != PMPI_PAUSED)
        return;
    pmpi_partial_write("MPI_Abort");
}

/* MPI_Pcontrol(-1) with no name ends nothing: said once per rank. */
static void say_unnamed_end(void)
{
    static _Atomic int said;
    if (!atomic_exchange(&said, 1))
        fprintf(stderr,
                "papi_mpi: rank %d: MPI_Pcontrol(-1) without a region name (IPM's "
                "style: MPI_Pcontrol(-1, \"name\") ends the region MPI_Pcontrol(1, "
                "\"name\") began): ignored\n",
                pmpi_id()->rank);
}

/* A level this library gives no meaning (2, the MPI standard's flush, which has nothing
 * to flush here; mpiP's 3 and 4; -2 and the other negatives): said once, by rank 0. */
static void say_ignored(int level)
{
    static _Atomic int said;
    if (pmpi_id()->rank == 0 && !atomic_exchange(&said, 1))
        fprintf(stderr,
                "papi_mpi: MPI_Pcontrol(%d): no effect (0 pauses recording, 1 resumes; a "
                "named region is MPI_Pcontrol(1, \"name\") .. MPI_Pcontrol(-1, \"name\")); "
                "other levels are ignored, said once\n",
                level);
}

/* MPI_Pcontrol levels: 0 pauses recording, 1 resumes; IPM's 1 "name" opens a region (and
 * resumes), -1 "name" closes it; name is NULL where none was passed (ipm_name: only +-1
 * read one, the levels whose convention has one) and in Fortran, whose MPI_Pcontrol has
 * only the level. Every other level reads no argument and changes nothing. */
void pmpi_pcontrol(int level, const char *name)
{
    int st = atomic_load(&pmpi_rec.state);
    if (st != PMPI_ACTIVE && st != PMPI_PAUSED)
        return;
    if (level == 0 || level == 1)
        atomic_store(&pmpi_rec.state, level ? PMPI_ACTIVE : PMPI_PAUSED);
    if ((level == 1 || level == -1) && name)
        pmpi_region_mark(2 * level, name);
    else if (level == -1)
        say_unnamed_end();
    else if (level != 0 && level != 1)
        say_ignored(level);
}

/* MPI_Init or MPI_Init_thread (id) returned rc, called from site at t0: the library
 * starts here once MPI has. */
static int init_returned(int rc, int id, long long t0, void *site)
{
    if (rc == MPI_SUCCESS) {
        pmpi_sample_hand_enter(id, site);
        pmpi_after_init(); /* the sampler starts inside: its samples count as the call */
        pmpi_count_call(id, t0);
        pmpi_sample_hand_leave();
    }
    return rc;
}

int MPI_Init(int *argc, char ***argv)
{
    long long t0 = pmpi_ticks();
    int rc = PMPI_Init(argc, argv);
    return init_returned(rc, PMPI_ID_MPI_Init, t0, __builtin_return_address(0));
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    long long t0 = pmpi_ticks();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    return init_returned(rc, PMPI_ID_MPI_Init_thread, t0, __builtin_return_address(0));
}

/* When the report could not be published (full disk...), MPI_Finalize returns what the
 * MPI returned and the process exits with status 74 instead of 0 (fail_exit_status). */
int MPI_Finalize(void)
{
    pmpi_sample_enter(PMPI_ID_MPI_Finalize, __builtin_return_address(0)); /* until it stops */
    pmpi_count_call(PMPI_ID_MPI_Finalize, pmpi_ticks());
    pmpi_before_finalize();
    pmpi_sample_leave();
    int rc = PMPI_Finalize();
    pmpi_after_finalize();
    return rc;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    pmpi_count_call(PMPI_ID_MPI_Abort, pmpi_ticks());
    pmpi_before_abort();
    return PMPI_Abort(comm, errorcode);
}

/* IPM's MPI_Pcontrol(1, "name") and (-1, "name"), told apart from mpiP's
 * MPI_Pcontrol(1), which passes no name: the second argument's register then holds
 * whatever it held before. It is taken for a name only when the memory it points to can
 * be read (copied with process_vm_readv, which fails instead of faulting on memory the
 * process cannot read, device memory included) and holds a NUL-terminated string of
 * 1 to PMPI_NAME_LEN - 1 printable characters; the copy is the name (buf). */
static const char *ipm_name(const void *arg, char *buf, size_t size)
{
    if (!arg)
        return NULL;
    struct iovec local = {buf, size}, remote = {(void *)arg, size};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (n <= 0 && (uintptr_t)arg % 4096 + size > 4096) {
        /* the string may end on its page, the page after it unreadable */
        remote.iov_len = local.iov_len = 4096 - (uintptr_t)arg % 4096;
        n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    }
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\0')
            return i > 0 ? buf : NULL;
        if (c < 0x20 || c > 0x7e)
            return NULL;
    }
    return NULL;
}

int MPI_Pcontrol(const int level, ...)
{
    const char *name = NULL;
    char ipm[PMPI_NAME_LEN];
    pmpi_sample_enter(PMPI_ID_MPI_Pcontrol, __builtin_return_address(0)); /* marks read counters */
    if (level == 1 || level == -1) { /* no other level's convention passes a name */
        va_list ap;
        va_start(ap, level);
        const char *arg = va_arg(ap, const char *);
        va_end(ap);
        name = ipm_name(arg, ipm, sizeof ipm);
    }
    pmpi_count_call(PMPI_ID_MPI_Pcontrol, pmpi_ticks());
    pmpi_pcontrol(level, name);
    int rc = PMPI_Pcontrol(level);
    pmpi_sample_leave();
    return rc;
}

/* mpif.h and `use mpi`: libmpichfort's mpi_pcontrol_ calls the variadic MPI_Pcontrol
 * with the level only, so MPI_Pcontrol(1) from Fortran would make the C wrapper look for
 * a name that is not there. These definitions come first and never read one. */
static void fortran_pcontrol(const int *level, void *site)
{
    int l = level ? *level : 0;
    pmpi_sample_enter(PMPI_ID_MPI_Pcontrol, site);
    pmpi_count_call(PMPI_ID_MPI_Pcontrol, pmpi_ticks());
    pmpi_pcontrol(l, NULL);
    PMPI_Pcontrol(l);
    pmpi_sample_leave();
}

void mpi_pcontrol_(const int *level);
void mpi_pcontrol__(const int *level);
void mpi_pcontrol(const int *level);
void MPI_PCONTROL(const int *level);
void mpi_pcontrol_(const int *level)
{
    fortran_pcontrol(level, __builtin_return_address(0));
}
void mpi_pcontrol__(const int *level)
{
    fortran_pcontrol(level, __builtin_return_address(0));
}
void mpi_pcontrol(const int *level)
{
    fortran_pcontrol(level, __builtin_return_address(0));
}
void MPI_PCONTROL(const int *level)
{
    fortran_pcontrol(level, __builtin_return_address(0));
}
