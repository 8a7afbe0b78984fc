/* ring_walk.h: the one reader of a perf_event sample ring's records (ring_walk.c), for the
 * perf_event component's rings (perf_ring.c) and papi_run's per-thread rings
 * (run_sample_ring.c). linux/perf_event.h's protocol: records between data_tail and
 * data_head, in a ring of 2^n bytes, a record possibly wrapping around its end. */
#ifndef PAPI_RING_WALK_H
#define PAPI_RING_WALK_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

/* A record found: its header, and where its body (h->size - sizeof *h bytes) starts in the
 * ring (for ring_copy). */
typedef void (*ring_record_fn)(void *arg, const struct perf_event_header *h, uint64_t body);

/* len bytes at ring position pos (any position: taken modulo size) into out, across the
 * end of the ring if need be. Async-signal-safe. */
__attribute__((visibility("hidden"))) void ring_copy(const unsigned char *data, uint64_t size,
                                                     uint64_t pos, void *out, size_t len);
/* Walks the records between tail and head of a ring of size bytes (a power of 2), handing
 * each whole one to fn. Returns the new tail: a record not yet whole at head stays for the
 * next walk; a header that cannot be a record (shorter than itself, longer than the ring)
 * makes the walk give up on the rest, up to head. Async-signal-safe (fn permitting). */
__attribute__((visibility("hidden"))) uint64_t ring_walk(const unsigned char *data, uint64_t size,
                                                         uint64_t tail, uint64_t head,
                                                         ring_record_fn fn, void *arg);

#endif
