/* Example: count page faults with one event set: add, start, read, accumulate, reset,
 * stop, list and remove events, clean up.
 * Shows: PAPI_library_init PAPI_is_initialized PAPI_create_eventset PAPI_query_named_event
 * PAPI_add_named_event PAPI_event_name_to_code PAPI_query_event PAPI_add_event PAPI_start
 * PAPI_read PAPI_read_ts PAPI_accum PAPI_reset PAPI_state PAPI_stop PAPI_write
 * PAPI_list_events PAPI_num_events PAPI_remove_named_event PAPI_remove_event
 * PAPI_add_events PAPI_remove_events PAPI_cleanup_eventset PAPI_destroy_eventset
 * PAPI_shutdown PAPI_strerror PAPI_perror */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Stop the program with the error's text and the reason the library recorded. */
static void check(int ret, const char *call)
{
    if (ret != PAPI_OK) {
        fprintf(stderr, "%s failed: %s\n", call, PAPI_strerror(ret));
        PAPI_perror(call);
        exit(1);
    }
}

/* Touch n fresh pages: exactly n page faults. */
static void touch_pages(long n)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        exit(1);
    madvise(p, n * page, MADV_NOHUGEPAGE); /* 4 KiB pages even with THP "always" */
    for (long i = 0; i < n; i++)
        p[i * page] = 1;
    munmap(p, n * page);
}

int main(void)
{
    int es = PAPI_NULL, code, status, n = 2, list[2];
    long long v[2], acc[2] = {0, 0}, cyc;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    if (!(PAPI_is_initialized() & PAPI_LOW_LEVEL_INITED))
        return 1;
    check(PAPI_create_eventset(&es), "PAPI_create_eventset");
    /* The kernel's software events count everywhere, also without a hardware PMU. */
    check(PAPI_query_named_event("perf::PAGE-FAULTS"), "PAPI_query_named_event");
    check(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), "PAPI_add_named_event");
    check(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), "PAPI_event_name_to_code");
    check(PAPI_query_event(code), "PAPI_query_event");
    check(PAPI_add_event(es, code), "PAPI_add_event");

    check(PAPI_start(es), "PAPI_start");
    touch_pages(100);
    check(PAPI_read(es, v), "PAPI_read");           /* running totals; it keeps counting */
    check(PAPI_read_ts(es, v, &cyc), "PAPI_read_ts"); /* the same, with the time of the read */
    check(PAPI_accum(es, acc), "PAPI_accum");       /* acc += counts, counters restart */
    touch_pages(20);
    check(PAPI_reset(es), "PAPI_reset");            /* the 20 are forgotten */
    touch_pages(50);
    check(PAPI_state(es, &status), "PAPI_state");
    check(PAPI_stop(es, v), "PAPI_stop");
    printf("page faults: %lld, then %lld after a reset; running: %s\n", acc[0], v[0],
           status & PAPI_RUNNING ? "yes" : "no");
    check(PAPI_write(es, v), "PAPI_write");         /* a stopped set's counts, set again */

    check(PAPI_list_events(es, list, &n), "PAPI_list_events");
    printf("%d events in the set\n", PAPI_num_events(es));
    check(PAPI_remove_named_event(es, "perf::PAGE-FAULTS"), "PAPI_remove_named_event");
    check(PAPI_remove_event(es, code), "PAPI_remove_event");
    check(PAPI_add_events(es, list, n), "PAPI_add_events"); /* both back at once */
    check(PAPI_remove_events(es, list, n), "PAPI_remove_events");
    check(PAPI_cleanup_eventset(es), "PAPI_cleanup_eventset"); /* empty, then free it */
    check(PAPI_destroy_eventset(&es), "PAPI_destroy_eventset");
    PAPI_shutdown();
    printf("after PAPI_shutdown: initialised %d, event set %d\n", PAPI_is_initialized(), es);
    return 0;
}
