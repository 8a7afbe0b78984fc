/* gpu_snapshot.c: what a region saw of the GPUs (gpu_snapshot.h). */
#include "gpu_snapshot.h"

#include <stdlib.h>
#include <string.h>

void gpu_snapshot_take(const struct gpu_table *t, struct gpu_snapshot *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < t->nkernels; i++) {
        s->kernel_launches += t->kernels[i].launches;
        s->kernel_ns += t->kernels[i].total_ns;
    }
    s->kernel_launches += t->kernels_untabled;
    memcpy(s->copies, t->copies, sizeof s->copies);
    for (int i = 0; i < CUPTI_SYNC_TYPES; i++) {
        s->syncs.count += t->syncs[i].count;
        s->syncs.ns += t->syncs[i].ns;
    }
    s->ndevices = t->ndevices;
    for (int i = 0; i < t->ndevices; i++) {
        const struct gpu_device_row *d = &t->devices[i];
        s->devices[i].id = d->id;
        s->devices[i].busy_ns = d->settled_ns + d->live_ns;
        s->memsets.count += d->memset.count;
        s->memsets.bytes += d->memset.bytes;
        s->memsets.ns += d->memset.ns;
    }
    s->dropped = t->dropped;
    s->buffers_refused = t->buffers_refused;
}

static void sum_diff(struct gpu_sum *out, const struct gpu_sum *a, const struct gpu_sum *b)
{
    out->count = b->count - a->count;
    out->bytes = b->bytes - a->bytes;
    out->ns = b->ns - a->ns;
}

void gpu_snapshot_diff(const struct gpu_snapshot *begin, const struct gpu_snapshot *end,
                       struct gpu_snapshot *out)
{
    struct gpu_snapshot d = {0}; /* begin or end may be out */
    d.kernel_launches = end->kernel_launches - begin->kernel_launches;
    d.kernel_ns = end->kernel_ns - begin->kernel_ns;
    for (int i = 0; i < CUPTI_MEMCPY_KINDS; i++)
        sum_diff(&d.copies[i], &begin->copies[i], &end->copies[i]);
    sum_diff(&d.memsets, &begin->memsets, &end->memsets);
    sum_diff(&d.syncs, &begin->syncs, &end->syncs);
    d.dropped = end->dropped - begin->dropped;
    d.buffers_refused = end->buffers_refused - begin->buffers_refused;
    d.ndevices = end->ndevices;
    for (int i = 0; i < end->ndevices; i++) { /* rows only grow, in the same order */
        d.devices[i].id = end->devices[i].id;
        d.devices[i].busy_ns =
            end->devices[i].busy_ns - (i < begin->ndevices ? begin->devices[i].busy_ns : 0);
    }
    *out = d;
}

static void sum_add(struct gpu_sum *total, const struct gpu_sum *d)
{
    total->count += d->count;
    total->bytes += d->bytes;
    total->ns += d->ns;
}

void gpu_snapshot_add(struct gpu_snapshot *total, const struct gpu_snapshot *d)
{
    total->kernel_launches += d->kernel_launches;
    total->kernel_ns += d->kernel_ns;
    for (int i = 0; i < CUPTI_MEMCPY_KINDS; i++)
        sum_add(&total->copies[i], &d->copies[i]);
    sum_add(&total->memsets, &d->memsets);
    sum_add(&total->syncs, &d->syncs);
    total->dropped += d->dropped;
    total->buffers_refused += d->buffers_refused;
    for (int i = 0; i < d->ndevices; i++) {
        int j = 0;
        while (j < total->ndevices && total->devices[j].id != d->devices[i].id)
            j++;
        if (j == total->ndevices) {
            if (j == GPU_TABLE_DEVICES)
                continue; /* cannot happen: both hold the table's devices */
            total->devices[total->ndevices++] =
                (__typeof__(total->devices[0])){d->devices[i].id, 0};
        }
        total->devices[j].busy_ns += d->devices[i].busy_ns;
    }
}

static int grow(struct gpu_kernel_counts *k, int n)
{
    if (n <= k->cap)
        return 0;
    struct gpu_kernel_count *r = realloc(k->row, (size_t)n * sizeof *r);
    if (!r)
        return -1;
    memset(r + k->cap, 0, (size_t)(n - k->cap) * sizeof *r);
    k->row = r;
    k->cap = n;
    return 0;
}

int gpu_kernels_take(const struct gpu_table *t, struct gpu_kernel_counts *k)
{
    if (grow(k, t->nkernels) != 0)
        return -1;
    for (int i = 0; i < t->nkernels; i++)
        k->row[i] = (struct gpu_kernel_count){t->kernels[i].launches, t->kernels[i].total_ns};
    k->n = t->nkernels;
    return 0;
}

int gpu_kernels_add_since(struct gpu_kernel_counts *total, const struct gpu_kernel_counts *begin,
                          const struct gpu_table *t)
{
    if (grow(total, t->nkernels) != 0)
        return -1;
    for (int i = 0; i < t->nkernels; i++) {
        const struct gpu_kernel_count *b = i < begin->n ? &begin->row[i] : NULL;
        total->row[i].launches += t->kernels[i].launches - (b ? b->launches : 0);
        total->row[i].ns += t->kernels[i].total_ns - (b ? b->ns : 0);
    }
    if (t->nkernels > total->n)
        total->n = t->nkernels;
    return 0;
}

void gpu_kernels_free(struct gpu_kernel_counts *k)
{
    free(k->row);
    *k = (struct gpu_kernel_counts){0, 0, NULL};
}

uint64_t gpu_table_busy_between(const struct gpu_table *t, uint32_t device, uint64_t begin,
                                uint64_t end, int *exact)
{
    *exact = 1;
    const struct gpu_device_row *d = NULL;
    for (int i = 0; i < t->ndevices && !d; i++)
        if (t->devices[i].id == device)
            d = &t->devices[i];
    if (!d || end <= begin)
        return 0;
    if (begin < d->settled_until)
        *exact = 0;
    uint64_t ns = 0;
    for (uint32_t i = 0; i < d->nbusy && d->busy[i].start < end; i++) {
        uint64_t s = d->busy[i].start > begin ? d->busy[i].start : begin;
        uint64_t e = d->busy[i].end < end ? d->busy[i].end : end;
        if (e > s)
            ns += e - s;
    }
    return ns;
}
