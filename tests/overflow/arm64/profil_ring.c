/* profil_ring (arm64 PMU lane): PAPI_profil on a hardware event samples into the perf ring
 * buffer, no signal per sample, and builds the histogram the signal route builds.
 *
 * Each case profiles the known loop twice, with PAPI_PROFIL_RING=0 (one signal per
 * sample, PAPI 7's way) and without (the ring). Every overflow is in each histogram
 * (total = count / threshold), and they differ only by the samples the signal route adds
 * itself: its handler's own user instructions and cycles are counted too, and the
 * samples they cause are taken when the handler returns, in the loop's buckets. Cases:
 * PAPI_profil with 16-bit buckets; PAPI_sprofil with the loop's bytes in 32-bit buckets and
 * a catch-all region; 64-bit weighted buckets; two profiled events in one set. The events:
 * CPU_CYCLES at 10,000 instructions' worth (10,000 << the icount shift) and INST_RETIRED
 * at 10,000. In this guest (QEMU's TCG) an event counter's overflow interrupt comes at the
 * next timer tick, not at the overflow, unless the cycle counter overflows at the same
 * moment: INST_RETIRED profiled alone gets one sample per tick (about 40 instead of
 * 1,000), by either route, which are compared too; CPU_CYCLES is on time.
 * The cost per sample is measured with a counter of this process's own (INST_RETIRED, user
 * + kernel, inherited by the library's sampler thread): the ring's must be at most 0.2 of
 * the signal's. PAPI_read hands over the samples taken so far, before the ring's wakeup
 * mark; with the sampler thread kept off the CPU (SCHED_FIFO), the ring overflows and
 * PAPI_stop reports the lost samples (PAPI_strerror_detail), which with the histogram's
 * add up to the overflows. */
#include <linux/perf_event.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu_hw.h"

#define THRESHOLD 10000
#define MAXREG    3

/* The profiled loop: pmu_loop's two instructions, their block 8-byte aligned and named
 * (ring_loop_body). The period is a multiple of the loop's length, so the ring's samples
 * land on one of the two instructions every time, while the signal route's handler
 * shifts the phase: which instruction a sample names differs between the routes, which
 * 8-byte block (the loop) it names does not. */
extern const char ring_loop_body[];
static __attribute__((noinline)) void ring_loop(long n)
{
    __asm__ volatile(".balign 8\n.globl ring_loop_body\nring_loop_body:\n"
                     "1: subs %0, %0, #1\n\tb.ne 1b"
                     : "+r"(n)
                     :
                     : "cc");
}

static int meter_fd = -1;

/* This process's instructions, user + kernel, its threads included (inherit). */
static void meter_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = 0x08; /* INST_RETIRED */
    a.exclude_hv = 1;
    a.inherit = 1;
    meter_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (meter_fd < 0)
        test_skip("cannot open the instruction meter (perf_event_open of a raw INST_RETIRED)");
}

static long long meter(void)
{
    uint64_t v = 0;
    if (read(meter_fd, &v, sizeof v) != (ssize_t)sizeof v)
        abort();
    return (long long)v;
}

/* The set: CPU_CYCLES, INST_RETIRED. A case profiles nev of them, codes[e] at set
 * position pos[e]. */
struct run {
    long long cost;      /* meter instructions over start .. stop */
    long long count[2];  /* the profiled events' values at PAPI_stop */
    unsigned long long total[2];
    char note[512];      /* PAPI_strerror_detail after PAPI_stop */
};

static unsigned long long sum(const PAPI_sprofil_t *r, int nr, int bytes)
{
    unsigned long long s = 0;
    for (int i = 0; i < nr; i++)
        for (size_t k = 0; k < r[i].pr_size / (unsigned)bytes; k++)
            s += bytes == 8 ? ((uint64_t *)r[i].pr_base)[k]
                 : bytes == 4 ? ((uint32_t *)r[i].pr_base)[k]
                              : ((uint16_t *)r[i].pr_base)[k];
    return s;
}

static void clear(PAPI_sprofil_t *r, int nr)
{
    for (int i = 0; i < nr; i++)
        memset(r[i].pr_base, 0, r[i].pr_size);
}

/* Profile the loop of iters with the regions of each profiled event (nev of the set's
 * events, codes[]), the ring or the signals. */
