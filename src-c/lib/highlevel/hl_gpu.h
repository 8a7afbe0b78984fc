/* hl_gpu.h: a region's GPU activity (hl_gpu.c): the GPU activity layer's sums
 * (src-c/gpu_activity) at each instance's begin and end, their differences summed per
 * region name and thread, written into the region file ("gpu_activity", "gpu_regions"). */
#ifndef HL_GPU_H
#define HL_GPU_H

#include "hl_state.h"
#include "json_writer.h"

/* At a begin, before the counters start: the layer started as PAPI_GPU_ACTIVITY says
 * (gpu_activity_switch.h), then flushed and its sums kept. Nothing when it is off. */
PAPI_INTERNAL void hl_gpu_region_begin(struct hlr_region *g);
/* At an end, after the counters are read: flushed, the sums since the begin added. */
PAPI_INTERNAL void hl_gpu_region_end(struct hlr_region *g);
/* "gpu_activity" (the status) and "gpu_regions" (thread -> region -> section) when the
 * layer ran, and its losses said on stderr; nothing when it never started. Under
 * g_hlr_lock, the threads numbered. */
PAPI_INTERNAL void hl_gpu_write(struct jw *w);

#endif
