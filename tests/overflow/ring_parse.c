/* ring_parse: the perf_event component's walk of a sample ring (perf_ring.c), on rings
 * filled in memory as the kernel fills them: samples handed on in order and in batches,
 * a record that wraps around the end of the ring, PERF_RECORD_LOST counts, other records
 * skipped, a record not yet whole at data_head left for the next walk, a header that
 * cannot be a record, and pe_ring_drain's data_tail. White box (linked to papi_static). */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_test.h"
#include "perf_ring.h"

#define RING 256 /* bytes: a small ring, so records wrap often */

static unsigned char ring[RING];

/* What the receiver got. */
static uint64_t got_ip[4096];
static int got_n, calls, max_batch, bad_slot;
static uint64_t got_lost;

static void receive(void *arg, int slot, const uint64_t *ips, int n, uint64_t lost)
{
    if (arg != (void *)ring || slot != 3)
        bad_slot = 1;
    for (int i = 0; i < n && got_n < 4096; i++)
        got_ip[got_n++] = ips[i];
    got_lost += lost;
    calls++;
    if (n > max_batch)
        max_batch = n;
}

static void reset_got(void)
{
    got_n = calls = max_batch = bad_slot = 0;
    got_lost = 0;
}

/* len bytes at ring position pos, wrapping. */
static void put(uint64_t pos, const void *src, size_t len)
{
    for (size_t i = 0; i < len; i++)
        ring[(pos + i) % RING] = ((const unsigned char *)src)[i];
}

static uint64_t put_sample(uint64_t pos, uint64_t ip)
{
    struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
                                  .size = sizeof h + sizeof ip};
    put(pos, &h, sizeof h);
    put(pos + sizeof h, &ip, sizeof ip);
    return pos + h.size;
}

static uint64_t put_lost(uint64_t pos, uint64_t lost)
{
    struct perf_event_header h = {.type = PERF_RECORD_LOST, .size = sizeof h + 16};
    uint64_t body[2] = {42, lost}; /* id, lost */
    put(pos, &h, sizeof h);
    put(pos + sizeof h, body, sizeof body);
    return pos + h.size;
}

static uint64_t put_throttle(uint64_t pos)
{
    struct perf_event_header h = {.type = PERF_RECORD_THROTTLE, .size = sizeof h + 24};
    uint64_t body[3] = {123456789, 42, 42}; /* time, id, stream_id */
    put(pos, &h, sizeof h);
    put(pos + sizeof h, body, sizeof body);
    return pos + h.size;
}

static struct pe_ring_sink sink(void)
{
    struct pe_ring_sink s;
    memset(&s, 0, sizeof s);
    s.fn = receive;
    s.arg = ring;
    s.slot = 3;
    return s;
}

/* Samples across the end of the ring, in several turns of it, walked in steps. */
static void wrap_around(void)
{
    reset_got();
    /* Start 8 bytes before the end of the ring, a few turns in: the first record's
     * header is at the end, its address at the start. */
    uint64_t start = 5 * RING - 8, tail = start, head = start;
    uint64_t next_ip = 0x400000;
    for (int turn = 0; turn < 40; turn++) {
        for (int k = 0; k < 10; k++) /* 160 bytes of the 256 */
            head = put_sample(head, next_ip++);
        struct pe_ring_sink s = sink();
        tail = pe_ring_parse(ring, RING, tail, head, &s);
        pe_ring_flush(&s);
        CHECK(tail == head, "turn %d: tail %llu, head %llu", turn, (unsigned long long)tail,
              (unsigned long long)head);
    }
    CHECK(got_n == 400, "%d samples of 400", got_n);
    int in_order = 1;
    for (int i = 0; i < got_n; i++)
        in_order &= got_ip[i] == 0x400000 + (uint64_t)i;
    CHECK(in_order, "the addresses are not the ones written, in order");
    CHECK(!bad_slot, "the receiver got another arg or slot");
    CHECK(got_lost == 0, "%llu lost with none written", (unsigned long long)got_lost);
}

/* LOST records add up; other kinds are skipped; samples around them stay in order. */
static void lost_and_others(void)
{
    reset_got();
    uint64_t tail = 3 * RING - 20, head = tail;
    head = put_sample(head, 1);
    head = put_lost(head, 7);
    head = put_throttle(head);
    head = put_sample(head, 2);
    head = put_lost(head, 1000000);
    head = put_sample(head, 3);
    struct pe_ring_sink s = sink();
    tail = pe_ring_parse(ring, RING, tail, head, &s);
    pe_ring_flush(&s);
    CHECK(tail == head, "the walk stopped %llu bytes early", (unsigned long long)(head - tail));
    CHECK(got_n == 3 && got_ip[0] == 1 && got_ip[1] == 2 && got_ip[2] == 3,
          "samples around the other records: %d", got_n);
    CHECK(got_lost == 1000007, "lost %llu, want 1000007", (unsigned long long)got_lost);
    CHECK(calls == 1, "%d calls for one batch", calls);
}

