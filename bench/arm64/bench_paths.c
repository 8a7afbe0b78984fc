/* bench_paths: guest instructions per call of PAPI's hot paths, for any PAPI library
 * (ours or PAPI 7: loaded with dlopen, so one binary measures both), against the floor of
 * each path (the raw perf_event system calls or user-space reads that the path cannot
 * avoid). Runs in the arm64 PMU guest (bench/arm64/run-bench.sh), where user-only
 * INST_RETIRED counts are exact: the numbers repeat from run to run.
 *
 *   bench_paths LIBPAPI LABEL     prints "BENCH LABEL ua=U path all user" lines
 *
 * all = user + kernel instructions per call, user = user instructions only; both with the
 * calling loop subtracted. The meter is a raw INST_RETIRED group of this program's own.
 * Paths: PAPI_read (1, 4 events), PAPI_accum, PAPI_reset, PAPI_stop+PAPI_start, a
 * multiplexed PAPI_read of 8 and 16 events, PAPI_hl_region_begin+end, PAPI_flops_rate,
 * overflow dispatch per signal, and PAPI_read and region begin+end per thread with 1, 2, 4,
 * 16, 64 threads (each with its own set: per-call cost relative to one thread). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi.h"
#include "perf_user_read.h"

#define CALLS 1000

/* ---- the library under test, through dlopen ------------------------------------------- */
static struct {
    int (*library_init)(int);
    int (*create_eventset)(int *);
    int (*add_named_event)(int, const char *);
    int (*start)(int);
    int (*stop)(int, long long *);
    int (*read)(int, long long *);
    int (*accum)(int, long long *);
    int (*reset)(int);
    int (*cleanup_eventset)(int);
    int (*destroy_eventset)(int *);
    int (*multiplex_init)(void);
    int (*assign_eventset_component)(int, int);
    int (*set_multiplex)(int);
    int (*hl_region_begin)(const char *);
    int (*hl_region_end)(const char *);
    int (*flops_rate)(int, float *, float *, long long *, float *);
    int (*overflow)(int, int, int, int, PAPI_overflow_handler_t);
    int (*event_name_to_code)(const char *, int *);
    int (*thread_init)(unsigned long (*)(void));
} P;

static void load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(1);
    }
#define SYM(f, name) *(void **)&P.f = dlsym(h, name)
    SYM(library_init, "PAPI_library_init");
    SYM(create_eventset, "PAPI_create_eventset");
    SYM(add_named_event, "PAPI_add_named_event");
    SYM(start, "PAPI_start");
    SYM(stop, "PAPI_stop");
    SYM(read, "PAPI_read");
    SYM(accum, "PAPI_accum");
    SYM(reset, "PAPI_reset");
    SYM(cleanup_eventset, "PAPI_cleanup_eventset");
    SYM(destroy_eventset, "PAPI_destroy_eventset");
    SYM(multiplex_init, "PAPI_multiplex_init");
    SYM(assign_eventset_component, "PAPI_assign_eventset_component");
    SYM(set_multiplex, "PAPI_set_multiplex");
    SYM(hl_region_begin, "PAPI_hl_region_begin");
    SYM(hl_region_end, "PAPI_hl_region_end");
    SYM(flops_rate, "PAPI_flops_rate");
    SYM(overflow, "PAPI_overflow");
    SYM(event_name_to_code, "PAPI_event_name_to_code");
    SYM(thread_init, "PAPI_thread_init");
#undef SYM
    if (!P.library_init || !P.read) {
        fprintf(stderr, "%s is not a PAPI library\n", path);
        exit(1);
    }
}

/* ---- the instruction meter ------------------------------------------------------------ */
static int open_raw(uint64_t config, int group_fd, int kernel, int rdpmc_bit, uint64_t format)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = config;
    a.exclude_kernel = !kernel;
    a.exclude_hv = 1;
    a.disabled = group_fd < 0;
    a.read_format = format;
    if (rdpmc_bit >= 0)
        a.config1 |= UINT64_C(1) << rdpmc_bit;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, 0);
}

