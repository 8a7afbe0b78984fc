/* gpu_attrib.c: GPU work summed by the region that launched it (gpu_attrib.h). */
#include "gpu_attrib.h"

#include <stddef.h>

void gpu_attrib_link(struct gpu_attrib *a, const cupti_external_correlation_record *r)
{
    if (r->external_kind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 || r->correlation_id == 0)
        return; /* another tool's kind: not ours */
    a->link[r->correlation_id % GPU_ATTRIB_LINKS].cid = r->correlation_id;
    a->link[r->correlation_id % GPU_ATTRIB_LINKS].tag = r->external_id;
}

/* The slot of tag, or of the empty slot where it would go; -1 when the probe found
 * neither. */
static long slot_of(const struct gpu_attrib *a, uint64_t tag)
{
    uint64_t h = tag * 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < GPU_ATTRIB_TAGS; i++) {
        long k = (long)((h + i) % GPU_ATTRIB_TAGS);
        if (a->sum[k].tag == tag || a->sum[k].tag == 0)
            return k;
    }
    return -1;
}

static struct gpu_attrib_sum *find(struct gpu_attrib *a, uint64_t tag)
{
    long k = slot_of(a, tag);
    if (k < 0)
        return NULL;
    if (a->sum[k].tag == 0) {
        if (a->ntags >= GPU_ATTRIB_TAGS / 2) /* kept half full: short probes */
            return NULL;
        a->sum[k].tag = tag;
        a->ntags++;
    }
    return &a->sum[k];
}

/* The sums of the tag that launched cid, or NULL (counted as unattributed or untabled). */
static struct gpu_attrib_sum *of(struct gpu_attrib *a, uint32_t cid)
{
    if (cid == 0 || a->link[cid % GPU_ATTRIB_LINKS].cid != cid) {
        a->unattributed++;
        return NULL;
    }
    struct gpu_attrib_sum *s = find(a, a->link[cid % GPU_ATTRIB_LINKS].tag);
    if (!s)
        a->untabled++;
    return s;
}

void gpu_attrib_kernel(struct gpu_attrib *a, uint32_t cid, uint64_t ns)
{
    struct gpu_attrib_sum *s = of(a, cid);
    if (s) {
        s->kernel_launches++;
        s->kernel_ns += ns;
    }
}

void gpu_attrib_copy(struct gpu_attrib *a, uint32_t cid, unsigned kind, uint64_t bytes)
{
    struct gpu_attrib_sum *s = of(a, cid);
    if (s) {
        s->copies[kind < CUPTI_MEMCPY_KINDS ? kind : 0][0]++;
        s->copies[kind < CUPTI_MEMCPY_KINDS ? kind : 0][1] += bytes;
    }
}

void gpu_attrib_memset(struct gpu_attrib *a, uint32_t cid, uint64_t bytes)
{
    struct gpu_attrib_sum *s = of(a, cid);
    if (s) {
        s->memsets++;
        s->memset_bytes += bytes;
    }
}

const struct gpu_attrib_sum *gpu_attrib_get(const struct gpu_attrib *a, uint64_t tag)
{
    long k = tag ? slot_of(a, tag) : -1;
    return k >= 0 && a->sum[k].tag == tag ? &a->sum[k] : NULL;
}
