/* test_metric_running_fraction: the running fraction the region report gives each
 * metric (src-c/lib/highlevel/hl_metrics_mpx.c) on hand-made samples of a multiplexed
 * set: the least running / enabled of the metric's events, only of its own events, 1.0
 * for a set that kept no times (not multiplexed), 0.0 for an event that never ran;
 * this machine's software events are never descheduled (their fraction is 1.0), so the
 * arithmetic on fractions below 1 is checked here; check_metric_mpx.py runs it end to end. */
#include <string.h>

#include "hl_metrics_mpx.h"
#include "papi_test.h"

static int near(double a, double b)
{
    return a - b < 1e-12 && b - a < 1e-12;
}

int main(void)
{
    /* A metric a / b over events 0 and 2 of the region's three. */
    struct metric_plan p;
    memset(&p, 0, sizeof p);
    p.f.nterms = 2;
    p.count[0] = p.count[1] = 1;
    p.first[1] = 1;
    p.nidx = 2;
    p.idx[0] = 0;
    p.idx[1] = 2;
    struct hlr_times s;
    memset(&s, 0, sizeof s);
    double f = hl_metric_running_fraction(&p, &s);
    CHECK(near(f, 1.0), "no times kept (not multiplexed): %g, want 1", f);
    s.enabled[0] = s.enabled[1] = s.enabled[2] = 1000;
    s.running[0] = 800;
    s.running[1] = 100; /* not the metric's: must not count */
    s.running[2] = 250;
    f = hl_metric_running_fraction(&p, &s);
    CHECK(near(f, 0.25), "least of 800/1000 and 250/1000: %g, want 0.25", f);
    s.running[2] = 0;
    f = hl_metric_running_fraction(&p, &s);
    CHECK(near(f, 0.0), "an event that never ran: %g, want 0", f);
    s.running[0] = s.running[2] = 1000;
    f = hl_metric_running_fraction(&p, &s);
    CHECK(near(f, 1.0), "always on a counter: %g, want 1", f);

    return test_done("test_metric_running_fraction");
}