static int open_raw_pinned(uint64_t config, uint64_t format)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = config;
    a.exclude_hv = 1;
    a.disabled = 1;
    a.pinned = 1;
    a.read_format = format;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

#define GROUP_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static __thread int meter = -1;

/* Pinned: always on a counter. Unpinned, a multiplexed set's rotation took the meter off
 * the PMU for part of the time, and what it missed there was missing from the costs. */
static void meter_open(void)
{
    meter = open_raw_pinned(0x08, PERF_FORMAT_GROUP);
    if (meter < 0 || open_raw(0x08, meter, 0, -1, PERF_FORMAT_GROUP) < 0 ||
        ioctl(meter, PERF_EVENT_IOC_ENABLE, 0) != 0) {
        fprintf(stderr, "meter: %s\n", strerror(errno));
        exit(1);
    }
}

static void meter_now(long long *all, long long *user)
{
    uint64_t buf[3];
    if (read(meter, buf, sizeof buf) != (ssize_t)sizeof buf)
        abort();
    *all = (long long)buf[1];
    *user = (long long)buf[2];
}

struct cost {
    double all, user;
};

typedef void (*op_fn)(void);
static __attribute__((noinline)) void op_nothing(void) { __asm__ volatile(""); }

static struct cost per_call_n(op_fn op, int calls)
{
    long long a, au, b, bu, c, cu;
    meter_now(&a, &au);
    for (int i = 0; i < calls; i++)
        op_nothing();
    meter_now(&b, &bu);
    for (int i = 0; i < calls; i++)
        op();
    meter_now(&c, &cu);
    struct cost r = {(double)((c - b) - (b - a)) / calls, (double)((cu - bu) - (bu - au)) / calls};
    return r;
}

/* The least of 5 measurements: the kernel's timer work (multiplex rotation, ticks) lands
 * in some of them, never in the cost of the call itself. */
static struct cost per_call_min(op_fn op, int calls)
{
    struct cost best = per_call_n(op, calls);
    for (int r = 1; r < 5; r++) {
        struct cost c = per_call_n(op, calls);
        if (c.all < best.all)
            best = c;
    }
    return best;
}

static struct cost per_call(op_fn op) { return per_call_min(op, CALLS); }

static const char *label;
static int ua;

static void report(const char *path, struct cost c)
{
    printf("BENCH %s ua=%d %s %.0f %.0f\n", label, ua, path, c.all, c.user);
}

/* ---- the floors: raw perf_event ------------------------------------------------------- */
static const uint64_t raw_codes[] = {0x08, 0x11, 0x12, 0x10, 0x01, 0x02, 0x03, 0x04,
                                     0x05, 0x09, 0x0a, 0x13, 0x14, 0x16, 0x17, 0x19};
static int raw_fd[16], raw_n, raw_alone;
static const struct perf_event_mmap_page *raw_page[16];
static volatile uint64_t sink;

static int rdpmc_bit(void)
{
    static const char *const pmus[] = {"armv8_pmuv3_0", "armv8_cortex_a57", "armv8_pmuv3",
                                       "armv8_neoverse_n1"};
    for (size_t i = 0; i < sizeof pmus / sizeof pmus[0]; i++) {
        char path[256];
        int bit = -1;
        snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/format/rdpmc", pmus[i]);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "config1:%d", &bit) != 1)
                bit = -1;
            fclose(f);
            return bit;
        }
    }
    return -1;
}

/* n events: one group (alone = 0) or each alone without the group format (the floor of a
 * multiplexed read: one read() per event). */
static void raw_open(int n, int alone)
{
    int bit = ua ? rdpmc_bit() : -1;
    raw_n = n;
    raw_alone = alone;
    for (int i = 0; i < n; i++) {
        raw_fd[i] = open_raw(raw_codes[i], alone || i == 0 ? -1 : raw_fd[0], 0, bit,
                             alone ? PERF_FORMAT_TOTAL_TIME_ENABLED |
                                         PERF_FORMAT_TOTAL_TIME_RUNNING
                                   : GROUP_FORMAT);
        if (raw_fd[i] < 0) {
            fprintf(stderr, "raw event 0x%llx: %s\n", (unsigned long long)raw_codes[i],
                    strerror(errno));
            exit(1);
        }
        raw_page[i] = NULL;
        if (ua) {
            void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
                           raw_fd[i], 0);
            raw_page[i] = p == MAP_FAILED ? NULL : p;
        }
        if (alone || i == 0)
            ioctl(raw_fd[i], PERF_EVENT_IOC_ENABLE, 0);
    }
}

