/* perf_ring.c: one sampling event's ring buffer: its mapping and the walk of its records
 * (perf_ring.h). The protocol is linux/perf_event.h's: the kernel publishes data_head after
 * writing the records before it (we load it with acquire: the smp_rmb() it asks for), and
 * takes data_tail as the end of what we have read (stored with release: our reads of the
 * records come before the kernel may write over them). Mapped writable, so the kernel
 * never overwrites unread records: when the ring is full it drops samples and tells how
 * many in a PERF_RECORD_LOST record. The records are walked by the one ring reader,
 * src-c/sampling/ring_walk.c (papi_run's rings too). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_ring.h"
#include "ring_walk.h"

void pe_ring_attr(struct perf_event_attr *attr)
{
    long page = sysconf(_SC_PAGESIZE);
    attr->sample_type = PERF_SAMPLE_IP;
    attr->watermark = 1;
    attr->wakeup_watermark = (uint32_t)((uint64_t)page * PE_RING_DATA_PAGES / 4);
}

void pe_ring_attr_clear(struct perf_event_attr *attr)
{
    attr->sample_type = 0;
    attr->watermark = 0;
    attr->wakeup_watermark = 0;
}

int pe_ring_map(struct pe_ring *r, int fd)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = page * (1 + PE_RING_DATA_PAGES);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        r->meta = NULL;
        return PAPI_ENOSUPP;
    }
    r->meta = p;
    r->len = len;
    /* data_offset and data_size since Linux 4.1; before, the ring follows the first page. */
    uint64_t off = r->meta->data_offset ? r->meta->data_offset : page;
    r->size = r->meta->data_size ? r->meta->data_size : page * PE_RING_DATA_PAGES;
    r->data = (unsigned char *)p + off;
    return PAPI_OK;
}

void pe_ring_unmap(struct pe_ring *r)
{
    if (r->meta)
        munmap(r->meta, r->len);
    r->meta = NULL;
    r->data = NULL;
}

void pe_ring_flush(struct pe_ring_sink *s)
{
    if (s->n > 0 || s->lost > 0)
        s->fn(s->arg, s->slot, s->ips, s->n, s->lost);
    s->told += s->lost;
    s->n = 0;
    s->lost = 0;
}

/* One record of the walk (ring_walk.c): a sample's address, or a loss's count. */
static void take_record(void *arg, const struct perf_event_header *h, uint64_t body)
{
    struct pe_ring_sink *s = arg;
    const unsigned char *data = s->data;
    if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof *h + sizeof(uint64_t)) {
        ring_copy(data, s->size, body, &s->ips[s->n], sizeof(uint64_t));
        if (++s->n == PE_RING_BATCH)
            pe_ring_flush(s);
    } else if (h->type == PERF_RECORD_LOST && h->size >= sizeof *h + 2 * sizeof(uint64_t)) {
        uint64_t id_lost[2]; /* the event's id, the samples lost */
        ring_copy(data, s->size, body, id_lost, sizeof id_lost);
        s->lost += id_lost[1];
    }
}

uint64_t pe_ring_parse(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head,
                       struct pe_ring_sink *s)
{
    s->data = data;
    s->size = size;
    return ring_walk(data, size, tail, head, take_record, s);
}

uint64_t pe_ring_drain(struct pe_ring *r, cmp_sample_fn fn, void *arg, int slot)
{
    struct pe_ring_sink sink;
    sink.fn = fn;
    sink.arg = arg;
    sink.slot = slot;
    sink.n = 0;
    sink.lost = 0;
    sink.told = 0;
    uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = r->meta->data_tail; /* only we write it */
    tail = pe_ring_parse(r->data, r->size, tail, head, &sink);
    __atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
    pe_ring_flush(&sink);
    return sink.told;
}
