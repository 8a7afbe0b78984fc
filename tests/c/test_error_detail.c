/* test_error_detail: PAPI_strerror_detail returns the reason of this thread's last failing
 * call whole, whatever its length: a native name of 1000 characters that does not exist
 * comes back inside a reason longer than PAPI_HUGE_STR_LEN (the old fixed buffer cut it at
 * 1023 bytes), ending with libpfm4's own words; a new thread starts with no reason, and
 * its failures do not change this thread's. */
#include <pthread.h>

#include "papi_test.h"

static char long_name[1024];

static void *other_thread(void *arg)
{
    char *seen = arg;
    snprintf(seen, 64, "%s", PAPI_strerror_detail());
    int code;
    CHECK_RET(PAPI_event_name_to_code("perf::NO_SUCH_EVENT_IN_THREAD", &code), PAPI_ENOEVNT);
    CHECK(strstr(PAPI_strerror_detail(), "NO_SUCH_EVENT_IN_THREAD") != NULL, "thread: '%s'",
          PAPI_strerror_detail());
    return NULL;
}

int main(void)
{
    init_or_die();
    size_t n = strlen("perf::");
    memcpy(long_name, "perf::", n);
    memset(long_name + n, 'x', 1000);
    long_name[n + 1000] = '\0';
    int code;
    CHECK_RET(PAPI_event_name_to_code(long_name, &code), PAPI_ENOEVNT);
    const char *why = PAPI_strerror_detail();
    const char *at = strstr(why, long_name);
    CHECK(at != NULL, "the name is not whole in the reason (%zu bytes)", strlen(why));
    CHECK(strlen(why) > PAPI_HUGE_STR_LEN, "reason of %zu bytes, expected more than %d",
          strlen(why), PAPI_HUGE_STR_LEN);
    /* After the name: "': " and libpfm4's message, not cut. */
    CHECK(at && strncmp(at + strlen(long_name), "': ", 3) == 0 &&
              strlen(at + strlen(long_name)) > 3,
          "reason ends '%s'", at ? at + strlen(long_name) : "?");

    char seen[64] = "unset";
    pthread_t t;
    CHECK(pthread_create(&t, NULL, other_thread, seen) == 0, "pthread_create");
    pthread_join(t, NULL);
    CHECK(seen[0] == '\0', "a new thread's reason is '%s', expected empty", seen);
    CHECK(strstr(PAPI_strerror_detail(), long_name) != NULL,
          "another thread's failure replaced this thread's reason");

    /* A short reason after the long one is the short one alone. */
    CHECK_RET(PAPI_start(-5), PAPI_ENOEVST);
    CHECK(strcmp(PAPI_strerror_detail(), "EventSet -5 does not exist") == 0, "got '%s'",
          PAPI_strerror_detail());
    PAPI_shutdown();
    return test_done("test_error_detail");
}
