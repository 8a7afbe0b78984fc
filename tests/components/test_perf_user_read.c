/* test_perf_user_read: the user-space counter read (perf_user_read.h) on
 * perf_event_mmap_page images filled in memory, with the counter and timestamp
 * instructions replaced by functions that return given values. Exact numbers: the
 * fallbacks, sign extension of a pmc_width-bit raw value plus offset, a 32-bit wrap, the
 * seqlock retry when lock changes during the read, the times as given and extrapolated
 * through time_offset/time_mult/time_shift (and time_cycles/time_mask). Finally a live
 * software event, whose page must say "use read()" (index 0). */
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi_test.h"
#include "perf_user_read.h"
#include "test_perf_open.h"

static struct perf_event_mmap_page page;
static uint64_t raw_values[2]; /* what the fake counter returns on call 1, 2, ... */
static int counter_calls;
static uint32_t last_index;
static int bump_lock_on_first_call;
static uint64_t clock_value;

static uint64_t fake_counter(uint32_t index)
{
    last_index = index;
    uint64_t v = raw_values[counter_calls < 2 ? counter_calls : 1];
    if (counter_calls == 0 && bump_lock_on_first_call)
        page.lock += 2; /* the kernel updated the page meanwhile */
    counter_calls++;
    return v;
}

static uint64_t fake_clock(void)
{
    return clock_value;
}

/* A page that allows a user read; times as given (no extrapolation: delta 0). */
static void reset_page(void)
{
    memset(&page, 0, sizeof page);
    page.lock = 4;
    page.index = 3;
    page.capabilities = PERF_USER_CAP_RDPMC | PERF_USER_CAP_TIME;
    page.pmc_width = 48;
    page.time_enabled = 5000;
    page.time_running = 3000;
    page.time_mult = 1;
    clock_value = 0;
    counter_calls = 0;
    bump_lock_on_first_call = 0;
    raw_values[0] = raw_values[1] = 0;
}

static int read_page(uint64_t *c, uint64_t *e, uint64_t *r)
{
    *c = *e = *r = 0xdeadbeef;
    return perf_user_read_clocked(&page, fake_counter, fake_clock, c, e, r);
}

static void test_fallbacks(void)
{
    uint64_t c, e, r;
    reset_page();
    page.index = 0;
    CHECK(read_page(&c, &e, &r) == 0, "index 0 must fall back to read()");
    CHECK(counter_calls == 0 && c == 0xdeadbeef, "no counter read, outputs untouched");
    CHECK(perf_user_read(&page, &c, &e, &r) == 0, "production path, index 0");

    reset_page();
    page.capabilities = PERF_USER_CAP_TIME;
    CHECK(read_page(&c, &e, &r) == 0, "cap_user_rdpmc clear must fall back");
    CHECK(perf_user_read(&page, &c, &e, &r) == 0, "production path, cap_user_rdpmc clear");

    reset_page();
    page.capabilities = PERF_USER_CAP_RDPMC;
    CHECK(read_page(&c, &e, &r) == 0, "cap_user_time clear must fall back (stale times)");
    CHECK(counter_calls == 0, "no counter read on fallback");
}

static void test_sign_extension(void)
{
    uint64_t c, e, r;
    reset_page();
    page.offset = 1000;
    raw_values[0] = UINT64_C(0xFFFFFFFFFFF0); /* 48 bits, bit 47 set: -16 */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 984);
    CHECK(last_index == 3 && counter_calls == 1, "index %u, calls %d", last_index, counter_calls);
    CHECK_EQ_LL(e, 5000); /* time_running < time_enabled, as given (delta 0) */
    CHECK_EQ_LL(r, 3000);

    /* garbage above the width is ignored; the largest negative value */
    reset_page();
    page.offset = (INT64_C(1) << 47) + 5;
    raw_values[0] = UINT64_C(0xABCD800000000000);
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 5);

    /* bit 47 clear: positive raw value */
    reset_page();
    page.offset = -100;
    raw_values[0] = UINT64_C(0x7FFFFFFFFFFF);
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK(c == UINT64_C(0x7FFFFFFFFFFF) - 100, "got %llu", (unsigned long long)c);
}

