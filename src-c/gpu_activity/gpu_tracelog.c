/* gpu_tracelog.c: the GPUs' operations kept for the traces (gpu_tracelog.h). */
#include "gpu_tracelog.h"

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
