/* PAPI_tool_init (issue 69): a tool's start of the library is not the program's. The
 * program's PAPI_is_initialized shows only the bits its own calls set, in every order of
 * the tool's and the program's starts, with the high level and after a shutdown; a wrong
 * version changes nothing. */
#include "papi_test.h"

int main(void)
{
    CHECK_RET(PAPI_tool_init(PAPI_VER_CURRENT + 1), PAPI_EINVAL);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_ENOINIT); /* nothing started by the refusal */

    /* The tool first: its set counts, the program sees nothing of it. */
    CHECK_RET(PAPI_tool_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);
    CHECK_RET(PAPI_tool_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT); /* idempotent */
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(100);
    long long faults = 0;
    CHECK_RET(PAPI_stop(es, &faults), PAPI_OK);
    CHECK(faults >= 100, "the tool's set counted %lld page faults for 100 pages", faults);
    /* The program's high level starts "the library" as without a tool: HIGH alone. */
    CHECK_RET(PAPI_hl_region_begin("tool_init"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("tool_init"), PAPI_OK);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_HIGH_LEVEL_INITED);
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_LOW_LEVEL_INITED | PAPI_HIGH_LEVEL_INITED);
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    PAPI_shutdown();
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);

    /* The program first: the tool's start adds nothing it sees, its sets still work. */
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    CHECK_RET(PAPI_tool_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_LOW_LEVEL_INITED);
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    PAPI_shutdown();
    CHECK_EQ_LL(PAPI_is_initialized(), PAPI_NOT_INITED);
    return test_done("test_tool_init");
}