static void raw_close(void)
{
    for (int i = raw_n - 1; i >= 0; i--) {
        if (raw_page[i])
            munmap((void *)raw_page[i], (size_t)sysconf(_SC_PAGESIZE));
        close(raw_fd[i]);
    }
    raw_n = 0;
}

static __attribute__((noinline)) void op_raw_read(void)
{
    uint64_t buf[3 + 16];
    if (raw_alone) {
        for (int i = 0; i < raw_n; i++)
            if (read(raw_fd[i], buf, 3 * sizeof(uint64_t)) < 0)
                abort();
    } else if (read(raw_fd[0], buf, (3 + (size_t)raw_n) * sizeof(uint64_t)) < 0) {
        abort();
    }
    sink = buf[0];
}

static __attribute__((noinline)) void op_raw_user(void)
{
    uint64_t c, e, r, s = 0;
    for (int i = 0; i < raw_n; i++) {
        if (!perf_user_read(raw_page[i], &c, &e, &r))
            abort();
        s += c;
    }
    sink = s;
}

/* start+stop floor: disable, the read that freezes the values, enable. */
/* multiplexed start+stop floor: each event alone, disabled, read, enabled. */
static __attribute__((noinline)) void op_raw_mpx_startstop(void)
{
    uint64_t buf[3];
    for (int i = 0; i < raw_n; i++)
        ioctl(raw_fd[i], PERF_EVENT_IOC_DISABLE, 0);
    for (int i = 0; i < raw_n; i++)
        if (read(raw_fd[i], buf, sizeof buf) < 0)
            abort();
    for (int i = 0; i < raw_n; i++)
        ioctl(raw_fd[i], PERF_EVENT_IOC_ENABLE, 0);
    sink = buf[0];
}

static __attribute__((noinline)) void op_raw_startstop(void)
{
    uint64_t buf[4];
    ioctl(raw_fd[0], PERF_EVENT_IOC_DISABLE, 0);
    if (read(raw_fd[0], buf, sizeof buf) < 0)
        abort();
    ioctl(raw_fd[0], PERF_EVENT_IOC_ENABLE, 0);
    sink = buf[3];
}

/* ---- the PAPI paths ------------------------------------------------------------------- */
static const char *const names[] = {
    "INST_RETIRED",     "CPU_CYCLES",       "BRANCH_PRED",      "BRANCH_MISPRED",
    "BR_PRED",          "BR_MIS_PRED",      "L1I_CACHE_REFILL", "L1I_TLB_REFILL",
    "L1D_CACHE_REFILL", "L1D_CACHE_ACCESS", "L1D_CACHE",        "L1D_TLB_REFILL",
    "EXCEPTION_TAKEN",  "EXC_TAKEN",        "EXCEPTION_RETURN", "EXC_RETURN",
    "DATA_MEM_ACCESS",  "MEM_ACCESS",       "L1I_CACHE_ACCESS", "L1I_CACHE",
    "L2D_CACHE_ACCESS", "L2D_CACHE",        "L2D_CACHE_REFILL", "BUS_ACCESS",
    "INST_SPEC_EXEC",   "INST_SPEC",        "BUS_CYCLES",       "L1D_CACHE_WB",
};
static __thread int es;
static __thread long long vals[16];

