/* gpu_table.c: a process's GPU activity summed in bounded memory (gpu_table.h). */
#include "gpu_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "demangle.h"

void gpu_table_clear(struct gpu_table *t)
{
    memset(t, 0, sizeof *t);
}

/* FNV-1a over CUPTI's name, then device and stream: a kernel row's key. Rows are found by
 * key alone (a 64-bit collision between two kernels' names is not guarded against). */
static uint64_t kernel_key(const char *name, uint32_t device, uint32_t stream)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)(name ? name : ""); *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h = (h ^ device) * 1099511628211ull;
    return (h ^ stream) * 1099511628211ull;
}

static struct gpu_device_row *device_row(struct gpu_table *t, uint32_t id)
{
    for (int i = 0; i < t->ndevices; i++)
        if (t->devices[i].id == id)
            return &t->devices[i];
    if (t->ndevices == GPU_TABLE_DEVICES)
        return NULL;
    struct gpu_device_row *d = &t->devices[t->ndevices++];
    d->id = id;
    return d;
}

/* The earliest quarter of a full interval list retired into settled_ns. */
static void busy_retire(struct gpu_device_row *d)
{
    uint32_t n = GPU_BUSY_INTERVALS / 4;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t len = d->busy[i].end - d->busy[i].start;
        d->settled_ns += len;
        d->live_ns -= len;
    }
    d->settled_until = d->busy[n - 1].end;
    memmove(&d->busy[0], &d->busy[n], (d->nbusy - n) * sizeof d->busy[0]);
    d->nbusy -= n;
}

/* [start, end) added to the device's union of busy intervals. */
static void busy_add(struct gpu_device_row *d, uint64_t start, uint64_t end)
{
    if (start < d->settled_until)
        start = d->settled_until;
    if (end <= start)
        return;
    /* first interval ending at or after start: the ones before are untouched */
    uint32_t lo = 0, hi = d->nbusy;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d->busy[mid].end < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t last = lo; /* one past the intervals [start, end) touches */
    while (last < d->nbusy && d->busy[last].start <= end) {
        if (d->busy[last].start < start)
            start = d->busy[last].start;
        if (d->busy[last].end > end)
            end = d->busy[last].end;
        d->live_ns -= d->busy[last].end - d->busy[last].start;
        last++;
    }
    if (last == lo && d->nbusy == GPU_BUSY_INTERVALS) { /* a new interval, no room */
        busy_retire(d);
        busy_add(d, start, end);
        return;
    }
    /* replace busy[lo, last) by the one merged interval */
    memmove(&d->busy[lo + 1], &d->busy[last], (d->nbusy - last) * sizeof d->busy[0]);
    d->nbusy = d->nbusy - (last - lo) + 1;
    d->busy[lo].start = start;
    d->busy[lo].end = end;
    d->live_ns += end - start;
}

/* A row's name: CUPTI's demangled; one too long for the row cut and marked with its whole
 * name's hash ("...#" and 16 hex digits of FNV-1a over CUPTI's name), so two kernels whose
 * names share the row's length (Kokkos' functors' template arguments) stay two rows in
 * every output that keys kernels by name, and a reader sees the name was cut. */
static void row_name(char *out, const char *cupti_name)
{
    char whole[4096];
    papi_demangle(cupti_name, whole, sizeof whole);
    size_t n = strlen(whole);
    if (n < GPU_KERNEL_NAME_LEN) {
        memcpy(out, whole, n + 1);
        return;
    }
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)cupti_name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    const size_t keep = GPU_KERNEL_NAME_LEN - 1 - GPU_KERNEL_NAME_MARK;
    snprintf(out, GPU_KERNEL_NAME_LEN, "%.*s...#%016" PRIx64, (int)keep, whole, h);
}

/* The row of k's name, device and stream, found through the hash index or added. */
static struct gpu_kernel_row *kernel_row(struct gpu_table *t, const cupti_kernel_record *k)
{
    uint64_t key = kernel_key(k->name, k->device_id, k->stream_id);
    uint32_t slot = (uint32_t)(key % GPU_KERNEL_SLOTS);
    while (t->kernel_slot[slot]) {
        struct gpu_kernel_row *r = &t->kernels[t->kernel_slot[slot] - 1];
        if (r->key == key)
            return r;
        slot = (slot + 1) % GPU_KERNEL_SLOTS;
    }
    if (t->nkernels == GPU_TABLE_KERNELS)
        return NULL;
    struct gpu_kernel_row *r = &t->kernels[t->nkernels++];
    t->kernel_slot[slot] = (int16_t)t->nkernels;
    r->key = key;
    r->device = k->device_id;
    r->stream = k->stream_id;
    row_name(r->name, k->name ? k->name : "(unnamed kernel)");
    return r;
}

/* Its row's index, or -1 (untabled). */
static int file_kernel(struct gpu_table *t, const cupti_kernel_record *k, uint64_t start,
                       uint64_t end)
{
    struct gpu_device_row *d = device_row(t, k->device_id);
    struct gpu_kernel_row *r = d ? kernel_row(t, k) : NULL;
    if (d)
        busy_add(d, start, end);
    if (!r) {
        t->kernels_untabled++;
        return -1;
    }
    uint64_t ns = end - start;
    if (r->launches == 0 || ns < r->min_ns)
        r->min_ns = ns;
    if (ns > r->max_ns)
        r->max_ns = ns;
    r->launches++;
    r->total_ns += ns;
    memcpy(r->grid, &k->grid_x, sizeof r->grid);
    memcpy(r->block, &k->block_x, sizeof r->block);
    return (int)(r - t->kernels);
}

