/* papi_test.h: what every C test program shares: exact-count workloads and checks
 * (test_check.h: CHECK, test_skip, test_done), PAPI's return codes and event sets. */
#ifndef PAPI_TEST_H
#define PAPI_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "test_check.h"
#include "test_workload.h"

/* Check a PAPI return code; prints the name of the call and the error string. */
#define CHECK_RET(call, expected)                                                    \
    do {                                                                             \
        int r_ = (call);                                                             \
        if (r_ != (expected)) {                                                      \
            fprintf(stderr, "FAIL %s:%d: %s returned %d (%s), expected %d (%s)\n",   \
                    __FILE__, __LINE__, #call, r_, PAPI_strerror(r_) ? PAPI_strerror(r_) : "?", \
                    (expected), PAPI_strerror(expected) ? PAPI_strerror(expected) : "?"); \
            test_failures++;                                                         \
        }                                                                            \
    } while (0)

static inline void init_or_die(void)
{
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    if (r != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed: %d (%s)\n", r, PAPI_strerror(r));
        exit(1);
    }
}

/* A new event set of the n named events, each added (checked). */
static inline int named_set(const char *const *names, int n)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < n; i++)
        CHECK_RET(PAPI_add_named_event(es, names[i]), PAPI_OK);
    return es;
}

/* Each of the n values read for the named events is exactly the one wanted. */
static inline void expect_values(const char *const *names, const long long *v,
                                 const long long *want, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(v[i] == want[i], "%s read %lld, want %lld", names[i], v[i], want[i]);
}

/* The description of the named event (its code looked up, then its info: each checked);
 * the event's code. */
static inline int event_info_of(const char *name, PAPI_event_info_t *info)
{
    int code = 0;
    CHECK_RET(PAPI_event_name_to_code(name, &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, info), PAPI_OK);
    return code;
}

/* An event set's end: cleaned up and destroyed (*es becomes PAPI_NULL), each checked. */
static inline void free_set(int *es)
{
    CHECK_RET(PAPI_cleanup_eventset(*es), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(es), PAPI_OK);
}

/* A new event set holding perf::PAGE-FAULTS, the event the exact-count tests use; skips
 * the test when even that software event does not open. Returns the event's code. */
static inline int page_fault_set(int *es)
{
    int code = 0;
    CHECK_RET(PAPI_create_eventset(es), PAPI_OK);
    if (PAPI_add_named_event(*es, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS does not open here (no perf_event access)");
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &code), PAPI_OK);
    return code;
}

/* Adds the named event a test needs to es, skipping the test when it does not open here;
 * returns the event's code. */
static inline int add_or_skip(int es, const char *name)
{
    char why[256];
    int code = 0;
    if (PAPI_add_named_event(es, name) != PAPI_OK) {
        snprintf(why, sizeof why, "%s does not open here", name);
        test_skip(why);
    }
    CHECK_RET(PAPI_event_name_to_code(name, &code), PAPI_OK);
    return code;
}

#endif
