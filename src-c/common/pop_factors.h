/* pop_factors.h: the POP efficiencies, written once here (pop_factors.c) for every report
 * that writes them (the MPI wrapper's run and MPI_Pcontrol regions, the region API's
 * files); the schemas' descriptions say the same (mpi_report.schema.json $defs/pop,
 * gpu_activity.schema.json $defs/device_pop). Per rank: wall, MPI time and its wait
 * states; the host's time in the GPU runtime (CUPTI's synchronisation records: a host
 * thread blocked until the GPU is done); the GPU's useful time (its kernels: each
 * device's busy time, the union of its kernels, summed) and its communication time
 * (copies and memsets). T = the longest wall time.
 *
 * MPI (POP Centre of Excellence), useful = wall - MPI:
 *   load balance = mean(useful) / max(useful); communication = max(useful) / T;
 *   parallel = their product = mean(useful) / T. With the wait states, transfer = MPI -
 *   waits, T_ideal = max(wall - transfer): serialisation = max(useful) / T_ideal and
 *   transfer efficiency = T_ideal / T (their product is the communication efficiency).
 * Host/device, as DLB's TALP defines them (DLB 3.6 user guide "TALP: GPU metrics";
 * Rahimi, Lopez, Garcia-Gasulla, "Hardware-Agnostic and Insightful Efficiency Metrics
 * for Accelerated Systems: Definition and Implementation within TALP", arXiv:2603.26576,
 * 2026; TALP's hybrid model 2), with G = the ranks whose GPUs did any work (TALP counts a
 * process's devices as one), U_r a rank's GPU useful time and A_r = U_r + its GPU
 * communication time:
 *   device offload efficiency = sum(wall - MPI - runtime) / sum(wall - MPI) (the host
 *     time outside MPI that is not spent waiting in the GPU runtime);
 *   device load balance = sum(U_r) / (G max(U_r));
 *   device communication efficiency = max(U_r) / max(A_r);
 *   device orchestration efficiency = max(A_r) / T;
 *   device parallel efficiency = their product = sum(U_r) / (G T). */
#ifndef PAPI_POP_FACTORS_H
#define PAPI_POP_FACTORS_H

/* One set of ranks' times, added rank by rank (seconds). */
struct pop_in {
    int n, gpus;      /* ranks; ranks whose GPUs worked (U + communication > 0) */
    int device_ranks; /* ranks added by pop_add_device (their GPU activity recorded) */
    double max_wall, max_useful, sum_useful, max_ideal;
    double sum_host, sum_runtime; /* wall - MPI; time in the GPU runtime */
    double sum_gpu_useful, max_gpu_useful, max_gpu_active;
};

/* The efficiencies; a device factor is negative where it cannot be formed (no GPU work,
 * no host time outside MPI): the reports write null there. */
struct pop_factors {
    double parallel, load_balance, communication, serialisation, transfer;
    double offload, device_parallel, device_load_balance, device_communication,
        device_orchestration;
};

/* A rank's times: waits the sum of its wait states (0 without them). Its GPUs' (where
 * their activity was recorded): runtime the host's wait in the GPU runtime, gpu_useful
 * U, gpu_comm the copies' and memsets' time. */
__attribute__((visibility("hidden"))) void pop_add(struct pop_in *p, double wall, double mpi,
                                                   double waits);
__attribute__((visibility("hidden"))) void pop_add_device(struct pop_in *p, double runtime,
                                                          double gpu_useful, double gpu_comm);
__attribute__((visibility("hidden"))) struct pop_factors pop_factors(const struct pop_in *p);

#endif
