/* gpu_tracelog.h: each kernel, copy and memset of the GPUs with its times, kept for the
 * traces' GPU tracks (gpu_tracelog.c): the first GPU_TRACE_ITEMS of a run, the later ones
 * counted as dropped. Kept only once a caller asks (a traced run: 2.5 MiB), filed by the
 * drain thread under the table's lock. */
#ifndef PAPI_GPU_TRACELOG_H
#define PAPI_GPU_TRACELOG_H

#include <stdint.h>

#include "cupti_api.h"
#include "gpu_table.h"
#include "trace_gpu_tracks.h"

#define GPU_TRACE_ITEMS 65536

enum gpu_trace_type { GPU_TRACE_KERNEL, GPU_TRACE_COPY, GPU_TRACE_MEMSET };

struct gpu_trace_item {
    uint64_t start, end; /* ns on the traces' clock */
    uint32_t device, stream;
    int32_t row;       /* a kernel's row in the table (its name) */
    uint8_t type;      /* enum gpu_trace_type */
    uint8_t copy_kind; /* a copy's CUPTI_MEMCPY_KIND_* */
};

struct gpu_tracelog {
    int n;
    uint64_t dropped;
    struct gpu_trace_item item[GPU_TRACE_ITEMS];
};

/* A kernel (its row, -1 when untabled: not kept), copy or memset record; other kinds are
 * not kept. */
__attribute__((visibility("hidden"))) void gpu_tracelog_add(struct gpu_tracelog *l,
                                                            const cupti_record_head *rec, int row,
                                                            int64_t clock_offset);

/* The log's operations after since (advanced) into g, each on its GPU track, named as its
 * kernel's row of t, "memcpy HtoD" (its copy's direction) or "memset"; the operations
 * dropped since then in g->dropped. Under the table's lock. 0, or -1 when out of memory
 * (since not advanced). */
__attribute__((visibility("hidden"))) int gpu_tracelog_ops(const struct gpu_tracelog *l,
                                                           const struct gpu_table *t,
                                                           struct trace_gpu_since *since,
                                                           struct trace_gpu_ops *g);

#endif
