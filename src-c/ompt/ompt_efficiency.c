/* ompt_efficiency.c: the OpenMP efficiencies (their definitions: ompt_efficiency.h). */
#include <stddef.h>

#include "ompt_efficiency.h"

static double ratio(double num, double den)
{
    return den > 0 ? num / den : -1;
}

struct ompt_efficiency ompt_efficiency_region(const uint64_t *useful, unsigned team,
                                              uint64_t wall_ns, struct ompt_efficiency_sums *sums)
{
    double sum = 0, max = 0;
    for (unsigned t = 0; t < team; t++) {
        sum += (double)useful[t];
        if ((double)useful[t] > max)
            max = (double)useful[t];
    }
    struct ompt_efficiency e = {.serialization = -1};
    e.load_balance = team ? ratio(sum / team, max) : -1;
    e.scheduling = ratio(max, (double)wall_ns);
    e.parallel = e.load_balance >= 0 && e.scheduling >= 0 ? e.load_balance * e.scheduling : -1;
    if (sums) {
        sums->useful_ns += sum;
        sums->max_useful_x_team_ns += max * team;
        sums->wall_x_team_ns += (double)wall_ns * team;
    }
    return e;
}

struct ompt_efficiency ompt_efficiency_run(const struct ompt_efficiency_sums *sums,
                                           uint64_t parallel_ns, uint64_t run_ns)
{
    struct ompt_efficiency e;
    e.serialization = ratio((double)parallel_ns, (double)run_ns);
    if (e.serialization > 1)
        e.serialization = 1; /* outermost regions of several threads overlapping */
    e.load_balance = ratio(sums->useful_ns, sums->max_useful_x_team_ns);
    e.scheduling = ratio(sums->max_useful_x_team_ns, sums->wall_x_team_ns);
    e.parallel = e.serialization >= 0 && e.load_balance >= 0 && e.scheduling >= 0
                     ? e.serialization * e.load_balance * e.scheduling
                     : -1;
    return e;
}
