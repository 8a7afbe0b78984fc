/* Example: choose what an event set counts (user mode, this thread), multiplex it.
 * Shows: PAPI_set_domain PAPI_set_granularity PAPI_set_cmp_domain PAPI_set_cmp_granularity
 * PAPI_get_opt PAPI_set_opt PAPI_get_cmp_opt PAPI_multiplex_init PAPI_set_multiplex
 * PAPI_get_multiplex PAPI_assign_eventset_component PAPI_get_eventset_component
 * PAPI_get_event_running_fraction PAPI_set_debug PAPI_attach PAPI_detach */
#include <papi.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int es = PAPI_NULL, n = 1;
    long long v[1];
    double fraction[1];
    PAPI_option_t opt;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    PAPI_set_debug(PAPI_VERB_ECONT);          /* print errors as they happen */
    PAPI_set_domain(PAPI_DOM_USER);           /* the default of new event sets */
    PAPI_set_granularity(PAPI_GRN_THR);
    PAPI_multiplex_init();
    PAPI_create_eventset(&es);
    PAPI_assign_eventset_component(es, 0);    /* the CPU component, before options */
    opt.domain.eventset = es;
    opt.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
    PAPI_set_opt(PAPI_DOMAIN, &opt);          /* this set counts the kernel too */
    PAPI_set_multiplex(es);
    PAPI_add_named_event(es, "perf::PAGE-FAULTS");
    printf("multiplexed: %d, component %d, domain %d, %d hardware counters\n",
           PAPI_get_multiplex(es), PAPI_get_eventset_component(es),
           PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, NULL, 0));
    PAPI_start(es);
    PAPI_stop(es, v);
    PAPI_get_event_running_fraction(es, fraction, &n);
    printf("counted %lld, %.2f of the time\n", v[0], fraction[0]);
    return 0;
}
