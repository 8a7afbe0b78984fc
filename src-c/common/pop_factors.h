/* pop_factors.h: every efficiency the reports write, written once here (pop_factors.c):
 * MPI, OpenMP, hybrid and host/device, for the MPI wrapper's run, rows and MPI_Pcontrol
 * regions, the OMPT tool's file and table, and the region API's files. The schemas'
 * descriptions say the same (mpi_report.schema.json $defs/pop, ompt.schema.json
 * $defs/efficiency, gpu_activity.schema.json $defs/device_pop); their inputs and expected
 * values are in tests/pop/pop_factors_cases.txt (test_pop_factors). papi_report reads
 * these factors from the reports; it forms only those between two runs (its
 * load/pop_factors.py, cases in the same file).
 *
 * References: the POP Centre of Excellence's "Performance Metrics" (MPI and OpenMP,
 * https://pop-coe.eu); DLB's TALP (DLB 3.6 user guide, "TALP: OpenMP metrics" and "TALP:
 * GPU metrics"; Rahimi, Lopez, Garcia-Gasulla, "Hardware-Agnostic and Insightful
 * Efficiency Metrics for Accelerated Systems: Definition and Implementation within
 * TALP", arXiv:2603.26576, 2026; TALP's hybrid model 2). A factor is a fraction of 1, or
 * negative where it cannot be formed: the reports write null there.
 *
 * MPI, per rank: wall, MPI time and its wait states; useful = wall - MPI, T = the longest
 * wall time:
 *   load balance = mean(useful) / max(useful); communication = max(useful) / T;
 *   parallel = their product = mean(useful) / T. With the wait states, transfer = MPI -
 *   waits, T_ideal = max(wall - transfer): serialisation = max(useful) / T_ideal and
 *   transfer efficiency = T_ideal / T (their product is the communication efficiency).
 *
 * OpenMP, with U_t a thread's useful time in a parallel region (its implicit tasks less
 * its waits at barriers, at the join and at taskwait), n the region's largest team and W
 * its wall time (fork to join, summed over its instances):
 *   load balance  = mean(U_t over the n threads) / max(U_t)
 *   scheduling    = max(U_t) / W  (what the most loaded thread loses to fork, join and
 *                   waits that imbalance does not explain: the barrier efficiency)
 *   parallel      = load balance x scheduling  (= sum U_t / (n W))
 * and over outermost regions r (nested ones are inside their parent's time), for a
 * process, a named or MPI_Pcontrol region, or a job's ranks summed:
 *   serialization = time inside outermost parallel regions / the span (the process's
 *                   wall time; a region's time; the ranks' time outside MPI)
 *   load balance  = sum_r sum_t U_rt / sum_r n_r max_t U_rt
 *   scheduling    = sum_r n_r max_t U_rt / sum_r n_r W_r
 *   parallel      = serialization x load balance x scheduling
 * Where threads share cores, U_t counts a thread that waits for a core as busy, and the
 * load balance above reads too high. With C_t a thread's CPU time in the region (its
 * TASK-CLOCK over its implicit tasks), for a region and over regions alike (sums):
 *   on CPU                   = sum C_t / sum U_t  (well below 1: the threads shared cores;
 *                              cut to 1: C_t has the runtime's own time too)
 *   load balance on CPU time = sum C_t / (n max C_t)
 * Hybrid: parallel = MPI parallel efficiency x OpenMP parallel efficiency.
 *
 * Host/device, per rank: the host's time in the GPU runtime (CUPTI's synchronisation
 * records: a host thread blocked until the GPU is done); the GPU's useful time U_r (its
 * kernels: each device's busy time, the union of its kernels, summed) and A_r = U_r + its
 * communication time (copies and memsets); G = the ranks whose GPUs did any work (TALP
 * counts a process's devices as one):
 *   device offload efficiency = sum(wall - MPI - runtime) / sum(wall - MPI) (the host
 *     time outside MPI that is not spent waiting in the GPU runtime);
 *   device load balance = sum(U_r) / (G max(U_r));
 *   device communication efficiency = max(U_r) / max(A_r);
 *   device orchestration efficiency = max(A_r) / T;
 *   device parallel efficiency = their product = sum(U_r) / (G T). */
