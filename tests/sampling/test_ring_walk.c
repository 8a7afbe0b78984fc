/* test_ring_walk: src-c/sampling/ring_walk.c, white box, on a ring filled in memory as the
 * kernel fills it: every whole record handed on in order with its body's position (long
 * records as papi_run's stacks are, wrapping around the ring's end, read back whole with
 * ring_copy), a record not yet whole at head left for the next walk, and a header that
 * cannot be a record giving up on the rest (papi_run's own walk stopped there for good). */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#include "papi_test.h"
#include "ring_walk.h"

#define RING 512

static unsigned char ring[RING];
static uint64_t seen[64];
static int nseen, bad_body;

static void put(uint64_t pos, const void *src, size_t len)
{
    for (size_t i = 0; i < len; i++)
        ring[(pos + i) % RING] = ((const unsigned char *)src)[i];
}

/* A record of type with n words of body, each word k + its index. */
static uint64_t put_record(uint64_t pos, uint32_t type, int n, uint64_t k)
{
    struct perf_event_header h = {.type = type, .size = (uint16_t)(sizeof h + 8 * (size_t)n)};
    put(pos, &h, sizeof h);
    for (int i = 0; i < n; i++) {
        uint64_t v = k + (uint64_t)i;
        put(pos + sizeof h + 8 * (uint64_t)i, &v, sizeof v);
    }
    return pos + h.size;
}

static void take(void *arg, const struct perf_event_header *h, uint64_t body)
{
    uint64_t words[64];
    size_t n = (h->size - sizeof *h) / 8;
    (void)arg;
    ring_copy(ring, RING, body, words, n * 8);
    for (size_t i = 1; i < n; i++)
        bad_body |= words[i] != words[0] + i;
    if (nseen < 64)
        seen[nseen++] = h->type * 1000000u + words[0];
}

int main(void)
{
    /* Records of 5 to 40 words from position 400: they wrap around the 512 bytes. */
    uint64_t tail = 400, pos = tail;
    pos = put_record(pos, PERF_RECORD_SAMPLE, 40, 100); /* 328 bytes: wraps */
    pos = put_record(pos, PERF_RECORD_LOST, 2, 200);
    pos = put_record(pos, PERF_RECORD_SAMPLE, 5, 300);
    uint64_t whole = pos;
    pos = put_record(pos, PERF_RECORD_SAMPLE, 9, 400); /* head falls inside it */
    uint64_t got = ring_walk(ring, RING, tail, pos - 8, take, NULL);
    CHECK(got == whole, "tail %llu, expected %llu (the partial record kept)",
          (unsigned long long)got, (unsigned long long)whole);
    CHECK(nseen == 3 && seen[0] == PERF_RECORD_SAMPLE * 1000000u + 100 &&
              seen[1] == PERF_RECORD_LOST * 1000000u + 200 &&
              seen[2] == PERF_RECORD_SAMPLE * 1000000u + 300,
          "records seen: %d", nseen);
    CHECK(!bad_body, "a body read back wrong across the ring's end");
    nseen = 0;
    got = ring_walk(ring, RING, got, pos, take, NULL); /* the rest, once whole */
    CHECK(got == pos && nseen == 1 && seen[0] == PERF_RECORD_SAMPLE * 1000000u + 400,
          "second walk: tail %llu of %llu, %d records", (unsigned long long)got,
          (unsigned long long)pos, nseen);
    /* A header shorter than itself: the walk ends at head, nothing after it handed on. */
    struct perf_event_header bad = {.type = PERF_RECORD_SAMPLE, .size = 4};
    put(pos, &bad, sizeof bad);
    uint64_t head = put_record(pos + 8, PERF_RECORD_SAMPLE, 3, 500);
    nseen = 0;
    got = ring_walk(ring, RING, pos, head, take, NULL);
    CHECK(got == head && nseen == 0, "bad header: tail %llu of %llu, %d records",
          (unsigned long long)got, (unsigned long long)head, nseen);
    /* Longer than the ring: the same. */
    bad.size = RING + 8;
    put(head, &bad, sizeof bad);
    got = ring_walk(ring, RING, head, head + 64, take, NULL);
    CHECK(got == head + 64 && nseen == 0, "oversized header: tail %llu", (unsigned long long)got);
    CHECK(ring_walk(ring, RING, 7, 7, take, NULL) == 7, "empty ring moved");
    return test_done("test_ring_walk");
}
