/* mpi_faults.c: the ways a rank can end badly under the wrapper library, one per mode
 * (argv[1]); check_faults.py runs each with a timeout and checks what is left on disk.
 *   heap      rank 0 double-frees a heap chunk: glibc aborts inside free() with the
 *             arena lock held (the signal handler must not allocate)
 *   term      rank 0's helper thread allocates in a loop; SIGTERM lands inside malloc
 *   segv      rank 0 dereferences NULL (under UCX, whose handler MPI_Init installed)
 *   chain     like segv, but the program installed its own SIGSEGV handler before
 *             MPI_Init: ours writes the row, then calls that one (exit status 42)
 *   shutdown  PAPI_shutdown before MPI_Finalize, then PAPI re-initialised and sets of
 *             as many events as open created (the old handles reused)
 *   utf8      an MPI_Pcontrol region named with quotes, a backslash, a comma and a
 *             semicolon (JSON escapes, CSV quotes)
 *   fsize     a file size limit (RLIMIT_FSIZE) below the report's size: a full disk
 *             (MPI_Finalize must still return MPI_SUCCESS: else exit status 1)
 *   pcontrol  MPI_THREAD_MULTIPLE: 8 threads open and close their own MPI_Pcontrol
 *             region 200 times each, all at once, while checkpoints run
 *   ipm       IPM's MPI_Pcontrol(1, "name") / (-1, "name") regions, nested, entered
 *             twice, with a paused stretch and mpiP's MPI_Pcontrol(1) between; a level
 *             +-1 whose argument is no string (unmapped, not printable) opens nothing
 *   levels    MPI_Pcontrol at levels without a name (2, -2, 3, 4, -3, 7: the MPI
 *             standard's and mpiP's), inside and outside IPM's region "kept": none
 *             reads an argument nor changes anything
 *   kill9     rank 0 prints its pid, then every rank calls MPI_Barrier until the test
 *             SIGKILLs rank 0 (checkpoints on: whatever instant the kill lands, no
 *             temporary may remain)
 * Every mode first does MPI_Barrier x 3 and touches 50 pages. */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "papi.h"
#include "test_workload.h"

static void on_segv(int sig, siginfo_t *info, void *ctx)
{
    static const char msg[] = "mpi_faults: the program's own SIGSEGV handler ran\n";
    (void)sig, (void)info, (void)ctx;
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(43);
    _exit(42);
}

static void *allocate_forever(void *arg)
{
    (void)arg;
    for (unsigned i = 0;; i++) {
        void *p[8];
        for (int k = 0; k < 8; k++)
            p[k] = malloc(2000 + (i * 37 + (unsigned)k * 911) % 60000);
        for (int k = 0; k < 8; k++)
            free(p[k]);
    }
    return NULL;
}

enum { PC_THREADS = 8, PC_ROUNDS = 200 };
static pthread_barrier_t pc_start;

static void *pcontrol_thread(void *arg)
{
    char name[16];
    snprintf(name, sizeof name, "t%ld", (long)arg);
    pthread_barrier_wait(&pc_start);
    for (int i = 0; i < PC_ROUNDS; i++) {
        MPI_Pcontrol(1, name);
        MPI_Pcontrol(-1, name);
    }
    return NULL;
}

static void pcontrol_threads(void)
{
    pthread_t t[PC_THREADS];
    pthread_barrier_init(&pc_start, NULL, PC_THREADS);
    for (long k = 0; k < PC_THREADS; k++)
        pthread_create(&t[k], NULL, pcontrol_thread, (void *)k);
    for (int k = 0; k < PC_THREADS; k++)
        pthread_join(t[k], NULL);
}

/* Regions as IPM marks them: solve (entered twice, 2 barriers inside) around io (1). */
static void ipm_regions(void)
{
    static const char not_text[] = "\x01\x02";
    const char *unmapped = (const char *)(uintptr_t)16;
    MPI_Pcontrol(1, "solve");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(1, "io");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "io");
    MPI_Pcontrol(-1, "solve");
    MPI_Pcontrol(0);
    MPI_Barrier(MPI_COMM_WORLD); /* paused: not recorded */
    MPI_Pcontrol(1);             /* mpiP's resume, no name */
    MPI_Pcontrol(1, unmapped);   /* no string there: resumes only */
    MPI_Pcontrol(1, not_text);
    MPI_Pcontrol(1, "solve");
    MPI_Pcontrol(-1, "solve");
    MPI_Pcontrol(-1, unmapped); /* no name: said once */
}