static void sum_add(struct gpu_sum *s, uint64_t bytes, uint64_t ns)
{
    s->count++;
    s->bytes += bytes;
    s->ns += ns;
}

/* A record's start and end on the traces' clock; 0 when it has none (not yet complete). */
static int record_times(const cupti_record_head *rec, int64_t offset, uint64_t *start,
                        uint64_t *end)
{
    uint64_t s = 0, e = 0;
    switch (rec->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        s = ((const cupti_kernel_record *)rec)->start;
        e = ((const cupti_kernel_record *)rec)->end;
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        s = ((const cupti_memcpy_record *)rec)->start;
        e = ((const cupti_memcpy_record *)rec)->end;
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        s = ((const cupti_memset_record *)rec)->start;
        e = ((const cupti_memset_record *)rec)->end;
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        s = ((const cupti_sync_record *)rec)->start;
        e = ((const cupti_sync_record *)rec)->end;
        break;
    default:
        return -1;
    }
    if (s == 0 || e < s)
        return 0;
    *start = s - (uint64_t)offset;
    *end = e - (uint64_t)offset;
    return 1;
}

int gpu_table_file(struct gpu_table *t, const cupti_record_head *rec, int64_t clock_offset)
{
    int row = -1;
    uint64_t start, end;
    if (rec->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) { /* a launch's region */
        gpu_attrib_link(&t->attrib, (const cupti_external_correlation_record *)rec);
        return -1;
    }
    int ok = record_times(rec, clock_offset, &start, &end);
    if (ok < 0) {
        t->other_records++;
        return -1;
    }
    if (ok == 0) {
        t->incomplete++;
        return -1;
    }
    t->records++;
    if (t->first_ns == 0 || start < t->first_ns)
        t->first_ns = start;
    if (end > t->last_ns)
        t->last_ns = end;
    switch (rec->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        row = file_kernel(t, (const cupti_kernel_record *)rec, start, end);
        gpu_attrib_kernel(&t->attrib, ((const cupti_kernel_record *)rec)->correlation_id,
                          end - start);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const cupti_memcpy_record *m = (const cupti_memcpy_record *)rec;
        unsigned kind = m->copy_kind < CUPTI_MEMCPY_KINDS ? m->copy_kind : 0;
        sum_add(&t->copies[kind], m->bytes, end - start);
        gpu_attrib_copy(&t->attrib, m->correlation_id, kind, m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const cupti_memset_record *m = (const cupti_memset_record *)rec;
        struct gpu_device_row *d = device_row(t, m->device_id);
        if (d)
            sum_add(&d->memset, m->bytes, end - start);
        gpu_attrib_memset(&t->attrib, m->correlation_id, m->bytes);
        break;
    }
    default: { /* CUPTI_ACTIVITY_KIND_SYNCHRONIZATION */
        const cupti_sync_record *y = (const cupti_sync_record *)rec;
        unsigned type = y->type > 0 && y->type < CUPTI_SYNC_TYPES ? (unsigned)y->type : 0;
        sum_add(&t->syncs[type], 0, end - start);
        break;
    }
    }
    return row;
}

uint64_t gpu_table_busy_ns(const struct gpu_table *t, uint32_t device)
{
    for (int i = 0; i < t->ndevices; i++)
        if (t->devices[i].id == device)
            return t->devices[i].settled_ns + t->devices[i].live_ns;
    return 0;
}

const char *gpu_copy_direction(unsigned kind)
{
    static const char *const words[CUPTI_MEMCPY_KINDS] = {
        [CUPTI_MEMCPY_KIND_UNKNOWN] = "unknown", [CUPTI_MEMCPY_KIND_HTOD] = "HtoD",
        [CUPTI_MEMCPY_KIND_DTOH] = "DtoH",       [CUPTI_MEMCPY_KIND_HTOA] = "HtoA",
        [CUPTI_MEMCPY_KIND_ATOH] = "AtoH",       [CUPTI_MEMCPY_KIND_ATOA] = "AtoA",
        [CUPTI_MEMCPY_KIND_ATOD] = "AtoD",       [CUPTI_MEMCPY_KIND_DTOA] = "DtoA",
        [CUPTI_MEMCPY_KIND_DTOD] = "DtoD",       [CUPTI_MEMCPY_KIND_HTOH] = "HtoH",
        [CUPTI_MEMCPY_KIND_PTOP] = "PtoP"};
    return kind < CUPTI_MEMCPY_KINDS ? words[kind] : words[0];
}

const char *gpu_sync_type(unsigned type)
{
    static const char *const words[CUPTI_SYNC_TYPES] = {
        [CUPTI_SYNC_UNKNOWN] = "unknown",
        [CUPTI_SYNC_EVENT_SYNCHRONIZE] = "event_synchronize",
        [CUPTI_SYNC_STREAM_WAIT_EVENT] = "stream_wait_event",
        [CUPTI_SYNC_STREAM_SYNCHRONIZE] = "stream_synchronize",
        [CUPTI_SYNC_CONTEXT_SYNCHRONIZE] = "context_synchronize"};
    return type < CUPTI_SYNC_TYPES ? words[type] : words[0];
}

const struct gpu_kernel_row *gpu_table_kernel(const struct gpu_table *t, const char *name,
                                              uint32_t device, uint32_t stream)
{
    for (int i = 0; i < t->nkernels; i++) {
        const struct gpu_kernel_row *r = &t->kernels[i];
        if (r->device == device && r->stream == stream && strcmp(r->name, name) == 0)
            return r;
    }
    return NULL;
}
