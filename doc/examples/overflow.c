/* Example: act every 10 page faults: a handler of our own, then a histogram of where in
 * the program they happened (profil, and sprofil with an overflow bucket); last, a handler
 * called 200 times per second of CPU time that takes the call chain of each overflow, and
 * the rate it ran at (extensions of this library).
 * Shows: PAPI_overflow PAPI_get_overflow_event_index PAPI_profil PAPI_sprofil
 * PAPI_overflow_frequency PAPI_get_overflow_callchain PAPI_get_overflow_rate */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int calls, index_ok;
static volatile int clock_calls, chains_ok;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    int idx[2], n = 2;
    (void)address, (void)context;
    calls++;
    /* Which events of the set overflowed: their positions in the set. */
    if (PAPI_get_overflow_event_index(EventSet, overflow_vector, idx, &n) == PAPI_OK && n == 1 &&
        idx[0] == 0)
        index_ok++;
}

/* Called about 200 times per second of CPU time: the call chain starts at address. */
static void clock_handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    void *pcs[16];
    (void)EventSet, (void)overflow_vector, (void)context;
    clock_calls++;
    if (PAPI_get_overflow_callchain(pcs, 16) >= 1 && pcs[0] == address)
        chains_ok++;
}

static void spin_cpu(double seconds)
{
    struct timespec ts;
    double now = 0, end = -1;
    volatile double x = 1.0;
    while (now < end || end < 0) {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        now = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
        if (end < 0)
            end = now + seconds;
        for (int i = 0; i < 200000; i++) /* user time: samples in the kernel are dropped */
            x = x * 1.0000001;
    }
}

static void touch_pages(long n)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        exit(1);
    madvise(p, n * page, MADV_NOHUGEPAGE); /* 4 KiB pages even with THP "always" */
    for (long i = 0; i < n; i++)
        p[i * page] = 1;
    munmap(p, n * page);
}

static unsigned long sum(const unsigned short *b, size_t n)
{
    unsigned long s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i];
    return s;
}

static void check(int ret, const char *call)
{
    if (ret != PAPI_OK) {
        PAPI_perror(call);
        exit(1);
    }
}

int main(void)
{
    int es = PAPI_NULL, code;
    long long faults;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    check(PAPI_create_eventset(&es), "PAPI_create_eventset");
    check(PAPI_event_name_to_code("perf::PAGE-FAULTS", &code), "PAPI_event_name_to_code");
    check(PAPI_add_event(es, code), "PAPI_add_event");

    check(PAPI_overflow(es, code, 10, 0, handler), "PAPI_overflow"); /* every 10 */
    check(PAPI_start(es), "PAPI_start");
    touch_pages(100);
    check(PAPI_stop(es, &faults), "PAPI_stop");
    check(PAPI_overflow(es, code, 0, 0, NULL), "PAPI_overflow"); /* threshold 0: off */
    printf("overflow: %lld page faults, handler called %d times, event index right %d times\n",
           faults, calls, index_ok);

    /* The program's text, one 16-bit bucket per 2 bytes of it (scale 0x10000). */
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    if (!exe)
        return 1;
    vptr_t start = exe->address_info.text_start;
    size_t len = (size_t)((char *)exe->address_info.text_end - (char *)start);
    unsigned short *buf = calloc(len / 2 + 1, sizeof *buf), outside = 0;
    check(PAPI_profil(buf, (unsigned)(len / 2 * sizeof *buf), start, 0x10000, es, code, 10, 0),
          "PAPI_profil");
    check(PAPI_start(es), "PAPI_start");
    touch_pages(100);
    check(PAPI_stop(es, &faults), "PAPI_stop");
    check(PAPI_profil(buf, (unsigned)(len / 2 * sizeof *buf), start, 0x10000, es, code, 0, 0),
          "PAPI_profil");
    printf("profil: %lu samples in the program's text\n", sum(buf, len / 2));

    /* The same with sprofil: the text, and one bucket for samples anywhere else. */
    PAPI_sprofil_t regions[2] = {
        {.pr_base = buf, .pr_size = (unsigned)(len / 2 * sizeof *buf), .pr_off = start,
         .pr_scale = 0x10000},
        {.pr_base = &outside, .pr_size = sizeof outside, .pr_off = 0, .pr_scale = 0x2},
    };
    for (size_t i = 0; i < len / 2; i++)
        buf[i] = 0;
    check(PAPI_sprofil(regions, 2, es, code, 10, PAPI_PROFIL_POSIX), "PAPI_sprofil");
    check(PAPI_start(es), "PAPI_start");
    touch_pages(100);
    check(PAPI_stop(es, &faults), "PAPI_stop");
    check(PAPI_sprofil(regions, 2, es, code, 0, PAPI_PROFIL_POSIX), "PAPI_sprofil");
    printf("sprofil: %lu samples in the text, %u elsewhere\n", sum(buf, len / 2), outside);
    free(buf);

    /* Frequency mode: the kernel picks the task clock's period for 200 calls a second. */
    int fs = PAPI_NULL, clk;
    long long ns;
    check(PAPI_create_eventset(&fs), "PAPI_create_eventset");
    check(PAPI_event_name_to_code("perf::TASK-CLOCK", &clk), "PAPI_event_name_to_code");
    check(PAPI_add_event(fs, clk), "PAPI_add_event");
    check(PAPI_overflow_frequency(fs, clk, 200, 0, clock_handler), "PAPI_overflow_frequency");
    check(PAPI_start(fs), "PAPI_start");
    spin_cpu(0.5);
    check(PAPI_stop(fs, &ns), "PAPI_stop");
    double expected = (double)ns * 1e-9 * 200;
    printf("frequency: 200 calls per CPU second within 10%%: %s; call chains from the "
           "interrupted address: %s\n",
           clock_calls >= expected * 0.9 && clock_calls <= expected * 1.1 + 1 ? "yes" : "no",
           chains_ok == clock_calls && clock_calls > 0 ? "yes" : "no");
    /* The rate used: what the samples stand for (slower than asked past 10,000 a second). */
    long long rate, queue_full;
    int hz, slowed;
    check(PAPI_get_overflow_rate(fs, clk, &rate, &hz, &slowed, &queue_full),
          "PAPI_get_overflow_rate");
    printf("rate used: %lld%s, slowed %d times\n", rate, hz ? " Hz" : "", slowed);
    return 0;
}
