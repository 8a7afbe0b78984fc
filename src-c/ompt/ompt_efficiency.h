/* ompt_efficiency.h: the OpenMP efficiencies, as the POP Centre of Excellence's model
 * and DLB's TALP define them (POP "Performance Metrics" for OpenMP; DLB user guide,
 * "TALP: OpenMP metrics"), written once here (ompt_efficiency.c) and in the schema's
 * descriptions (schema/ompt.schema.json, $defs/efficiency). With U_t a thread's useful
 * time in a parallel region (its implicit tasks less the barrier and task waits), n the
 * region's largest team and W the region's wall time (fork to join, summed over its
 * instances):
 *   load balance  = mean(U_t over the n threads) / max(U_t)
 *   scheduling    = max(U_t) / W  (what the most loaded thread loses to fork, join and
 *                   waits that imbalance does not explain: the barrier efficiency)
 *   parallel      = load balance x scheduling  (= sum U_t / (n W))
 * and for the run (outermost regions only; nested ones are inside their parent's time):
 *   serialization = time inside outermost parallel regions / the run's wall time
 *   load balance  = sum_r sum_t U_rt / sum_r n_r max_t U_rt
 *   scheduling    = sum_r n_r max_t U_rt / sum_r n_r W_r
 *   parallel      = serialization x load balance x scheduling */
#ifndef PAPI_OMPT_EFFICIENCY_H
#define PAPI_OMPT_EFFICIENCY_H

#include <stdint.h>

#include "ompt_regions.h"

/* An efficiency is a fraction in [0, 1], or negative where it cannot be formed (no
 * useful time, no wall time): the report writes null there. */
struct ompt_efficiency {
    double serialization, load_balance, scheduling, parallel;
};

/* The sums a run's efficiencies are formed from, added to region by region. */
struct ompt_efficiency_sums {
    double useful_ns, max_useful_x_team_ns, wall_x_team_ns;
};

/* A region's efficiencies from its threads' useful times (useful[0..team-1]) and wall
 * time; adds the region to sums when sums is not NULL (serialization is left negative). */
OMPT_HIDDEN struct ompt_efficiency ompt_efficiency_region(const uint64_t *useful, unsigned team,
                                                          uint64_t wall_ns,
                                                          struct ompt_efficiency_sums *sums);
/* The run's from the sums of its outermost regions, their wall and the run's wall. */
OMPT_HIDDEN struct ompt_efficiency ompt_efficiency_run(const struct ompt_efficiency_sums *sums,
                                                       uint64_t parallel_ns, uint64_t run_ns);

#endif