/* A set of the first n of names that the library adds; multiplexed when mpx. */
static int papi_set(int n, int mpx)
{
    int s = PAPI_NULL, added = 0;
    if (P.create_eventset(&s) != PAPI_OK)
        exit(1);
    if (mpx && (P.assign_eventset_component(s, 0) != PAPI_OK || P.set_multiplex(s) != PAPI_OK)) {
        fprintf(stderr, "%s: cannot multiplex\n", label);
        exit(1);
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0] && added < n; i++)
        if (P.add_named_event(s, names[i]) == PAPI_OK)
            added++;
    if (added < n) {
        fprintf(stderr, "%s: only %d of %d events\n", label, added, n);
        exit(1);
    }
    return s;
}

static void papi_free(int s)
{
    P.cleanup_eventset(s);
    P.destroy_eventset(&s);
}

static __attribute__((noinline)) void op_read(void) { P.read(es, vals); }
static __attribute__((noinline)) void op_accum(void) { P.accum(es, vals); }
static __attribute__((noinline)) void op_reset(void) { P.reset(es); }
static __attribute__((noinline)) void op_startstop(void)
{
    P.stop(es, vals);
    P.start(es);
}
static __attribute__((noinline)) void op_region(void)
{
    P.hl_region_begin("bench");
    P.hl_region_end("bench");
}
static __attribute__((noinline)) void op_flops(void)
{
    float rt, pt, mf;
    long long fl;
    P.flops_rate(PAPI_FP_OPS, &rt, &pt, &fl, &mf);
}

static void bench_counting(void)
{
    static const int sizes[2] = {1, 4};
    for (int k = 0; k < 2; k++) {
        char path[64];
        raw_open(sizes[k], 0);
        snprintf(path, sizeof path, "floor_read_syscall_%d", sizes[k]);
        report(path, per_call(op_raw_read));
        if (ua && raw_page[0]) {
            snprintf(path, sizeof path, "floor_read_user_%d", sizes[k]);
            report(path, per_call(op_raw_user));
        }
        if (k == 0)
            report("floor_startstop_1", per_call(op_raw_startstop));
        raw_close();
        es = papi_set(sizes[k], 0);
        P.start(es);
        snprintf(path, sizeof path, "read_%d", sizes[k]);
        report(path, per_call(op_read));
        if (k == 0) {
            report("accum_1", per_call(op_accum));
            report("reset_1", per_call(op_reset));
            report("startstop_1", per_call(op_startstop));
        }
        P.stop(es, vals);
        papi_free(es);
    }
}

static void bench_multiplexed(void)
{
    static const int mpx[2] = {8, 16};
    if (P.multiplex_init)
        P.multiplex_init();
    for (int k = 0; k < 2; k++) {
        char path[64];
        raw_open(mpx[k], 1);
        snprintf(path, sizeof path, "floor_mpx_read_%d", mpx[k]);
        report(path, per_call_min(op_raw_read, CALLS / 2));
        snprintf(path, sizeof path, "floor_mpx_startstop_%d", mpx[k]);
        report(path, per_call_min(op_raw_mpx_startstop, CALLS / 10));
        raw_close();
        es = papi_set(mpx[k], 1);
        P.start(es);
        snprintf(path, sizeof path, "mpx_read_%d", mpx[k]);
        report(path, per_call_min(op_read, CALLS / 2));
        snprintf(path, sizeof path, "mpx_startstop_%d", mpx[k]);
        report(path, per_call_min(op_startstop, CALLS / 10));
        P.stop(es, vals);
        papi_free(es);
    }
}

static void bench_highlevel(void)
{
    if (P.hl_region_begin && P.hl_region_begin("bench") == PAPI_OK) {
        P.hl_region_end("bench");
        report("region_begin_end", per_call(op_region));
    }
    float rt, pt, mf;
    long long fl;
    if (P.flops_rate && P.flops_rate(PAPI_FP_OPS, &rt, &pt, &fl, &mf) == PAPI_OK)
        report("flops_rate", per_call(op_flops));
}

/* ---- overflow dispatch: instructions per signal ---------------------------------------- */
static volatile long signals;
static void on_overflow(int set, void *addr, long long vec, void *ctx)
{
    (void)set, (void)addr, (void)vec, (void)ctx;
    signals++;
}

