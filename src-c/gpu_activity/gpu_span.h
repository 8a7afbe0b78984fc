/* gpu_span.h: what the GPUs did during a span of time opened and closed again and again
 * (gpu_span.c): a region of the region API, an MPI_Pcontrol region. Each begin flushes
 * CUPTI and keeps the layer's sums, each end adds their difference since; with link, the
 * span's own launches are also linked to it through CUPTI's correlation ids (the begin
 * and end must then run on one thread: CUPTI's stack of ids is the thread's). */
#ifndef PAPI_GPU_SPAN_H
#define PAPI_GPU_SPAN_H

#include <stdint.h>

#include "gpu_snapshot.h"
#include "json_writer.h"

struct gpu_span {
    int open;     /* the begin's sums are held */
    int pushed;   /* the open instance's launches are linked to tag */
    uint64_t tag; /* the span's, for CUPTI's links of its launches (gpu_attrib.h) */
    long long count;
    struct gpu_snapshot begin, total;
    struct gpu_kernel_counts kbegin, ktotal;
};

/* The begin (the layer running: gpu_activity_switch_start said so): 0, or -1 without
 * memory for the kernel rows (the instance is then not counted). */
__attribute__((visibility("hidden"))) int gpu_span_begin(struct gpu_span *s, int link);
/* The end: 0, or -1 without memory (said by the caller). Nothing for a span not begun. */
__attribute__((visibility("hidden"))) int gpu_span_end(struct gpu_span *s);
/* A begun instance given up (its region's begin failed): the tag popped, nothing added. */
__attribute__((visibility("hidden"))) void gpu_span_cancel(struct gpu_span *s);
/* key: the span's section ($defs/section), with "launched" when CUPTI linked launches;
 * nothing before a completed instance. Locks the layer's table. */
__attribute__((visibility("hidden"))) void gpu_span_write(struct jw *w, const char *key,
                                                          const struct gpu_span *s);
__attribute__((visibility("hidden"))) void gpu_span_free(struct gpu_span *s);

#endif
