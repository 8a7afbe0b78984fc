/* ring_walk.c: a perf_event ring's records walked (ring_walk.h). The caller loads
 * data_head with acquire before and stores data_tail with release after (the kernel's
 * protocol); this file only reads the bytes between them. */
#include <string.h>

#include "ring_walk.h"

void ring_copy(const unsigned char *data, uint64_t size, uint64_t pos, void *out, size_t len)
{
    uint64_t off = pos & (size - 1);
    size_t first = off + len <= size ? len : (size_t)(size - off);
    memcpy(out, data + off, first);
    if (first < len)
        memcpy((unsigned char *)out + first, data, len - first);
}

uint64_t ring_walk(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head,
                   ring_record_fn fn, void *arg)
{
    while (head - tail >= sizeof(struct perf_event_header)) {
        struct perf_event_header h;
        ring_copy(data, size, tail, &h, sizeof h);
        if (h.size < sizeof h || h.size > size)
            return head; /* not a record: nothing after it can be found */
        if (h.size > head - tail)
            break; /* not whole yet */
        fn(arg, &h, tail + sizeof h);
        tail += h.size;
    }
    return tail;
}