/* Levels that pass no name (issue 69 item 2): 2 is the MPI standard's flush, 3 and 4
 * mpiP's reports; the loop leaves the array's address in the second argument's register.
 * One region, "kept", around one barrier. */
static void pcontrol_levels(void)
{
    static const int levels[] = {2, -2, 3, 4, -3, 7, -2, 2};
    MPI_Pcontrol(1, "kept");
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        MPI_Pcontrol(levels[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "kept");
    MPI_Pcontrol(2);
    MPI_Pcontrol(-2);
    MPI_Pcontrol(3);
}

static void papi_shutdown_and_reuse(void)
{
    static const char *const names[] = {
        "perf::PAGE-FAULTS", "perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::CONTEXT-SWITCHES",
        "perf::CPU-MIGRATIONS", "perf::MINOR-FAULTS", "perf::MAJOR-FAULTS",
        "perf::ALIGNMENT-FAULTS", "perf::EMULATION-FAULTS", "perf::PAGE-FAULTS:u",
        "perf::TASK-CLOCK:u", "perf::CPU-CLOCK:u"};
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "mpi_faults: PAPI_library_init failed\n");
        exit(2);
    }
    PAPI_shutdown();
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "mpi_faults: PAPI_library_init after PAPI_shutdown failed\n");
        exit(2);
    }
    int n_added = 0;
    for (int s = 0; s < 4; s++) {
        int es = PAPI_NULL;
        if (PAPI_create_eventset(&es) != PAPI_OK)
            break;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            n_added += PAPI_add_named_event(es, names[i]) == PAPI_OK;
        if (s == 0)
            PAPI_start(es);
    }
    printf("mpi_faults: program's sets hold %d events\n", n_added);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rank;
    if (strcmp(mode, "chain") == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_segv;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
    }
    if (strcmp(mode, "pcontrol") == 0) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        if (provided < MPI_THREAD_MULTIPLE) {
            printf("SKIPPED: MPI_THREAD_MULTIPLE not provided\n");
            MPI_Finalize();
            return 77;
        }
    } else {
        MPI_Init(&argc, &argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    touch_pages(50);
    if (strcmp(mode, "heap") == 0 && rank == 0) {
        char *volatile a = malloc(5000), *volatile b = malloc(5000);
        free(a);
        free(a); /* glibc: "double free or corruption", abort() under the arena lock */
        free(b);
    }
    if (strcmp(mode, "term") == 0 && rank == 0) {
        pthread_t t;
        pthread_create(&t, NULL, allocate_forever, NULL);
        usleep(100000);
        pthread_kill(t, SIGTERM);
        pause();
    }
    if ((strcmp(mode, "segv") == 0 || strcmp(mode, "chain") == 0) && rank == 0) {
        int *volatile p = NULL;
        *p = 1;
    }
    if (strcmp(mode, "shutdown") == 0)
        papi_shutdown_and_reuse();
    if (strcmp(mode, "utf8") == 0) {
        MPI_Pcontrol(1, "bad \"quoted\" \\ a,b;c");
        MPI_Pcontrol(-1, "bad \"quoted\" \\ a,b;c");
    }
    if (strcmp(mode, "pcontrol") == 0)
        pcontrol_threads();
    if (strcmp(mode, "ipm") == 0)
        ipm_regions();
    if (strcmp(mode, "levels") == 0)
        pcontrol_levels();
    if (strcmp(mode, "kill9") == 0) {
        if (rank == 0) {
            printf("mpi_faults: pid %ld\n", (long)getpid());
            fflush(stdout);
        }
        for (;;)
            MPI_Barrier(MPI_COMM_WORLD); /* until the launcher ends the job */
    }
    if (strcmp(mode, "fsize") == 0) {
        struct rlimit rl = {1500, 1500};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    if (strcmp(mode, "heap") == 0 || strcmp(mode, "term") == 0 ||
        strcmp(mode, "segv") == 0 || strcmp(mode, "chain") == 0)
        MPI_Barrier(MPI_COMM_WORLD); /* the others wait here until the launcher ends them */
    if (MPI_Finalize() != MPI_SUCCESS) {
        fprintf(stderr, "mpi_faults: MPI_Finalize reported an error\n");
        return 1;
    }
    return 0;
}
