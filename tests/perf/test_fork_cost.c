/* test_fork_cost: what fork() costs a child when the library is initialised and a set is
 * counting (issue 28, 6). The atfork child handler once cleared the whole 65536-slot event
 * set table, 128 pages written, one copy-on-write fault each, in every child of an
 * instrumented code (system(), popen(), subprocesses). The child's minor faults from its
 * birth to its first instruction after fork(), with the library (initialised, sets
 * counting) against the same program forked before PAPI_library_init, may differ by at
 * most a few pages (10, the bound). Minimum over several forks on each side: a
 * fork's own faults vary with what the stack and libc touch. */
#include "fork_faults.h"
#include "papi_test.h"
#define EXTRA_SETS 40 /* sets created and destroyed: the table has been used */

int main(void)
{
    warm_up();
    long without = min_faults();
    init_or_die();
    int es = PAPI_NULL, more[EXTRA_SETS];
    page_fault_set(&es);
    /* Handles in use and handed back: the table is not empty at fork. */
    for (int i = 0; i < EXTRA_SETS; i++) {
        more[i] = PAPI_NULL;
        CHECK_RET(PAPI_create_eventset(&more[i]), PAPI_OK);
    }
    for (int i = 1; i < EXTRA_SETS; i += 2)
        CHECK_RET(PAPI_destroy_eventset(&more[i]), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    long with = min_faults();
    long long v = 0;
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("child minor faults at entry: %ld without the library, %ld with it (a set counting, "
           "%d handles used)\n", without, with, EXTRA_SETS + 1);
    CHECK(without >= 0 && with >= 0, "could not measure the children");
    CHECK(with <= without + 10, "a forked child pays %ld page faults more with the library",
          with - without);
    for (int i = 0; i < EXTRA_SETS; i += 2)
        CHECK_RET(PAPI_destroy_eventset(&more[i]), PAPI_OK);
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_fork_cost");
}