static void test_32bit_wrap(void)
{
    uint64_t c, e, r;
    reset_page();
    page.pmc_width = 32;
    page.offset = INT64_C(0x100000010);
    raw_values[0] = UINT64_C(0xFFFFFFF0); /* -16 in 32 bits */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK(c == UINT64_C(0x100000000), "got %#llx", (unsigned long long)c);

    /* the kernel starts the counter at -2^31 (0x80000000) with the count at 1000000:
     * offset = 1000000 + 2^31; bits above the width are not part of the value */
    reset_page();
    page.pmc_width = 32;
    page.offset = 1000000 + INT64_C(0x80000000);
    raw_values[0] = UINT64_C(0xFFFF000080000010); /* 16 events later */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 1000016);
    reset_page();
    page.pmc_width = 32;
    page.offset = 1000000 + INT64_C(0x80000000);
    raw_values[0] = UINT64_C(0xFFFFFFFF); /* 2^31 - 1 events later, just before the wrap */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 1000000 + INT64_C(0x7FFFFFFF));
}

static void test_lock_retry(void)
{
    uint64_t c, e, r;
    reset_page();
    page.offset = 7;
    raw_values[0] = 111; /* read while the kernel rewrote the page: discarded */
    raw_values[1] = 222;
    bump_lock_on_first_call = 1;
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK(counter_calls == 2, "the read retried once: %d counter reads", counter_calls);
    CHECK_EQ_LL(c, 229);
    CHECK(page.lock == 6, "lock %u", page.lock);
}

static void test_time_extrapolation(void)
{
    uint64_t c, e, r;
    reset_page();
    page.offset = 40;
    raw_values[0] = 2;
    page.time_shift = 10;
    page.time_mult = 1536; /* 1.5 ns per cycle */
    page.time_offset = (uint64_t)-1000000;
    clock_value = 2000000; /* 2000000 cycles = 3000000 ns; minus 1000000: 2000000 ns */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 42);
    CHECK_EQ_LL(e, 5000 + 2000000);
    CHECK_EQ_LL(r, 3000 + 2000000);

    /* short counter (arm64, 56 bits): the clock wrapped past time_cycles */
    reset_page();
    page.capabilities |= PERF_USER_CAP_TIME_SHORT;
    page.time_cycles = UINT64_C(0x00FFFFFFFFFFFF00);
    page.time_mask = (UINT64_C(1) << 56) - 1;
    page.time_mult = 1;
    page.time_shift = 0;
    page.time_offset = (uint64_t)0 - UINT64_C(0x0100000000000100) + 700;
    clock_value = 0x100; /* 0x200 cycles after time_cycles */
    CHECK(read_page(&c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(e, 5000 + 700); /* cyc = 0x0100000000000100: delta = 700 */
    CHECK_EQ_LL(r, 3000 + 700);
}

/* perf_user_read_with uses the real clock: the count is exact, both times grow by the
 * same delta, so their difference stays what the page says. */
static void test_with_real_clock(void)
{
    uint64_t c, e, r;
    reset_page();
    page.offset = 10;
    raw_values[0] = 32;
    CHECK(perf_user_read_with(&page, fake_counter, &c, &e, &r) == 1, "user read allowed");
    CHECK_EQ_LL(c, 42);
    CHECK_EQ_LL(e - r, 2000);
    page.index = 0;
    CHECK(perf_user_read_with(&page, fake_counter, &c, &e, &r) == 0, "index 0");
}

/* A real software event: never on a hardware counter, so its page says index 0. */
static void test_live_software_event(void)
{
    int fd = test_perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0);
    if (fd < 0) {
        printf("note: perf_event_open refused (live check not run)\n");
        return;
    }
    long pagesz = sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, (size_t)pagesz, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED, "mmap of the event page");
    if (m != MAP_FAILED) {
        uint64_t c, e, r;
        const struct perf_event_mmap_page *pc = m;
        CHECK(pc->index == 0, "software event index %u", pc->index);
        CHECK(perf_user_read(pc, &c, &e, &r) == 0, "software event must use read()");
        munmap(m, (size_t)pagesz);
    }
    close(fd);
}

int main(void)
{
    test_fallbacks();
    test_sign_extension();
    test_32bit_wrap();
    test_lock_retry();
    test_time_extrapolation();
    test_with_real_clock();
    test_live_software_event();
    return test_done("test_perf_user_read");
}