#ifndef PAPI_POP_FACTORS_H
#define PAPI_POP_FACTORS_H

#include <stdint.h>

#define POP_HIDDEN __attribute__((visibility("hidden")))

/* MPI and host/device: one set of ranks' times, added rank by rank (seconds). */
struct pop_in {
    int n, gpus;      /* ranks; ranks whose GPUs worked (U + communication > 0) */
    int device_ranks; /* ranks added by pop_add_device (their GPU activity recorded) */
    double max_wall, max_useful, sum_useful, max_ideal;
    double sum_host, sum_runtime; /* wall - MPI; time in the GPU runtime */
    double sum_gpu_useful, max_gpu_useful, max_gpu_active;
};

/* The MPI and host/device efficiencies; a device factor is negative where it cannot be
 * formed (no GPU work, no host time outside MPI). */
struct pop_factors {
    double parallel, load_balance, communication, serialisation, transfer;
    double offload, device_parallel, device_load_balance, device_communication,
        device_orchestration;
};

/* A rank's times: waits the sum of its wait states (0 without them). Its GPUs' (where
 * their activity was recorded): runtime the host's wait in the GPU runtime, gpu_useful
 * U, gpu_comm the copies' and memsets' time. */
POP_HIDDEN void pop_add(struct pop_in *p, double wall, double mpi, double waits);
POP_HIDDEN void pop_add_device(struct pop_in *p, double runtime, double gpu_useful,
                               double gpu_comm);
POP_HIDDEN struct pop_factors pop_factors(const struct pop_in *p);

/* OpenMP: the sums over outermost regions (ns) the OpenMP factors are formed from, added
 * region by region (pop_omp_region; parallel_ns by the caller, which knows which regions
 * were outermost). */
struct pop_omp_in {
    double parallel_ns;  /* time inside outermost parallel regions */
    double useful_ns;    /* sum_r sum_t U_rt */
    double maxu_team_ns; /* sum_r n_r max_t U_rt */
    double wall_team_ns; /* sum_r n_r W_r */
};

struct pop_omp_factors {
    double serialization, load_balance, scheduling, parallel;
};

/* Which factors a ratio above 1 is cut to 1 in: the tool's own file cuts the
 * serialization only (outermost regions of several threads overlap) and its writer each
 * factor as it writes it; the readers of its sums (the MPI wrapper, the region API) cut
 * each ratio before forming the product. */
enum pop_omp_cap { POP_CAP_SERIALIZATION, POP_CAP_EACH };

/* A region's factors from its threads' useful times (useful[0..team-1], ns) and wall
 * time (serialization negative: not formed per region); adds the region to sums when
 * sums is not NULL. */
POP_HIDDEN struct pop_omp_factors pop_omp_region(const uint64_t *useful, unsigned team,
                                                 uint64_t wall_ns, struct pop_omp_in *sums);
/* The factors of summed sums, the serialization over span_ns. */
POP_HIDDEN struct pop_omp_factors pop_omp_factors(const struct pop_omp_in *s, double span_ns,
                                                  enum pop_omp_cap cap);
/* OpenMP on CPU time: a region's threads' CPU times (C_t) and useful times (U_t), added to
 * sums when not NULL; the factors of a region or of summed regions. */
struct pop_omp_cpu_in {
    double cpu_ns, useful_ns, maxc_team_ns;
};
struct pop_omp_cpu {
    double on_cpu, load_balance;
};
POP_HIDDEN struct pop_omp_cpu pop_omp_cpu_region(const uint64_t *cpu, const uint64_t *useful,
                                                 unsigned team, struct pop_omp_cpu_in *sums);
POP_HIDDEN struct pop_omp_cpu pop_omp_cpu_factors(const struct pop_omp_cpu_in *s);
/* Hybrid parallel efficiency: mpi_parallel x omp_parallel, negative where either is. */
POP_HIDDEN double pop_hybrid(double mpi_parallel, double omp_parallel);

#endif
