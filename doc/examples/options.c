/* Example: choose what an event set counts (user and kernel mode, this thread), multiplex
 * it, and ask the library's options back.
 * Shows: PAPI_set_debug PAPI_set_domain PAPI_set_granularity PAPI_set_cmp_domain
 * PAPI_set_cmp_granularity PAPI_multiplex_init PAPI_assign_eventset_component
 * PAPI_get_eventset_component PAPI_set_opt PAPI_get_opt PAPI_get_cmp_opt
 * PAPI_set_multiplex PAPI_get_multiplex PAPI_get_event_running_fraction PAPI_attach
 * PAPI_detach */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void check(int ret, const char *call)
{
    if (ret != PAPI_OK) {
        fprintf(stderr, "%s failed: %s\n", call, PAPI_strerror(ret));
        PAPI_perror(call);
        exit(1);
    }
}

int main(void)
{
    int es = PAPI_NULL, n = 1;
    long long v[1];
    double fraction[1];
    PAPI_option_t opt;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    check(PAPI_set_debug(PAPI_QUIET), "PAPI_set_debug");        /* no error printing */
    check(PAPI_set_domain(PAPI_DOM_USER), "PAPI_set_domain");   /* new sets count user mode */
    check(PAPI_set_granularity(PAPI_GRN_THR), "PAPI_set_granularity");
    check(PAPI_set_cmp_domain(PAPI_DOM_USER, 0), "PAPI_set_cmp_domain"); /* component 0 alone */
    check(PAPI_set_cmp_granularity(PAPI_GRN_THR, 0), "PAPI_set_cmp_granularity");
    check(PAPI_multiplex_init(), "PAPI_multiplex_init");
    check(PAPI_create_eventset(&es), "PAPI_create_eventset");
    check(PAPI_assign_eventset_component(es, 0), "PAPI_assign_eventset_component");
    opt.domain.eventset = es; /* this set counts the kernel's part too */
    opt.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
    check(PAPI_set_opt(PAPI_DOMAIN, &opt), "PAPI_set_opt");
    int domain = PAPI_get_opt(PAPI_DOMAIN, &opt); /* the domain, or an error code */
    if (domain < 0)
        check(domain, "PAPI_get_opt");
    check(PAPI_set_multiplex(es), "PAPI_set_multiplex");
    check(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), "PAPI_add_named_event");
    printf("component %d, multiplexed %d, domain %d (default %d), up to %d events multiplexed\n",
           PAPI_get_eventset_component(es), PAPI_get_multiplex(es), domain,
           PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_get_cmp_opt(PAPI_MAX_MPX_CTRS, NULL, 0));

    /* Count this process from outside is PAPI_attach's job; here: attach to ourselves. */
    check(PAPI_attach(es, (unsigned long)getpid()), "PAPI_attach");
    check(PAPI_detach(es), "PAPI_detach");
    check(PAPI_start(es), "PAPI_start");
    check(PAPI_stop(es, v), "PAPI_stop");
    check(PAPI_get_event_running_fraction(es, fraction, &n), "PAPI_get_event_running_fraction");
    printf("%d event, on a counter %.0f%% of the time\n", n, fraction[0] * 100);
    return 0;
}
