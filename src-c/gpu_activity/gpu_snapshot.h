/* gpu_snapshot.h: what a region saw of the GPUs (gpu_snapshot.c), for the region API, the
 * MPI wrapper's Pcontrol regions and rank rows (issue 59's later steps). Two ways, both on
 * the traces' clock:
 * - counts: gpu_snapshot_take at a region's begin and end, gpu_snapshot_diff between
 *   them. Records reach the table only when CUPTI hands a buffer back, so a snapshot
 *   counts work finished before it only after gpu_activity_flush(); without a flush at
 *   the boundaries, work is counted in the region where its buffer came back.
 * - busy time by window: gpu_table_busy_between(begin, end) after the run (or a flush):
 *   the device's busy time inside the region's interval, whenever its records came,
 *   without flushing at each boundary. */
#ifndef PAPI_GPU_SNAPSHOT_H
#define PAPI_GPU_SNAPSHOT_H

#include <stdint.h>

#include "gpu_table.h"

struct gpu_snapshot {
    uint64_t kernel_launches, kernel_ns; /* every kernel row's, and the untabled launches */
    struct gpu_sum copies[CUPTI_MEMCPY_KINDS];
    struct gpu_sum memsets; /* all devices */
    struct gpu_sum syncs;   /* all types */
    uint64_t dropped, buffers_refused;
    int ndevices;
    struct {
        uint32_t id;
        uint64_t busy_ns;
    } devices[GPU_TABLE_DEVICES];
};

/* The table's sums now into s. */
__attribute__((visibility("hidden"))) void gpu_snapshot_take(const struct gpu_table *t,
                                                             struct gpu_snapshot *s);
/* end minus begin into out (a device only in end counts from 0). */
__attribute__((visibility("hidden"))) void gpu_snapshot_diff(const struct gpu_snapshot *begin,
                                                             const struct gpu_snapshot *end,
                                                             struct gpu_snapshot *out);
/* The device's busy time inside [begin, end) (the union of its kernels, clipped). Sets
 * *exact to 0 where part of the window lies before the intervals folded away
 * (gpu_table.h: settled_until), whose time is then missing, else 1. */
__attribute__((visibility("hidden"))) uint64_t gpu_table_busy_between(const struct gpu_table *t,
                                                                      uint32_t device,
                                                                      uint64_t begin, uint64_t end,
                                                                      int *exact);

#endif