static struct run profile(int es, int nev, const int *codes, const int *pos,
                          const int *thresholds, PAPI_sprofil_t regs[][MAXREG], const int *nregs,
                          int flags, int ring, long iters)
{
    long long v[2];
    struct run r;
    memset(&r, 0, sizeof r);
    if (ring)
        unsetenv("PAPI_PROFIL_RING");
    else
        setenv("PAPI_PROFIL_RING", "0", 1);
    for (int e = 0; e < nev; e++) {
        clear(regs[e], nregs[e]);
        CHECK_RET(PAPI_sprofil(regs[e], nregs[e], es, codes[e], thresholds[e], flags), PAPI_OK);
    }
    long long m0 = meter();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ring_loop(iters);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    r.cost = meter() - m0;
    for (int e = 0; e < nev; e++)
        r.count[e] = v[pos[e]];
    snprintf(r.note, sizeof r.note, "%s", PAPI_strerror_detail());
    for (int e = 0; e < nev; e++)
        CHECK_RET(PAPI_sprofil(regs[e], nregs[e], es, codes[e], 0, flags), PAPI_OK);
    int bytes = flags & PAPI_PROFIL_BUCKET_64 ? 8 : flags & PAPI_PROFIL_BUCKET_32 ? 4 : 2;
    for (int e = 0; e < nev; e++)
        r.total[e] = sum(regs[e], nregs[e], bytes);
    return r;
}

static uint64_t bucket(const PAPI_sprofil_t *r, size_t k, int bytes)
{
    return bytes == 8 ? ((uint64_t *)r->pr_base)[k]
           : bytes == 4 ? ((uint32_t *)r->pr_base)[k]
                        : ((uint16_t *)r->pr_base)[k];
}

/* The first and last bucket of region r holding an address of the loop's 8-byte block
 * (profil.c's mapping: ((pc - offset) * scale) >> 17; scale 2 is one bucket for all). */
static void loop_buckets(const PAPI_sprofil_t *r, size_t *lo, size_t *hi)
{
    uintptr_t off = (uintptr_t)r->pr_off, at = (uintptr_t)ring_loop_body;
    if (r->pr_scale == 2 || at < off) {
        *lo = *hi = r->pr_scale == 2 ? 0 : (size_t)-1;
        return;
    }
    *lo = (size_t)(((unsigned __int128)(at - off) * r->pr_scale) >> 17);
    *hi = (size_t)(((unsigned __int128)(at + 7 - off) * r->pr_scale) >> 17);
}

/* Both routes: every overflow in each histogram, and the signal route's only differs by
 * the samples it adds itself (more in some buckets, never fewer), the loop's buckets
 * compared as one (the routes' samples land on different instructions of it). */
static void same_histograms(const char *what, int es, int nev, const int *codes, const int *pos,
                            const int *thresholds, PAPI_sprofil_t regs[][MAXREG],
                            const int *nregs, int flags, long iters)
{
    int bytes = flags & PAPI_PROFIL_BUCKET_64 ? 8 : flags & PAPI_PROFIL_BUCKET_32 ? 4 : 2;
    struct run sig = profile(es, nev, codes, pos, thresholds, regs, nregs, flags, 0, iters);
    PAPI_sprofil_t copy[2][MAXREG];
    for (int e = 0; e < nev; e++)
        for (int i = 0; i < nregs[e]; i++) {
            copy[e][i] = regs[e][i];
            copy[e][i].pr_base = malloc(regs[e][i].pr_size);
            memcpy(copy[e][i].pr_base, regs[e][i].pr_base, regs[e][i].pr_size);
        }
    struct run ring = profile(es, nev, codes, pos, thresholds, regs, nregs, flags, 1, iters);
    for (int e = 0; e < nev; e++) {
        unsigned long long more = 0, fewer = 0; /* the signals' buckets against the ring's */
        for (int i = 0; i < nregs[e]; i++) {
            size_t lo, hi, n = regs[e][i].pr_size / (unsigned)bytes;
            uint64_t sl = 0, rl = 0; /* the loop's block */
            loop_buckets(&regs[e][i], &lo, &hi);
            for (size_t k = 0; k < n; k++) {
                uint64_t sv = bucket(&copy[e][i], k, bytes), rv = bucket(&regs[e][i], k, bytes);
                if (k >= lo && k <= hi) {
                    sl += sv;
                    rl += rv;
                    continue;
                }
                more += sv > rv ? sv - rv : 0;
                fewer += sv < rv ? rv - sv : 0;
            }
            more += sl > rl ? sl - rl : 0;
            fewer += sl < rl ? rl - sl : 0;
            free(copy[e][i].pr_base);
        }
        long long want_sig = sig.count[e] / thresholds[e], want_ring = ring.count[e] / thresholds[e];
        printf("profil_ring: %s, event %d: signal %llu samples for %lld overflows, ring %llu for "
               "%lld; the signals' has %llu more, %llu fewer\n",
               what, e, sig.total[e], want_sig, ring.total[e], want_ring, more, fewer);
        CHECK((long long)sig.total[e] >= want_sig - 1 && (long long)sig.total[e] <= want_sig + 1,
              "%s: %llu samples by signal for %lld overflows", what, sig.total[e], want_sig);
        CHECK((long long)ring.total[e] >= want_ring - 1 && (long long)ring.total[e] <= want_ring + 1,
              "%s: %llu samples in the ring for %lld overflows", what, ring.total[e], want_ring);
        CHECK(fewer == 0 && more == sig.total[e] - ring.total[e],
              "%s, event %d: the histograms differ beyond the signals' own samples (%llu more, "
              "%llu fewer)", what, e, more, fewer);
        CHECK(!strstr(ring.note, "lost"), "%s: %s", what, ring.note);
    }
}

