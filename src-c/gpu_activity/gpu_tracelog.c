/* gpu_tracelog.c: the GPUs' operations kept for the traces (gpu_tracelog.h). */
#include <stdio.h>

#include "gpu_tracelog.h"
#include "trace_records.h"

_Static_assert(GPU_KERNEL_NAME_LEN <= TRACE_GPU_NAME_LEN, "a kernel's name fits a track's");
_Static_assert(GPU_TABLE_KERNELS + CUPTI_MEMCPY_KINDS + 1 <= TRACE_GPU_MAX_NAMES,
               "one process's names fit TRACE_GPU_MAX_NAMES");

void gpu_tracelog_add(struct gpu_tracelog *l, const cupti_record_head *rec, int row,
                      int64_t clock_offset)
{
    struct gpu_trace_item it = {0};
    switch (rec->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const cupti_kernel_record *k = (const cupti_kernel_record *)rec;
        if (row < 0)
            return;
        it = (struct gpu_trace_item){k->start,         k->end, k->device_id, k->stream_id, row,
                                     GPU_TRACE_KERNEL, 0};
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const cupti_memcpy_record *m = (const cupti_memcpy_record *)rec;
        it = (struct gpu_trace_item){m->start, m->end,         m->device_id, m->stream_id,
                                     -1,       GPU_TRACE_COPY, m->copy_kind};
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const cupti_memset_record *m = (const cupti_memset_record *)rec;
        it = (struct gpu_trace_item){m->start,         m->end, m->device_id, m->stream_id, -1,
                                     GPU_TRACE_MEMSET, 0};
        break;
    }
    default:
        return;
    }
    if (it.start == 0 || it.end < it.start)
        return; /* incomplete: the table counted it */
    if (l->n == GPU_TRACE_ITEMS) {
        l->dropped++;
        return;
    }
    it.start = (uint64_t)((int64_t)it.start - clock_offset);
    it.end = (uint64_t)((int64_t)it.end - clock_offset);
    l->item[l->n++] = it;
}

/* Item it's name in g (defined at its first use: id caches each, -1 not yet): -1 when out
 * of memory. */
static int item_name(const struct gpu_trace_item *it, const struct gpu_table *t, int *id,
                     struct trace_gpu_ops *g)
{
    int slot = it->type == GPU_TRACE_KERNEL ? it->row
               : it->type == GPU_TRACE_COPY ? GPU_TABLE_KERNELS + it->copy_kind % CUPTI_MEMCPY_KINDS
                                            : GPU_TABLE_KERNELS + CUPTI_MEMCPY_KINDS;
    if (slot < 0 || (it->type == GPU_TRACE_KERNEL && it->row >= t->nkernels))
        return -1;
    if (id[slot] < 0) {
        char copy[32];
        if (it->type == GPU_TRACE_COPY)
            snprintf(copy, sizeof copy, "memcpy %s", gpu_copy_direction(it->copy_kind));
        id[slot] = trace_gpu_ops_name(g, it->type == GPU_TRACE_KERNEL ? t->kernels[it->row].name
                                         : it->type == GPU_TRACE_COPY ? copy
                                                                      : "memset");
    }
    return id[slot];
}

int gpu_tracelog_ops(const struct gpu_tracelog *l, const struct gpu_table *t,
                     struct trace_gpu_since *since, struct trace_gpu_ops *g)
{
    static int id[GPU_TABLE_KERNELS + CUPTI_MEMCPY_KINDS + 1]; /* under the table's lock */
    for (size_t k = 0; k < sizeof id / sizeof id[0]; k++)
        id[k] = -1;
    size_t n0 = g->n;
    for (size_t i = since->n; i < (size_t)l->n; i++) {
        const struct gpu_trace_item *it = &l->item[i];
        int name = item_name(it, t, id, g);
        if (name < 0 || trace_gpu_ops_push(g, TRACE_GPU_TRACK(it->device, it->stream), it->start,
                                           it->end, name) != 0) {
            g->n = n0;
            return -1;
        }
    }
    g->dropped += l->dropped - since->dropped;
    since->n = (size_t)l->n;
    since->dropped = l->dropped;
    return 0;
}
