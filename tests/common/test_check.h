/* test_check.h: the checks and the verdict of a C test program, with no PAPI in them, so
 * the unit tests of the library's internal code (built without libpapi) count failures
 * as the others do. A test exits 0 on success, 1 on failure, and 77 (ctest
 * SKIP_RETURN_CODE) after printing "SKIPPED: <reason>" when the machine lacks what it
 * needs. papi_test.h adds PAPI's return codes and event sets. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define TEST_SKIP_CODE 77

static int test_failures;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                   \
            test_failures++;                                                         \
        }                                                                            \
    } while (0)

#define CHECK_EQ_LL(got, want)                                                       \
    CHECK((long long)(got) == (long long)(want), "got %lld, want %lld", (long long)(got), \
          (long long)(want))

static inline void test_skip(const char *reason)
{
    printf("SKIPPED: %s\n", reason);
    exit(TEST_SKIP_CODE);
}

static inline int test_done(const char *name)
{
    if (test_failures) {
        printf("%s: FAILED (%d checks)\n", name, test_failures);
        return 1;
    }
    printf("%s: PASSED\n", name);
    return 0;
}

#endif
