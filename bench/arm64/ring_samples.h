/* ring_samples.h: the sample records in a perf_event ring (the metadata page, then the
 * data pages), for the arm64 benches that measure the kernel's sampling floor
 * (bench_paths, bench_sample_ring). Each maps more data pages than its run fills: the
 * ring never wraps, its records lie from offset 0 to data_head. */
#ifndef RING_SAMPLES_H
#define RING_SAMPLES_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <unistd.h>

static inline long ring_samples(const void *map)
{
    const struct perf_event_mmap_page *m = map;
    const unsigned char *data = (const unsigned char *)map + sysconf(_SC_PAGESIZE);
    uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), n = 0;
    for (uint64_t t = 0; t < head;) {
        const struct perf_event_header *h = (const void *)(data + t);
        if (!h->size) /* a torn record: nothing after it is readable */
            break;
        n += h->type == PERF_RECORD_SAMPLE;
        t += h->size;
    }
    return (long)n;
}

#endif
