/* Example: count page faults around a loop with one event set.
 * Shows: PAPI_library_init PAPI_create_eventset PAPI_add_named_event PAPI_add_event
 * PAPI_event_name_to_code PAPI_start PAPI_read PAPI_read_ts PAPI_accum PAPI_reset
 * PAPI_stop PAPI_state PAPI_num_events PAPI_list_events PAPI_remove_event
 * PAPI_remove_named_event PAPI_remove_events PAPI_add_events PAPI_write
 * PAPI_cleanup_eventset PAPI_destroy_eventset PAPI_strerror PAPI_perror PAPI_shutdown
 * PAPI_is_initialized PAPI_query_named_event PAPI_query_event */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void touch_pages(int n)
{
    char *p = malloc((size_t)n * 4096);
    if (!p)
        exit(1);
    for (int i = 0; i < n; i++)
        p[(size_t)i * 4096] = 1; /* one page fault per fresh page */
    free(p);
}

int main(void)
{
    int es = PAPI_NULL, code, status, n = 4, list[4];
    long long v[2], acc[2] = {0, 0}, cyc;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_is_initialized() == PAPI_NOT_INITED)
        return 1;
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return 1;
    if (PAPI_query_named_event("perf::PAGE-FAULTS") != PAPI_OK) {
        PAPI_perror("perf::PAGE-FAULTS cannot be counted here");
        return 0;
    }
    int ret = PAPI_add_named_event(es, "perf::PAGE-FAULTS");
    if (ret == PAPI_OK && PAPI_event_name_to_code("perf::TASK-CLOCK", &code) == PAPI_OK &&
        PAPI_query_event(code) == PAPI_OK)
        ret = PAPI_add_event(es, code);
    if (ret != PAPI_OK) {
        fprintf(stderr, "adding events: %s\n", PAPI_strerror(ret));
        return 1;
    }
    PAPI_start(es);
    touch_pages(100);
    PAPI_read(es, v);                 /* running totals, the set keeps counting */
    PAPI_read_ts(es, v, &cyc);        /* the same, with the cycle time of the read */
    PAPI_accum(es, acc);              /* add to acc and restart from zero */
    PAPI_reset(es);
    touch_pages(50);
    PAPI_state(es, &status);          /* PAPI_RUNNING */
    PAPI_stop(es, v);
    printf("page faults: %lld after reset (%lld before), running=%d\n", v[0], acc[0],
           (status & PAPI_RUNNING) != 0);
    if (PAPI_write(es, v) != PAPI_OK) /* not every component can set its counters */
        PAPI_perror("PAPI_write");
    PAPI_list_events(es, list, &n);
    printf("%d events in the set\n", PAPI_num_events(es));
    PAPI_remove_named_event(es, "perf::PAGE-FAULTS");
    PAPI_remove_event(es, code);
    PAPI_add_events(es, list, n);      /* both back at once */
    PAPI_remove_events(es, list, n);
    PAPI_cleanup_eventset(es);         /* empty, then free the handle */
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    return 0;
}