/* The kernel lowers its sample rate when its overflow interrupts seem to take long; under
 * QEMU they do (a few samples per tick are left, for both routes): a fixed rate instead,
 * high enough for 10,000-instruction periods. */
static int write_sysctl(const char *path, const char *value)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fputs(value, f) >= 0;
    return (fclose(f) == 0) & ok;
}

static void fixed_sample_rate(void)
{
    /* The rate first: the kernel refuses it while the throttling is off (0 or 100), as an
     * earlier test of the boot may have left it. */
    if (!write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "25\n") ||
        !write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", "100000\n") ||
        !write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "0\n")) {
        char why[160];
        snprintf(why, sizeof why, "cannot fix the kernel's sample rate (kernel.perf_*): %s",
                 strerror(errno));
        test_skip(why);
    }
}

int main(void)
{
    fixed_sample_rate();
    meter_open(); /* before the library starts its sampler thread: inherited */
    init_or_die();
    pmu_require_hw();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    if (!exe)
        test_skip("no executable information");
    uintptr_t start = (uintptr_t)exe->address_info.text_start;
    uintptr_t end = (uintptr_t)exe->address_info.text_end;
    uintptr_t loop = (uintptr_t)ring_loop_body;
    unsigned text = (unsigned)(end - start);
    int inst, cyc;
    CHECK_RET(PAPI_event_name_to_code("INST_RETIRED", &inst), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("CPU_CYCLES", &cyc), PAPI_OK);
    const char *names[] = {"CPU_CYCLES", "INST_RETIRED"};
    int es = pmu_set_of(names, 2);
    static uint64_t buf[2][MAXREG][16384];
    if ((size_t)text * 4 > sizeof buf[0][0])
        test_skip("the program text is larger than the test's buffers");
    const long iters = 5000000; /* 10M instructions: 1000 periods of 10,000 */
    const int cyc_th = THRESHOLD << pmu_icount_shift();

    /* 1. PAPI_profil of CPU_CYCLES, 16-bit buckets over the whole text: the cost per
     * sample of each route, over the same loop counted without profiling. */
    PAPI_sprofil_t whole[2][MAXREG] = {{{buf[0][0], text, (vptr_t)start, 0x10000}},
                                       {{buf[1][0], text, (vptr_t)start, 0x10000}}};
    int one[2] = {1, 1}, c_codes[2] = {cyc, inst}, c_pos[2] = {0, 1}, c_th[2] = {cyc_th, THRESHOLD};
    long long m0 = meter(), v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ring_loop(iters);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    long long base = meter() - m0;
    struct run sig = profile(es, 1, c_codes, c_pos, c_th, whole, one, PAPI_PROFIL_POSIX, 0, iters);
    struct run ring = profile(es, 1, c_codes, c_pos, c_th, whole, one, PAPI_PROFIL_POSIX, 1, iters);
    double per_sig = sig.total[0] ? (double)(sig.cost - base) / (double)sig.total[0] : 0;
    double per_ring = ring.total[0] ? (double)(ring.cost - base) / (double)ring.total[0] : 0;
    printf("profil_ring: CPU_CYCLES every %d: samples signal %llu, ring %llu; instructions per "
           "sample (user + kernel): signal %.0f, ring %.0f (%.3fx)\n",
           cyc_th, sig.total[0], ring.total[0], per_sig, per_ring, per_sig ? per_ring / per_sig : 0);
    CHECK(ring.total[0] > 900, "%llu samples in the ring for 1000 periods", ring.total[0]);
    CHECK(per_ring <= 0.2 * per_sig, "the ring costs %.0f instructions per sample, the signal %.0f",
          per_ring, per_sig);

    /* 2. The same histograms: 16-bit; the loop's bytes in 32-bit buckets and a catch-all;
     * 64-bit weighted; two events at once; INST_RETIRED alone (one sample per tick here). */
    same_histograms("profil 16-bit", es, 1, c_codes, c_pos, c_th, whole, one, PAPI_PROFIL_POSIX,
                    iters);
    uintptr_t lo = loop & ~(uintptr_t)63;
    PAPI_sprofil_t two[2][MAXREG] = {
        {{buf[0][0], 256, (vptr_t)lo, 0x20000}, {buf[0][1], 4, (vptr_t)0, 2}},
        {{buf[1][0], 256, (vptr_t)lo, 0x20000}, {buf[1][1], 4, (vptr_t)0, 2}}};
    int tworeg[2] = {2, 2};
    same_histograms("sprofil 32-bit + catch-all", es, 1, c_codes, c_pos, c_th, two, tworeg,
                    PAPI_PROFIL_BUCKET_32, iters);
    PAPI_sprofil_t w64[2][MAXREG] = {{{buf[0][0], text * 4, (vptr_t)start, 0x10000}},
                                     {{buf[1][0], text * 4, (vptr_t)start, 0x10000}}};
    same_histograms("profil 64-bit weighted", es, 1, c_codes, c_pos, c_th, w64, one,
                    PAPI_PROFIL_BUCKET_64 | PAPI_PROFIL_WEIGHTED, iters);
    same_histograms("two events", es, 2, c_codes, c_pos, c_th, whole, one, PAPI_PROFIL_POSIX, iters);
    int i_codes[1] = {inst}, i_pos[1] = {1}, i_th[1] = {THRESHOLD};
    struct run isig = profile(es, 1, i_codes, i_pos, i_th, whole, one, PAPI_PROFIL_POSIX, 0, iters);
    struct run iring = profile(es, 1, i_codes, i_pos, i_th, whole, one, PAPI_PROFIL_POSIX, 1, iters);
    printf("profil_ring: INST_RETIRED alone every %d: samples signal %llu, ring %llu\n", THRESHOLD,
           isig.total[0], iring.total[0]);
    CHECK(iring.total[0] > 0 && iring.total[0] + 2 >= isig.total[0] && iring.total[0] <= isig.total[0] + 2,
          "INST_RETIRED alone: %llu samples in the ring, %llu by signal", iring.total[0],
          isig.total[0]);

    /* 3. PAPI_read hands over what the ring holds, before its wakeup mark (512 samples). */
    unsetenv("PAPI_PROFIL_RING");
    clear(whole[0], 1);
    CHECK_RET(PAPI_sprofil(whole[0], 1, es, cyc, cyc_th, PAPI_PROFIL_POSIX), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ring_loop(1500000); /* 300 periods */
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    unsigned long long at_read = sum(whole[0], 1, 2);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    printf("profil_ring: PAPI_read after %lld cycles: %llu samples\n", v[0], at_read);
    CHECK(at_read >= 295 && at_read <= 305, "%llu samples at PAPI_read after 300 periods", at_read);
    CHECK_RET(PAPI_sprofil(whole[0], 1, es, cyc, 0, PAPI_PROFIL_POSIX), PAPI_OK);

    /* 4. The sampler thread kept off the CPU: the ring (2048 samples) overflows; PAPI_stop
     * says how many were lost, and with the histogram's they are every overflow. */
    struct sched_param sp = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) {
        struct run full = profile(es, 1, c_codes, c_pos, c_th, whole, one, PAPI_PROFIL_POSIX, 1,
                                  15000000);
        sp.sched_priority = 0;
        sched_setscheduler(0, SCHED_OTHER, &sp);
        unsigned long long lost = 0;
        const char *at = strstr(full.note, "emptied it: ");
        if (at)
            sscanf(at, "emptied it: %llu of the event at position 0", &lost);
        long long expect = full.count[0] / cyc_th;
        printf("profil_ring: sampler starved: %llu samples, %llu lost, %lld overflows\n",
               full.total[0], lost, expect);
        CHECK(lost > 0, "no samples lost with the ring full: \"%s\"", full.note);
        CHECK((long long)(full.total[0] + lost) >= expect - 1 &&
                  (long long)(full.total[0] + lost) <= expect + 1,
              "%llu samples + %llu lost for %lld overflows", full.total[0], lost, expect);
    } else {
        printf("profil_ring: SCHED_FIFO refused, lost samples not tested\n");
    }
    pmu_free_set(&es);
    return test_done("profil_ring");
}