/* A record not whole at head (head inside it, even inside its header) stays for the next
 * walk, which hands it on once head passes it. */
static void partial_record(void)
{
    reset_got();
    uint64_t tail = 7 * RING - 12, head = tail;
    head = put_sample(head, 0xA);
    uint64_t partial = head;
    uint64_t end = put_sample(head, 0xB);
    for (uint64_t cut = partial; cut < end; cut++) {
        struct pe_ring_sink s = sink();
        uint64_t t = pe_ring_parse(ring, RING, partial, cut, &s);
        pe_ring_flush(&s);
        CHECK(t == partial, "head %llu bytes into the record: tail moved to %llu",
              (unsigned long long)(cut - partial), (unsigned long long)t);
    }
    CHECK(got_n == 0, "%d samples from a record that is not whole", got_n);
    struct pe_ring_sink s = sink();
    tail = pe_ring_parse(ring, RING, tail, partial + 3, &s); /* first record, 3 bytes more */
    pe_ring_flush(&s);
    CHECK(tail == partial && got_n == 1 && got_ip[0] == 0xA, "first record: tail %llu, %d samples",
          (unsigned long long)tail, got_n);
    s = sink();
    tail = pe_ring_parse(ring, RING, tail, end, &s);
    pe_ring_flush(&s);
    CHECK(tail == end && got_n == 2 && got_ip[1] == 0xB, "second record once whole: %d samples",
          got_n);
}

/* More than a batch: handed on PE_RING_BATCH at a time, none lost between batches (a
 * larger ring, as the kernel's). */
static void batches(void)
{
    reset_got();
    static unsigned char big[8192];
    uint64_t tail = 0, head = 0;
    int n = 3 * PE_RING_BATCH + 5;
    for (int i = 0; i < n; i++) {
        struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 16};
        uint64_t ip = 0x1000 + (uint64_t)i;
        memcpy(big + head, &h, sizeof h);
        memcpy(big + head + sizeof h, &ip, sizeof ip);
        head += 16;
    }
    struct pe_ring_sink s = sink();
    tail = pe_ring_parse(big, sizeof big, tail, head, &s);
    pe_ring_flush(&s);
    CHECK(tail == head && got_n == n, "%d of %d samples", got_n, n);
    CHECK(calls == 4 && max_batch == PE_RING_BATCH, "%d calls, largest batch %d", calls, max_batch);
    CHECK(got_ip[n - 1] == 0x1000 + (uint64_t)(n - 1), "last address %#llx",
          (unsigned long long)got_ip[n - 1]);
}

/* A header that cannot be a record (size 0, or larger than the ring) ends the walk at
 * head instead of looping on it. */
static void not_a_record(void)
{
    reset_got();
    uint64_t tail = 0, head = 0;
    head = put_sample(head, 0x77);
    struct perf_event_header zero = {.type = PERF_RECORD_SAMPLE, .size = 0};
    put(head, &zero, sizeof zero);
    head += 64;
    struct pe_ring_sink s = sink();
    tail = pe_ring_parse(ring, RING, tail, head, &s);
    pe_ring_flush(&s);
    CHECK(tail == head && got_n == 1, "size-0 header: tail %llu of %llu, %d samples",
          (unsigned long long)tail, (unsigned long long)head, got_n);
    struct perf_event_header huge = {.type = PERF_RECORD_SAMPLE, .size = 60000};
    put(head, &huge, sizeof huge);
    s = sink();
    tail = pe_ring_parse(ring, RING, head, head + 100, &s);
    CHECK(tail == head + 100, "header larger than the ring: tail %llu",
          (unsigned long long)tail);
}

/* pe_ring_drain on a mapping laid out as the kernel's: data_head read, data_tail written. */
static void drain(void)
{
    reset_got();
    static union {
        struct perf_event_mmap_page meta;
        unsigned char bytes[4096 + RING];
    } map;
    memset(&map, 0, sizeof map);
    struct pe_ring r = {.meta = &map.meta, .len = sizeof map, .data = map.bytes + 4096,
                        .size = RING};
    uint64_t head = 9 * RING - 4;
    map.meta.data_tail = head;
    memset(ring, 0, sizeof ring);
    for (int i = 0; i < 12; i++)
        head = put_sample(head, 0x9000 + (uint64_t)i);
    head = put_lost(head, 5);
    memcpy(r.data, ring, RING);
    map.meta.data_head = head;
    pe_ring_drain(&r, receive, ring, 3);
    CHECK(map.meta.data_tail == head, "data_tail %llu, data_head %llu",
          (unsigned long long)map.meta.data_tail, (unsigned long long)head);
    CHECK(got_n == 12 && got_ip[11] == 0x900b && got_lost == 5, "%d samples, %llu lost", got_n,
          (unsigned long long)got_lost);
    pe_ring_drain(&r, receive, ring, 3); /* nothing new: no call */
    CHECK(calls == 1, "%d calls", calls);
}

int main(void)
{
    wrap_around();
    lost_and_others();
    partial_record();
    batches();
    not_a_record();
    drain();
    return test_done("ring_parse");
}
