/* gpu_report.h: the GPU activity sections every report file writes the same way
 * (gpu_report.c), their fields schema/gpu_activity.schema.json's: the process's status
 * ("gpu_activity": on or why not, CUPTI's version and clock, records dropped) and what a
 * region, a rank or a run saw (a section: busy time per device, kernel table, bytes per
 * copy direction, memsets, synchronisation). */
#ifndef PAPI_GPU_REPORT_H
#define PAPI_GPU_REPORT_H

#include <stdio.h>

#include "gpu_snapshot.h"
#include "json_writer.h"
#include "pop_factors.h"

/* key: {"on": ..., "reason": ..., ...} ($defs/status), from gpu_activity_switch_state and
 * the layer's table (locked here). */
__attribute__((visibility("hidden"))) void gpu_report_status(struct jw *w, const char *key);
/* key: a section ($defs/section): s (a snapshot or a difference of two) and k's rows,
 * named from t (locked by the caller: gpu_activity_lock); k may be NULL (no table);
 * launched, when not NULL, the work the region launched itself ("launched"). */
__attribute__((visibility("hidden"))) void gpu_report_section(
    struct jw *w, const char *key, const struct gpu_table *t, const struct gpu_snapshot *s,
    const struct gpu_kernel_counts *k, const struct gpu_attrib_sum *launched);
/* key: {"activity": status, "total": the table's sums since the start} ($defs/process). */
__attribute__((visibility("hidden"))) void gpu_report_process(struct jw *w, const char *key);
/* key: the host/device POP factors of p ($defs/device_pop; pop_factors.h), null where
 * one cannot be formed. */
__attribute__((visibility("hidden"))) void gpu_report_device_pop(struct jw *w, const char *key,
                                                                 const struct pop_in *p);
/* key: {"wall_s": the run's wall time, "pop": its host/device POP factors} ($defs/run_pop):
 * every record filed since the layer first started, over the time from then to end_ns
 * (CLOCK_MONOTONIC: when the report was asked for; one process: no MPI time). Nothing
 * before a start. Flush first (gpu_activity_flush). */
__attribute__((visibility("hidden"))) void gpu_report_run_pop(struct jw *w, const char *key,
                                                              uint64_t end_ns);
/* One line on f when CUPTI dropped records, a buffer was refused or kernels were not
 * tabled (by who: "region API" ...): the file says the same; nothing when none was lost.
 * Returns the records dropped. */
__attribute__((visibility("hidden"))) unsigned long long gpu_report_say_losses(FILE *f,
                                                                               const char *who);

#endif
