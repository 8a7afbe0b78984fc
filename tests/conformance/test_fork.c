/* Fork as PAPI 7's zero_fork and fork_overflow expect it: the child starts from a clean
 * library. Its inherited sets cannot be used (PAPI_ENOINIT: they would reach the
 * parent's counters through the shared descriptors), PAPI_shutdown in the child leaves
 * the parent counting, PAPI_library_init gives it a fresh state in which it counts its
 * own page faults exactly and receives its own overflow signals (fork_overflow: the
 * child's thread id is its own, not the parent's cached one), and the parent keeps
 * counting exactly. */
#include <sys/wait.h>
#include <unistd.h>

#include "papi_test.h"

#define CHILD_PAGES 200
#define PARENT_PAGES 500
#define FAULTS_PER_OVERFLOW 10

static volatile sig_atomic_t overflows_here, overflows_elsewhere;
static pid_t expected_pid;
static int parent_presets; /* num_preset_events before fork: the child must see the same */

static void on_overflow(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet, (void)address, (void)overflow_vector, (void)context;
    if (getpid() == expected_pid)
        overflows_here++;
    else
        overflows_elsewhere++;
}

/* The child's checks; its exit status is the number of failures. */
static void child(int parent_set, int shutdown_first)
{
    long long v = -1;
    test_failures = 0; /* the parent's count is not the child's */
    CHECK(PAPI_is_initialized() == PAPI_NOT_INITED, "child inherits an initialised library");
    CHECK_RET(PAPI_read(parent_set, &v), PAPI_ENOINIT);
    CHECK_RET(PAPI_stop(parent_set, &v), PAPI_ENOINIT);
    if (shutdown_first)
        PAPI_shutdown(); /* the usual advice after fork: must not stop the parent */
    CHECK(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "library_init in child");
    /* The machine description is kept across fork (not rebuilt): still complete. */
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    CHECK(ci && ci->num_preset_events == parent_presets, "child: %d presets, parent %d",
          ci ? ci->num_preset_events : -1, parent_presets);
    CHECK(PAPI_get_hardware_info() != NULL, "child: no hardware information");
    int es = PAPI_NULL;
    page_fault_set(&es);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK); /* not PAPI_EISRUN: the parent's set is not ours */
    touch_pages(CHILD_PAGES);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, CHILD_PAGES);
    /* Overflow in the child: every signal reaches the child's handler, in the child. */
    expected_pid = getpid();
    int faults = 0;
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &faults), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, faults, FAULTS_PER_OVERFLOW, 0,
                            on_overflow), PAPI_OK);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(CHILD_PAGES);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, CHILD_PAGES);
    CHECK_EQ_LL(overflows_here, CHILD_PAGES / FAULTS_PER_OVERFLOW);
    CHECK_EQ_LL(overflows_elsewhere, 0);
    CHECK_RET(PAPI_overflow(es, faults, 0, 0, on_overflow), PAPI_OK);
    free_set(&es);
    PAPI_shutdown();
    fflush(NULL);
    _exit(test_failures > 100 ? 100 : test_failures);
}

static void round_trip(int es, int shutdown_first)
{
    long long before = 0, after = 0;
    fflush(stdout); /* the child must not print the parent's buffered lines again */
    pid_t pid = fork();
    if (pid == 0)
        child(es, shutdown_first);
    CHECK(pid > 0, "fork failed");
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status 0x%x (failed checks above)", st);
    /* The child has shut down and exited: the parent's set still runs and counts. The
     * first writes after fork take copy-on-write faults: take them before counting. */
    before = after = 0;
    warm_up();
    CHECK_RET(PAPI_read(es, &before), PAPI_OK); /* its own writes fault too */
    CHECK_RET(PAPI_read(es, &before), PAPI_OK);
    touch_pages(PARENT_PAGES);
    CHECK_RET(PAPI_read(es, &after), PAPI_OK);
    printf("child %s: parent counted %lld faults for %d pages\n",
           shutdown_first ? "shut down, re-initialised" : "re-initialised", after - before,
           PARENT_PAGES);
    CHECK_EQ_LL(after - before, PARENT_PAGES);
}

int main(void)
{
    init_or_die();
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    PAPI_event_info_t info;
    PAPI_get_event_info(PAPI_TOT_INS, &info); /* loads the preset tables */
    parent_presets = ci ? ci->num_preset_events : -1;
    int es = PAPI_NULL;
    page_fault_set(&es);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    round_trip(es, 1);
    round_trip(es, 0);
    long long v = 0;
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_fork");
}
