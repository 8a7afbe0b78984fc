/* hl_gpu.h: a region's GPU activity (hl_gpu.c): the GPU activity layer's sums
 * (src-c/gpu_activity) at each instance's begin and end, their differences summed per
 * region name and thread, written into the region file ("gpu_activity", "gpu_regions"). */
#ifndef HL_GPU_H
#define HL_GPU_H

#include "gpu_activity_switch.h"
#include "hl_state.h"
#include "json_writer.h"

PAPI_INTERNAL void hl_gpu_span_begin(struct hlr_region *g);
PAPI_INTERNAL void hl_gpu_span_end(struct hlr_region *g);

/* At a begin, before the counters start: the layer started as PAPI_GPU_ACTIVITY says
 * (gpu_activity_switch.h), then flushed and its sums kept. Nothing when it is off, and
 * no call where the switch is quiet (a CPU-only program's begin: issue 69 item 7). */
static inline void hl_gpu_region_begin(struct hlr_region *g)
{
    if (!gpu_activity_switch_quiet())
        hl_gpu_span_begin(g);
}

/* At an end, after the counters are read: flushed, the sums since the begin added. */
static inline void hl_gpu_region_end(struct hlr_region *g)
{
    if (g->gpu)
        hl_gpu_span_end(g);
}
/* A begin that failed after hl_gpu_region_begin: its launches no longer linked to it,
 * the instance not counted. */
PAPI_INTERNAL void hl_gpu_region_cancel(struct hlr_region *g);
/* "gpu_activity" (the status) and "gpu_regions" (thread -> region -> section) when the
 * layer ran, and its losses said on stderr; nothing when it never started. Under
 * g_hlr_lock, the threads numbered. */
PAPI_INTERNAL void hl_gpu_write(struct jw *w);

#endif