static __attribute__((noinline)) void spin(long n)
{
    __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

static void bench_overflow(void)
{
    int code = 0;
    if (!P.overflow || P.event_name_to_code("INST_RETIRED", &code) != PAPI_OK)
        return;
    es = papi_set(1, 0);
    const long loop = 2000000, threshold = 20000; /* 4M instructions: ~200 signals */
    long long a0, u0, a1, u1, b0, bu0, b1, bu1;
    meter_now(&a0, &u0);
    spin(loop);
    meter_now(&a1, &u1);
    if (P.overflow(es, code, (int)threshold, 0, on_overflow) != PAPI_OK || P.start(es) != PAPI_OK)
        return;
    signals = 0;
    meter_now(&b0, &bu0);
    spin(loop);
    meter_now(&b1, &bu1);
    P.stop(es, vals);
    P.overflow(es, code, 0, 0, on_overflow);
    papi_free(es);
    long n = signals;
    if (n > 0) {
        struct cost c = {(double)((b1 - b0) - (a1 - a0)) / n, (double)((bu1 - bu0) - (u1 - u0)) / n};
        report("overflow_per_signal", c);
    }
}

/* ---- threads ---------------------------------------------------------------------------- */
static pthread_barrier_t barrier;
static double thread_read[64], thread_region[64];

static void *thread_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    meter_open();
    es = papi_set(1, 0);
    P.start(es);
    pthread_barrier_wait(&barrier);
    thread_read[i] = per_call(op_read).all;
    P.stop(es, vals);
    papi_free(es);
    thread_region[i] = -1;
    if (P.hl_region_begin && P.hl_region_begin("t") == PAPI_OK) {
        P.hl_region_end("t");
        thread_region[i] = per_call_n(op_region, CALLS / 4).all;
    }
    close(meter);
    return NULL;
}

static unsigned long self_id(void) { return (unsigned long)pthread_self(); }

static void bench_threads(void)
{
    static const int counts[] = {1, 2, 4, 16, 64};
    P.thread_init(self_id);
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int n = counts[k];
        pthread_t t[64];
        pthread_barrier_init(&barrier, NULL, (unsigned)n);
        for (int i = 0; i < n; i++)
            pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i);
        double r = 0, g = 0;
        for (int i = 0; i < n; i++) {
            pthread_join(t[i], NULL);
            r += thread_read[i];
            g += thread_region[i];
        }
        pthread_barrier_destroy(&barrier);
        printf("BENCH %s ua=%d threads_%d read_1 %.0f region_begin_end %.0f\n", label, ua, n,
               r / n, g / n);
    }
}

/* BENCH_ONLY=part,part...: only those parts (counting, mpx, overflow, profil, highlevel,
 * fortran, threads); all when unset. */
static int wanted(const char *part)
{
    const char *only = getenv("BENCH_ONLY");
    if (!only || !*only)
        return 1;
    size_t n = strlen(part);
    for (const char *p = only; (p = strstr(p, part)) != NULL; p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_paths LIBPAPI LABEL\n");
        return 2;
    }
    load(argv[1]);
    label = argv[2];
    FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
    if (f) {
        if (fscanf(f, "%d", &ua) != 1)
            ua = 0;
        fclose(f);
    }
    /* The version the library was built as (7.0, 7.2, ...): its papi.h's PAPI_VER_CURRENT
     * is major and minor; the calls measured here are the same in every 7.x. */
    int ver = PAPI_EINVAL;
    for (int minor = 0; minor < 10 && ver < 0; minor++)
        ver = P.library_init(PAPI_VERSION_NUMBER(PAPI_VERSION_MAJOR(PAPI_VER_CURRENT), minor, 0, 0));
    if (ver < 0) {
        fprintf(stderr, "%s: PAPI_library_init failed\n", label);
        return 1;
    }
    meter_open();
    if (wanted("counting"))
        bench_counting();
    if (wanted("mpx"))
        bench_multiplexed();
    if (wanted("overflow"))
        bench_overflow();
    if (wanted("highlevel"))
        bench_highlevel();
    if (wanted("threads"))
        bench_threads();
    return 0;
}
