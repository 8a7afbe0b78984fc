/* PAPI_state transitions, one running set per thread, and shutdown leaving no perf
 * descriptor open (counted in /proc/self/fd). */
#include <dirent.h>

#include "papi_test.h"

int main(void)
{
    int before = count_fds();
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);
    int es = PAPI_NULL, es2 = PAPI_NULL, st = 0;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_ENOINIT);
    init_or_die();
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_LOW_LEVEL_INITED);
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT); /* idempotent */
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK_EQ_LL(st, PAPI_STOPPED);
    CHECK_RET(PAPI_start(es), PAPI_EINVAL); /* empty */
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::CONTEXT-SWITCHES"), PAPI_OK);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_ENOTRUN);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK_EQ_LL(st, PAPI_RUNNING);
    CHECK_RET(PAPI_start(es), PAPI_EISRUN);
    CHECK_RET(PAPI_add_named_event(es, "perf::MINOR-FAULTS"), PAPI_EISRUN);
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_EISRUN);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_EISRUN);
    CHECK_RET(PAPI_create_eventset(&es2), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es2, "perf::MINOR-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_start(es2), PAPI_EISRUN); /* one running set per thread */
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK_EQ_LL(st, PAPI_STOPPED);
    CHECK_RET(PAPI_start(es2), PAPI_OK);
    int during = count_fds();
    CHECK(during == before + 3, "3 perf fds open while counting (fds %d -> %d)", before, during);
    PAPI_shutdown(); /* with es2 still running and es stopped but not destroyed */
    int after = count_fds();
    CHECK(after == before, "shutdown closed every descriptor: %d before init, %d after", before, after);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);
    /* The library can be initialised again after a shutdown. */
    init_or_die();
    es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    long long v[1];
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(17);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 17);
    PAPI_shutdown();
    CHECK_EQ_LL(count_fds(), before);
    return test_done("test_state_shutdown");
}
