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

/* key: {"on": ..., "reason": ..., ...} ($defs/status), from gpu_activity_switch_state and
 * the layer's table (locked here). */
__attribute__((visibility("hidden"))) void gpu_report_status(struct jw *w, const char *key);
/* key: a section ($defs/section): s (a snapshot or a difference of two) and k's rows,
 * named from t (locked by the caller: gpu_activity_lock); k may be NULL (no table). */
__attribute__((visibility("hidden"))) void gpu_report_section(struct jw *w, const char *key,
                                                              const struct gpu_table *t,
                                                              const struct gpu_snapshot *s,
                                                              const struct gpu_kernel_counts *k);
/* key: {"activity": status, "total": the table's sums since the start} ($defs/process). */
__attribute__((visibility("hidden"))) void gpu_report_process(struct jw *w, const char *key);
/* One line on f when CUPTI dropped records, a buffer was refused or kernels were not
 * tabled (by who: "region API" ...): the file says the same; nothing when none was lost.
 * Returns the records dropped. */
__attribute__((visibility("hidden"))) unsigned long long gpu_report_say_losses(FILE *f,
                                                                               const char *who);

#endif
