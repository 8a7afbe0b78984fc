/* Multiplexing with software events: a multiplexed set of 64+ events (every native
 * its own perf group) counts; software events are never descheduled, so every running
 * fraction is 1.0 and the page-fault events count exactly the pages touched. Also the
 * multiplexing API: PAPI_multiplex_init, PAPI_set/get_multiplex, PAPI_MULTIPLEX,
 * PAPI_MAX_MPX_CTRS, PAPI_DEF_MPX_NS, and PAPI_get_event_running_fraction's errors. */
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_fresh, "ovf_touch_f")

#define WANT 64

static const char *page_fault_names[] = {"perf::PAGE-FAULTS", "perf::FAULTS",
                                         "perf::PERF_COUNT_SW_PAGE_FAULTS", "perf::MINOR-FAULTS",
                                         "perf::PERF_COUNT_SW_PAGE_FAULTS_MIN"};
static const char *other_names[] = {
    "perf::TASK-CLOCK", "perf::PERF_COUNT_SW_TASK_CLOCK", "perf::CPU-CLOCK",
    "perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES", "perf::CS",
    "perf::PERF_COUNT_SW_CONTEXT_SWITCHES", "perf::CPU-MIGRATIONS", "perf::MIGRATIONS",
    "perf::PERF_COUNT_SW_CPU_MIGRATIONS", "perf::MAJOR-FAULTS",
    "perf::PERF_COUNT_SW_PAGE_FAULTS_MAJ"};
/* Modifiers make distinct event codes for the same kernel counter. Page faults from
 * touching memory happen in user mode, so ":u" variants count them too. */
static const char *mods[] = {"", ":u", ":u=1", ":u=1:k=0", ":k=0:u=1", ":u:k=0",
                             ":k=0:u", ":h=0", ":u:h=0", ":h=0:u", ":u=1:h=0", ":h=0:k=0"};

struct added {
    char name[128];
    int page_fault;
};

int main(void)
{
    init_or_die();
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    /* PAPI_set_multiplex before PAPI_multiplex_init is refused. */
    CHECK_RET(PAPI_set_multiplex(es), PAPI_EINVAL);
    CHECK_RET(PAPI_multiplex_init(), PAPI_OK);
    CHECK_RET(PAPI_get_multiplex(es), 0);
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.multiplex.eventset = es;
    CHECK_RET(PAPI_set_opt(PAPI_MULTIPLEX, &opt), PAPI_OK);
    CHECK(PAPI_get_multiplex(es) > 0, "PAPI_get_multiplex says not multiplexed");
    CHECK_RET(PAPI_set_multiplex(es), PAPI_EINVAL); /* already */
    CHECK_RET(PAPI_get_multiplex(4242), PAPI_ENOEVST);
    CHECK_RET(PAPI_set_multiplex(4242), PAPI_ENOEVST);
    int max = PAPI_get_opt(PAPI_MAX_MPX_CTRS, NULL);
    CHECK(max >= WANT, "PAPI_MAX_MPX_CTRS is %d", max);
    memset(&opt, 0, sizeof opt);
    opt.multiplex.ns = 5000000;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_MPX_NS, &opt), PAPI_OK);
    CHECK_EQ_LL(PAPI_get_opt(PAPI_DEF_MPX_NS, &opt), 5000000);

    static struct added ev[128];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char **names = pass == 0 ? page_fault_names : other_names;
        int nn = pass == 0 ? 5 : 12;
        for (int i = 0; i < nn; i++)
            for (unsigned m = 0; m < sizeof mods / sizeof mods[0] && n < 100; m++) {
                snprintf(ev[n].name, sizeof ev[n].name, "%s%s", names[i], mods[m]);
                if (PAPI_add_named_event(es, ev[n].name) == PAPI_OK) {
                    ev[n].page_fault = pass == 0;
                    n++;
                }
            }
    }
    printf("%d events in the multiplexed set\n", n);
    if (n == 0)
        test_skip("no software event opens here (no perf_event access)");
    CHECK(n >= WANT, "only %d distinct software events could be added", n);

    long long *v = calloc((size_t)n, sizeof *v);
    double *frac = calloc((size_t)n, sizeof *frac);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_fresh(1000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    int nf = n;
    CHECK_RET(PAPI_get_event_running_fraction(es, frac, &nf), PAPI_OK);
    CHECK_EQ_LL(nf, n);
    int exact = 0;
    for (int i = 0; i < n; i++) {
        CHECK(v[i] >= 0, "%s is negative: %lld", ev[i].name, v[i]);
        CHECK(frac[i] == 1.0, "%s ran %.3f of the time", ev[i].name, frac[i]);
        if (ev[i].page_fault) {
            CHECK(v[i] == 1000, "%s counted %lld, want 1000", ev[i].name, v[i]);
            exact++;
        }
    }
    printf("%d page-fault events exact at 1000; fractions all 1.0\n", exact);

    /* A second run after reset keeps exact values (baselines include the times). */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_fresh(300);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 300);
    CHECK_RET(PAPI_reset(es), PAPI_OK);
    touch_fresh(200);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 200);

    /* Running fraction errors; a short array is filled up to its size. */
    nf = 0;
    CHECK_RET(PAPI_get_event_running_fraction(es, frac, &nf), PAPI_EINVAL);
    CHECK_RET(PAPI_get_event_running_fraction(es, NULL, &nf), PAPI_EINVAL);
    CHECK_RET(PAPI_get_event_running_fraction(4242, frac, &nf), PAPI_ENOEVST);
    nf = 3;
    CHECK_RET(PAPI_get_event_running_fraction(es, frac, &nf), PAPI_OK);
    CHECK_EQ_LL(nf, 3);

    /* A set that never ran: values 0 and fractions 0.0 (never a made-up number). */
    int idle = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&idle), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(idle, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_set_multiplex(idle), PAPI_OK);
    long long iv = -1;
    double f = -1;
    nf = 1;
    CHECK_RET(PAPI_read(idle, &iv), PAPI_OK);
    CHECK_EQ_LL(iv, 0);
    CHECK_RET(PAPI_get_event_running_fraction(idle, &f, &nf), PAPI_OK);
    CHECK(f == 0.0, "never-run fraction %.3f", f);
    free_set(&idle);

    free(v);
    free(frac);
    free_set(&es);
    PAPI_shutdown();
    return test_done("multiplex_software");
}
