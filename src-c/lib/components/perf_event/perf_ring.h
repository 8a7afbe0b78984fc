/* perf_ring.h: the sample buffer the kernel fills for one sampling event (perf_ring.c), and
 * the thread that empties the buffers of running event sets when the kernel says they
 * fill up (perf_sampler.c). Not seen outside this component.
 *
 * A sampling event records its instruction address (PERF_SAMPLE_IP) at every overflow
 * into a ring of 2^n pages mapped after the event's first page (struct
 * perf_event_mmap_page: data_head, written by the kernel, data_tail, by us). Nothing
 * signals the process per sample: the kernel wakes the poll()ers of the event once a
 * quarter of the ring is written (watermark), and the sampler thread, which waits in
 * epoll on every ring, empties them into the receiver the core named (cmp_sample_fn).
 * PAPI_read, PAPI_stop and cleanup empty them too, in the calling thread. Records of the
 * kind PERF_RECORD_LOST (the ring was full) are counted and handed to the receiver with
 * the samples: never dropped silently. */
#ifndef PERF_RING_H
#define PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "component.h"

#define PE_RING_DATA_PAGES 8  /* a power of 2: 32 KB, 2048 samples with 4 KB pages */
#define PE_RING_BATCH      64 /* addresses handed to the receiver per call */

struct pe_ring {
    struct perf_event_mmap_page *meta; /* the event's first page; NULL: no ring */
    size_t len;                        /* bytes mapped */
    unsigned char *data;               /* the ring itself */
    uint64_t size;                     /* its bytes, a power of 2 */
};

/* What a drain hands on: the receiver, the slot it names, the addresses gathered and the
 * samples lost since the last call. */
struct pe_ring_sink {
    cmp_sample_fn fn;
    void *arg;
    int slot;
    int n;
    uint64_t lost;
    uint64_t told; /* lost samples handed on so far */
    uint64_t ips[PE_RING_BATCH];
    const unsigned char *data; /* the ring being walked (pe_ring_parse sets them) */
    uint64_t size;
};

/* The attribute bits of an event that samples into a ring: its address per sample, the
 * wakeups at a quarter of the ring. */
PAPI_INTERNAL void pe_ring_attr(struct perf_event_attr *attr);
/* Clear them again (the event only counts, or samples by signal). */
PAPI_INTERNAL void pe_ring_attr_clear(struct perf_event_attr *attr);
/* Map fd's ring (PAPI_OK), or PAPI_ENOSUPP with r->meta NULL (the kernel refused: the
 * locked-memory limit of perf_event_mlock_kb, or no such mapping). */
PAPI_INTERNAL int pe_ring_map(struct pe_ring *r, int fd);
PAPI_INTERNAL void pe_ring_unmap(struct pe_ring *r);

/* Walk the records between tail and head of a ring of size bytes (a power of 2; records
 * may wrap around its end): each sample's address goes to sink (handed on every
 * PE_RING_BATCH), each PERF_RECORD_LOST adds its count to sink->lost, other records are
 * skipped. Returns the new tail: a record not yet whole at head stays for the next walk;
 * a header that cannot be a record (shorter than itself, longer than the ring) makes the
 * walk give up on the rest, up to head. Async-signal-safe. */
PAPI_INTERNAL uint64_t pe_ring_parse(const unsigned char *data, uint64_t size, uint64_t tail,
                                     uint64_t head, struct pe_ring_sink *sink);
/* Hand what sink holds to its receiver (when it holds anything). */
PAPI_INTERNAL void pe_ring_flush(struct pe_ring_sink *sink);
/* Empty one ring into its receiver: data_head read with acquire, the records walked,
 * data_tail stored with release (linux/perf_event.h's protocol), then the sink flushed.
 * Returns the lost samples it told of. */
PAPI_INTERNAL uint64_t pe_ring_drain(struct pe_ring *r, cmp_sample_fn fn, void *arg, int slot);

#endif
