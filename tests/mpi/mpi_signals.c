/* mpi_signals: the wrapper's fatal-signal handlers do not outlive it.
 *
 *   mpi_signals restore
 *       (the wrapper preloaded) the program sets its own SIGSEGV and SIGUSR2 handlers
 *       and ignores SIGINT, then MPI_Init: the wrapper's handlers are in place (checked,
 *       or the test proves nothing); after MPI_Finalize no handler is the wrapper's and
 *       every handled signal has again the action it had before MPI_Init (but one the
 *       MPI itself took in MPI_Init: that is the MPI's to give back).
 *   mpi_signals dlclose WRAPPER finalize|unload
 *       (MPI only) dlopens the wrapper, enters MPI through its MPI_Init_thread, lets a
 *       thread make one call through it, ends MPI through the wrapper's MPI_Finalize
 *       (finalize) or the MPI's own (unload: only the library's destructor can clean
 *       up), dlcloses it, lets the thread end, then raises SIGTERM: the process must
 *       end by SIGTERM (a handler or thread-exit callback left in the unmapped library
 *       made it a SIGSEGV).
 *   mpi_signals dlclose WRAPPER running CHECKPOINT
 *       (MPI only; PAPI_MPI_CHECKPOINT and PAPI_INTERVAL set) dlopens the wrapper, enters
 *       MPI through its MPI_Init, waits until both its threads ran (the checkpoint file
 *       CHECKPOINT holds two samples of the series), dlcloses it without any
 *       MPI_Finalize, waits, and returns 0: a thread of the wrapper still running after
 *       the unload would be in unmapped code (SIGSEGV).
 * Prints "FAIL: ..." and exits 1 on a failed check; "SKIPPED: ..." (77) when dlclose
 * leaves the wrapper mapped (the check would prove nothing). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT, SIGTERM,
                           SIGINT,  SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
#define NSIGS (int)(sizeof sigs / sizeof sigs[0])
static int failed;

static void fail(const char *what, int sig)
{
    printf("FAIL: %s (signal %d)\n", what, sig);
    failed = 1;
}

static void program_segv(int sig, siginfo_t *info, void *ctx)
{
    (void)sig, (void)info, (void)ctx;
}

static void program_usr2(int sig)
{
    (void)sig;
}

/* The handler address of an action, whichever member it uses. */
static void *handler_of(const struct sigaction *sa)
{
    return sa->sa_flags & SA_SIGINFO ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

static int same_action(const struct sigaction *a, const struct sigaction *b)
{
    return handler_of(a) == handler_of(b) &&
           (a->sa_flags & SA_SIGINFO) == (b->sa_flags & SA_SIGINFO);
}

static int in_wrapper(int sig)
{
    struct sigaction sa;
    Dl_info where;
    sigaction(sig, NULL, &sa);
    void *h = handler_of(&sa);
    return h != (void *)SIG_DFL && h != (void *)SIG_IGN && dladdr(h, &where) && where.dli_fname &&
           strstr(where.dli_fname, "libpapi_mpi");
}

static int restore(int argc, char **argv)
{
    struct sigaction segv = {0}, usr2 = {0}, ign = {0}, before[NSIGS], after;
    segv.sa_sigaction = program_segv;
    segv.sa_flags = SA_SIGINFO;
    usr2.sa_handler = program_usr2;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGSEGV, &segv, NULL);
    sigaction(SIGUSR2, &usr2, NULL);
    sigaction(SIGINT, &ign, NULL);
    for (int i = 0; i < NSIGS; i++)
        sigaction(sigs[i], NULL, &before[i]);
    MPI_Init(&argc, &argv);
    if (!in_wrapper(SIGTERM) || !in_wrapper(SIGSEGV))
        fail("the wrapper's handlers are not in place after MPI_Init", SIGTERM);
    if (in_wrapper(SIGINT) || in_wrapper(SIGUSR2))
        fail("the wrapper replaced a handler the program chose", SIGINT);
    /* A signal the MPI itself took in MPI_Init (MPICH's SIGUSR1) is the MPI's to give
     * back: for it, only "not the wrapper's". */
    int mpi_took[NSIGS];
    for (int i = 0; i < NSIGS; i++) {
        struct sigaction mid;
        sigaction(sigs[i], NULL, &mid);
        mpi_took[i] = !in_wrapper(sigs[i]) && !same_action(&mid, &before[i]);
    }
    MPI_Finalize();
    for (int i = 0; i < NSIGS; i++) {
        sigaction(sigs[i], NULL, &after);
        if (in_wrapper(sigs[i]))
            fail("the wrapper's handler is left after MPI_Finalize", sigs[i]);
        else if (!mpi_took[i] && !same_action(&after, &before[i]))
            fail("not the action it had before MPI_Init", sigs[i]);
    }
    printf("mpi_signals restore: %s\n", failed ? "FAILED" : "every action as before MPI_Init");
    return failed;
}

typedef int (*init_thread_fn)(int *, char ***, int, int *);
typedef int (*finalize_fn)(void);
typedef int (*rank_fn)(MPI_Comm, int *);
static pthread_barrier_t called, unloaded;
static rank_fn wrapped_rank;

/* Claims a slot in the wrapper (its thread-exit callback) and ends after the dlclose. */
static void *worker(void *arg)
{
    int r;
    (void)arg;
    wrapped_rank(MPI_COMM_WORLD, &r);
    pthread_barrier_wait(&called);
    pthread_barrier_wait(&unloaded);
    return NULL;
}

static int unload(int argc, char **argv, const char *wrapper, int via_wrapper)
{
    int provided;
    pthread_t th;
    void *h = dlopen(wrapper, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("FAIL: dlopen %s: %s\n", wrapper, dlerror());
        return 1;
    }
    init_thread_fn init = (init_thread_fn)dlsym(h, "MPI_Init_thread");
    finalize_fn fin = (finalize_fn)dlsym(h, "MPI_Finalize");
    wrapped_rank = (rank_fn)dlsym(h, "MPI_Comm_rank");
    init(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (!in_wrapper(SIGTERM))
        fail("the wrapper's SIGTERM handler is not in place after its MPI_Init", SIGTERM);
    pthread_barrier_init(&called, NULL, 2);
    pthread_barrier_init(&unloaded, NULL, 2);
    pthread_create(&th, NULL, worker, NULL);
    pthread_barrier_wait(&called);
    if (via_wrapper)
        fin();
    else
        MPI_Finalize(); /* the MPI's own: the wrapper never sees the end */
    dlclose(h);
    if (dlopen(wrapper, RTLD_NOW | RTLD_NOLOAD)) {
        printf("SKIPPED: dlclose left %s mapped\n", wrapper);
        return 77;
    }
    pthread_barrier_wait(&unloaded);
    pthread_join(th, NULL);
    printf("mpi_signals dlclose: the thread ended; raising SIGTERM\n");
    fflush(stdout);
    raise(SIGTERM);
    printf("FAIL: the process survived SIGTERM\n");
    return 1;
}

typedef int (*init_fn)(int *, char ***);

/* Whether the checkpoint file exists and holds two samples or more: the checkpoint
 * thread wrote it, the sampler took them. */
static int threads_ran(const char *checkpoint)
{
    static char text[1 << 20];
    FILE *f = fopen(checkpoint, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strstr(text, "\"time_nsec\"");
    return p && strstr(p + 1, "\"time_nsec\"");
}

/* The wrapper's threads run (PAPI_MPI_CHECKPOINT, PAPI_INTERVAL) when it is dlclosed;
 * MPI is never finalized. */
static int unload_running(int argc, char **argv, const char *wrapper, const char *checkpoint)
{
    void *h = dlopen(wrapper, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("FAIL: dlopen %s: %s\n", wrapper, dlerror());
        return 1;
    }
    init_fn init = (init_fn)dlsym(h, "MPI_Init");
    if (!init || init(&argc, &argv) != MPI_SUCCESS) {
        printf("FAIL: the wrapper's MPI_Init\n");
        return 1;
    }
    struct timespec ms20 = {0, 20000000};
    for (int i = 0; !threads_ran(checkpoint); i++) {
        if (i == 1500) {
            printf("FAIL: no checkpoint with two samples in %s after 30 s\n", checkpoint);
            return 1;
        }
        nanosleep(&ms20, NULL);
    }
    dlclose(h);
    if (dlopen(wrapper, RTLD_NOW | RTLD_NOLOAD)) {
        printf("SKIPPED: dlclose left %s mapped\n", wrapper);
        return 77;
    }
    nanosleep(&ms20, NULL); /* a thread left behind would wake in unmapped code now */
    nanosleep(&ms20, NULL);
    printf("mpi_signals dlclose running: unloaded, no thread of the wrapper left\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "restore") == 0)
        return restore(argc, argv);
    if (argc > 4 && strcmp(argv[1], "dlclose") == 0 && strcmp(argv[3], "running") == 0)
        return unload_running(argc, argv, argv[2], argv[4]);
    if (argc > 3 && strcmp(argv[1], "dlclose") == 0)
        return unload(argc, argv, argv[2], strcmp(argv[3], "finalize") == 0);
    fprintf(stderr, "usage: mpi_signals restore | dlclose WRAPPER finalize|unload | dlclose "
                    "WRAPPER running CHECKPOINT\n");
    return 2;
}
