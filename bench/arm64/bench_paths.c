/* bench_paths: guest instructions per call of PAPI's hot paths, for any PAPI library
 * (ours or PAPI 7: loaded with dlopen, so one binary measures both), against the floor of
 * each path (the raw perf_event system calls or user-space reads that the path cannot
 * avoid). Runs in the arm64 PMU guest (bench/arm64/run-bench.sh) under QEMU's -icount.
 *
 *   bench_paths LIBPAPI LABEL   prints "BENCH LABEL ua=U path all user pmu" lines
 *
 * all = every guest instruction per call, kernel included: the virtual counter CNTVCT_EL0,
 * which under -icount advances 2^shift ns per instruction (shift 4 and the 62.5 MHz
 * generic timer: one tick per instruction; checked at start, the "cntvct" line). It also
 * counts other tasks and interrupts of the guest (one vCPU, a quiet busybox initramfs):
 * each figure is the least of 5 runs. user = this thread's user instructions and pmu =
 * its user + kernel ones, from a pinned raw INST_RETIRED group: the PMU misses the kernel
 * work done while the arm64 driver has the PMU stopped (overflow interrupts, enabling and
 * disabling events), so pmu is below all. Profiling and the overflow floors count the
 * user part of the whole process (inherited by its threads; pmu "-"). All with the
 * calling loop subtracted. Parts (BENCH_ONLY=part,...):
 * counting (PAPI_read of 1 and 4 events, accum, reset, stop+start), mpx (multiplexed read
 * and stop+start of 8 and 16 events), overflow (dispatch per signal, and its floors),
 * profil (PAPI_profil per sample), highlevel (region begin+end; BENCH_HL_THREADS=N: with N
 * threads alive from before the first region, BENCH_HL_JOINED=1: ended before it,
 * BENCH_HL_LATE=1: started inside it), flops (PAPI_flops,
 * PAPI_flops_rate and their Fortran calls), fortran (PAPIF_read), threads (PAPI_read and
 * region begin+end per thread with 1, 2, 4, 16, 64 threads, each with its own set). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

#include "bench_meter.h"
#include "papi.h"
#include "raw_group.h"
#include "ring_samples.h" /* its ring: 64 data pages, more than the run takes */

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
    int (*hl_stop)(void);
    int (*flops_rate)(int, float *, float *, long long *, float *);
    int (*overflow)(int, int, int, int, PAPI_overflow_handler_t);
    int (*event_name_to_code)(const char *, int *);
    int (*thread_init)(unsigned long (*)(void));
    int (*flops)(float *, float *, long long *, float *); /* 3.5's; not in PAPI 7 */
    int (*rate_stop)(void); /* PAPI_rate_stop; a no-op stand-in when the library has none */
    int (*profil)(void *, unsigned, vptr_t, unsigned, int, int, int, int);
    /* Fortran: what `call PAPIF_read(...)` calls, through fpapi.h (papif_read_) and,
     * ours only, through the module (papif_core_read) */
    void (*f_read)(int *, long long *, int *);
    void (*f_read_module)(int *, long long *, int *);
    void (*f_flops)(float *, float *, long long *, float *, int *);
    void (*f_flops_rate)(int *, float *, float *, long long *, float *, int *);
} P;

static int no_rate_stop(void)
{
    return PAPI_OK;
}

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
    SYM(hl_stop, "PAPI_hl_stop");
    SYM(flops_rate, "PAPI_flops_rate");
    SYM(overflow, "PAPI_overflow");
    SYM(event_name_to_code, "PAPI_event_name_to_code");
    SYM(thread_init, "PAPI_thread_init");
    SYM(flops, "PAPI_flops");
    SYM(rate_stop, "PAPI_rate_stop");
    if (!P.rate_stop)
        P.rate_stop = no_rate_stop;
    SYM(profil, "PAPI_profil");
    SYM(f_read, "papif_read_");
    SYM(f_read_module, "papif_core_read");
    SYM(f_flops, "papif_core_flops");
    SYM(f_flops_rate, "papif_flops_rate_");
#undef SYM
    if (!P.library_init || !P.read) {
        fprintf(stderr, "%s is not a PAPI library\n", path);
        exit(1);
    }
}

/* ---- the floors: raw perf_event ------------------------------------------------------- */
static const uint64_t raw_codes[] = {0x08, 0x11, 0x12, 0x10, 0x01, 0x02, 0x03, 0x04,
                                     0x05, 0x09, 0x0a, 0x13, 0x14, 0x16, 0x17, 0x19};
static int raw_alone;
static struct raw_group raw;
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
    raw.n = n;
    raw_alone = alone;
    for (int i = 0; i < n; i++) {
        raw.fd[i] = open_raw(raw_codes[i], alone || i == 0 ? -1 : raw.fd[0], 0, bit,
                             alone ? PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING
                                   : GROUP_FORMAT);
        if (raw.fd[i] < 0) {
            fprintf(stderr, "raw event 0x%llx: %s\n", (unsigned long long)raw_codes[i],
                    strerror(errno));
            exit(1);
        }
        raw.page[i] = NULL;
        if (ua) {
            void *p =
                mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, raw.fd[i], 0);
            raw.page[i] = p == MAP_FAILED ? NULL : p;
        }
        if (alone || i == 0)
            ioctl(raw.fd[i], PERF_EVENT_IOC_ENABLE, 0);
    }
}

static __attribute__((noinline)) void op_raw_read(void)
{
    uint64_t buf[3 + 16];
    if (raw_alone) {
        for (int i = 0; i < raw.n; i++)
            if (read(raw.fd[i], buf, 3 * sizeof(uint64_t)) < 0)
                abort();
    } else if (read(raw.fd[0], buf, (3 + (size_t)raw.n) * sizeof(uint64_t)) < 0) {
        abort();
    }
    sink = buf[0];
}

static __attribute__((noinline)) void op_raw_user(void)
{
    sink = raw_group_user_sum(&raw);
}

/* start+stop floor: disable, the read that freezes the values, enable. */
/* multiplexed start+stop floor: each event alone, disabled, read, enabled. */
static __attribute__((noinline)) void op_raw_mpx_startstop(void)
{
    uint64_t buf[3];
    for (int i = 0; i < raw.n; i++)
        ioctl(raw.fd[i], PERF_EVENT_IOC_DISABLE, 0);
    for (int i = 0; i < raw.n; i++)
        if (read(raw.fd[i], buf, sizeof buf) < 0)
            abort();
    for (int i = 0; i < raw.n; i++)
        ioctl(raw.fd[i], PERF_EVENT_IOC_ENABLE, 0);
    sink = buf[0];
}

static __attribute__((noinline)) void op_raw_startstop(void)
{
    uint64_t buf[4];
    ioctl(raw.fd[0], PERF_EVENT_IOC_DISABLE, 0);
    if (read(raw.fd[0], buf, sizeof buf) < 0)
        abort();
    ioctl(raw.fd[0], PERF_EVENT_IOC_ENABLE, 0);
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

static __attribute__((noinline)) void op_read(void)
{
    P.read(es, vals);
}
static __attribute__((noinline)) void op_accum(void)
{
    P.accum(es, vals);
}
static __attribute__((noinline)) void op_reset(void)
{
    P.reset(es);
}
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

static __attribute__((noinline)) void op_flops35(void)
{
    float rt, pt, mf;
    long long fl;
    P.flops(&rt, &pt, &fl, &mf);
}
static __attribute__((noinline)) void op_f_read(void)
{
    int check;
    P.f_read(&es, vals, &check);
}
static __attribute__((noinline)) void op_f_read_module(void)
{
    int check;
    P.f_read_module(&es, vals, &check);
}
static __attribute__((noinline)) void op_f_flops(void)
{
    float rt, pt, mf;
    long long fl;
    int check;
    P.f_flops(&rt, &pt, &fl, &mf, &check);
}
static __attribute__((noinline)) void op_f_flops_rate(void)
{
    float rt, pt, mf;
    long long fl;
    int check, ev = PAPI_FP_OPS;
    P.f_flops_rate(&ev, &rt, &pt, &fl, &mf, &check);
}

/* 3.5's PAPI_flops and the Fortran calls. PAPI_FP_OPS must exist: in the guest, where
 * QEMU counts no floating-point event, run.sh maps it to INST_RETIRED for both
 * libraries (fp_presets.csv): the cost of the call, not of a floating-point count. */
static void bench_flops(void)
{
    float rt, pt, mf;
    long long fl;
    int check, ev = PAPI_FP_OPS, r;
    /* Each measured after its first call (which starts counting), and ended before the
     * next (PAPI_rate_stop: a thread runs one rate measurement at a time). */
    if (P.f_flops_rate) {
        P.f_flops_rate(&ev, &rt, &pt, &fl, &mf, &check);
        if (check == PAPI_OK)
            report("fortran_flops_rate", per_call(op_f_flops_rate));
        else
            printf("BENCH %s ua=%d fortran_flops_rate failed %d\n", label, ua, check);
        P.rate_stop();
    }
    if (P.flops_rate) {
        if ((r = P.flops_rate(PAPI_FP_OPS, &rt, &pt, &fl, &mf)) == PAPI_OK)
            report("flops_rate", per_call(op_flops));
        else
            printf("BENCH %s ua=%d flops_rate failed %d\n", label, ua, r);
        P.rate_stop();
    }
    if (P.f_flops) {
        P.f_flops(&rt, &pt, &fl, &mf, &check);
        if (check == PAPI_OK)
            report("fortran_flops_35", per_call(op_f_flops));
        else
            printf("BENCH %s ua=%d fortran_flops_35 failed %d\n", label, ua, check);
        P.rate_stop();
    }
    if (P.flops) {
        if ((r = P.flops(&rt, &pt, &fl, &mf)) == PAPI_OK)
            report("flops_35", per_call(op_flops35));
        else
            printf("BENCH %s ua=%d flops_35 failed %d\n", label, ua, r);
        P.rate_stop();
    }
}

static void bench_fortran_read(void)
{
    es = papi_set(1, 0);
    int check = P.start(es);
    if (check == PAPI_OK && P.f_read && (P.f_read(&es, vals, &check), check == PAPI_OK))
        report("fortran_read_1", per_call(op_f_read));
    if (check == PAPI_OK && P.f_read_module &&
        (P.f_read_module(&es, vals, &check), check == PAPI_OK))
        report("fortran_read_module_1", per_call(op_f_read_module));
    if (check != PAPI_OK)
        printf("BENCH %s ua=%d fortran_read failed %d\n", label, ua, check);
    P.stop(es, vals);
    papi_free(es);
}

static void bench_counting(void)
{
    static const int sizes[2] = {1, 4};
    for (int k = 0; k < 2; k++) {
        char path[64];
        raw_open(sizes[k], 0);
        snprintf(path, sizeof path, "floor_read_syscall_%d", sizes[k]);
        report(path, per_call(op_raw_read));
        if (ua && raw.page[0]) {
            snprintf(path, sizeof path, "floor_read_user_%d", sizes[k]);
            report(path, per_call(op_raw_user));
        }
        if (k == 0)
            report("floor_startstop_1", per_call(op_raw_startstop));
        raw_group_close(&raw);
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
        raw_group_close(&raw);
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

/* Region begin + end floor: the two reads of the region's two counters (PAPI_EVENTS:
 * INST_RETIRED, CPU_CYCLES), from user space when the kernel allows it. */
static __attribute__((noinline)) void op_raw_region(void)
{
    if (ua && raw.page[0]) {
        op_raw_user();
        op_raw_user();
    } else {
        op_raw_read();
        op_raw_read();
    }
}

/* BENCH_HL_THREADS=N: N threads alive (asleep on a pipe) before the first region, so the
 * region is the main thread's in a process with threads (an OpenMP pool's shape): its
 * all-thread totals read the process counters, one inherited set per thread. */
static int hl_pipe[2] = {-1, -1};
static void *hl_sleeper(void *arg)
{
    char c;
    (void)arg;
    while (read(hl_pipe[0], &c, 1) < 0 && errno == EINTR)
        ;
    return NULL;
}

/* n sleepers started (fewer when pthread_create fails): the count */
static int start_sleepers(pthread_t *t, int n)
{
    if (n <= 0 || pipe(hl_pipe) != 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, hl_sleeper, NULL) != 0)
            return i;
    return n;
}

static void end_sleepers(pthread_t *t, int n)
{
    if (n <= 0)
        return;
    close(hl_pipe[1]); /* the sleepers' read returns 0 */
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    close(hl_pipe[0]);
}

static int env_is_1(const char *name)
{
    const char *v = getenv(name);
    return v && strcmp(v, "1") == 0;
}

static void bench_highlevel(void)
{
    const char *nt = getenv("BENCH_HL_THREADS");
    int want = nt ? atoi(nt) : 0, n = 0;
    /* BENCH_HL_JOINED=1: the threads end before the first region (the process has had
     * threads, its counters have one row: the main thread's); BENCH_HL_LATE=1: they start
     * inside the first region (an OpenMP pool's first parallel loop: the main thread's
     * inherited counter covers them, one row) */
    int joined = env_is_1("BENCH_HL_JOINED"), late = env_is_1("BENCH_HL_LATE");
    pthread_t t[64];
    if (want > 64)
        want = 64;
    if (!late)
        n = start_sleepers(t, want);
    if (joined) {
        end_sleepers(t, n);
        n = 0;
    }
    raw_open(2, 0);
    report("floor_region_begin_end", per_call(op_raw_region));
    raw_group_close(&raw);
    if (P.hl_region_begin && P.hl_region_begin("bench") == PAPI_OK) {
        if (late)
            n = start_sleepers(t, want);
        P.hl_region_end("bench");
        report(want <= 0 ? "region_begin_end"
               : joined  ? "region_begin_end_joined"
               : late    ? "region_begin_end_late"
                         : "region_begin_end_threads",
               per_call(op_region));
        if (P.hl_stop)
            P.hl_stop(); /* its set stops: the parts after start their own */
    }
    end_sleepers(t, n);
}

/* ---- overflow dispatch and profiling: instructions per signal, per sample ---------------
 * On CPU_CYCLES: in the guest (QEMU) an event counter's overflow interrupt comes at the next
 * timer tick, the cycle counter's on time. 320000 cycles = 20000 instructions at icount
 * shift 4. run.sh fixes the kernel's sample rate (no throttling of these interrupts). */
#define OVF_PERIOD  320000
#define PROF_PERIOD 160000
static volatile long signals;
static void on_overflow(int set, void *addr, long long vec, void *ctx)
{
    (void)set, (void)addr, (void)vec, (void)ctx;
    signals++;
}

static void on_raw_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si, (void)ctx;
    signals++;
}

/* A raw CPU_CYCLES sampling event of this thread: by signal (fasync) or into a ring. */
static int raw_sampling(int ring, void **map, size_t *len)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = 0x11;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.disabled = 1;
    a.sample_period = ring ? PROF_PERIOD : OVF_PERIOD;
    a.sample_type = PERF_SAMPLE_IP;
    if (ring) {
        a.watermark = 1;
        a.wakeup_watermark = 8192;
    }
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0)
        return -1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *len = page * 65;
    *map = ring ? mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : NULL;
    if (!ring) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_raw_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigaction(SIGRTMIN + 3, &sa, NULL);
        struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = (pid_t)syscall(SYS_gettid)};
        fcntl(fd, F_SETOWN_EX, &owner);
        fcntl(fd, F_SETSIG, SIGRTMIN + 3);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
    }
    return fd;
}

static void bench_overflow_floors(void)
{
    const long loop = 5000000;
    void *map;
    size_t len;
    struct meter a0 = pmeter_now();
    spin(loop);
    struct meter a1 = pmeter_now();
    int fd = raw_sampling(0, &map, &len);
    if (fd >= 0) {
        signals = 0;
        struct meter b0 = pmeter_now();
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        spin(loop);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        struct meter b1 = pmeter_now();
        close(fd);
        if (signals > 0)
            report_process("floor_overflow_per_signal", cost_of(a0, a1, b0, b1, signals), signals);
    }
    fd = raw_sampling(1, &map, &len);
    if (fd >= 0 && map != MAP_FAILED) {
        struct meter b0 = pmeter_now();
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        spin(loop);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        struct meter b1 = pmeter_now();
        long n = ring_samples(map);
        munmap(map, len);
        close(fd);
        if (n > 0)
            report_process("floor_profil_ring_per_sample", cost_of(a0, a1, b0, b1, n), n);
    }
}

static void bench_overflow(void)
{
    int code = 0;
    if (!P.overflow || P.event_name_to_code("CPU_CYCLES", &code) != PAPI_OK)
        return;
    static const char *const cyc[] = {"CPU_CYCLES"};
    int s = PAPI_NULL;
    if (P.create_eventset(&s) != PAPI_OK || P.add_named_event(s, cyc[0]) != PAPI_OK)
        return;
    const long loop = 2000000;
    struct meter a0 = meter_now();
    spin(loop);
    struct meter a1 = meter_now();
    if (P.overflow(s, code, OVF_PERIOD, 0, on_overflow) != PAPI_OK || P.start(s) != PAPI_OK)
        return;
    signals = 0;
    struct meter b0 = meter_now();
    spin(loop);
    struct meter b1 = meter_now();
    P.stop(s, vals);
    P.overflow(s, code, 0, 0, on_overflow);
    papi_free(s);
    long n = signals;
    if (n > 0)
        report("overflow_per_signal", cost_of(a0, a1, b0, b1, n));
}

/* PAPI_profil on CPU_CYCLES every PROF_PERIOD over the spin loop: guest instructions
 * (CNTVCT) and the user part of the whole process per sample (ours: by signal with
 * PAPI_PROFIL_RING=0, and from the ring; PAPI 7: by signal, its only way). */
static void bench_profil(void)
{
    int code;
    if (!P.profil || P.event_name_to_code("CPU_CYCLES", &code) != PAPI_OK)
        return;
    static unsigned short hist[4096];
    uintptr_t off = (uintptr_t)&spin & ~(uintptr_t)4095;
    const long loop = 5000000;
    int s = PAPI_NULL;
    if (P.create_eventset(&s) != PAPI_OK || P.add_named_event(s, "CPU_CYCLES") != PAPI_OK)
        return;
    struct meter a0 = pmeter_now();
    P.start(s);
    spin(loop);
    P.stop(s, vals);
    struct meter a1 = pmeter_now();
    int ours = strcmp(label, "ours") == 0;
    for (int ring = 0; ring <= ours; ring++) {
        if (ours && !ring)
            setenv("PAPI_PROFIL_RING", "0", 1);
        else
            unsetenv("PAPI_PROFIL_RING");
        memset(hist, 0, sizeof hist);
        if (P.profil(hist, sizeof hist, (vptr_t)off, 0x10000, s, code, PROF_PERIOD, 0) != PAPI_OK)
            break;
        struct meter b0 = pmeter_now();
        P.start(s);
        spin(loop);
        P.stop(s, vals);
        struct meter b1 = pmeter_now();
        P.profil(hist, sizeof hist, (vptr_t)off, 0x10000, s, code, 0, 0);
        long n = 0;
        for (size_t i = 0; i < sizeof hist / sizeof hist[0]; i++)
            n += hist[i];
        if (n > 0)
            report_process(ring || !ours ? "profil_per_sample" : "profil_per_sample_signal",
                           cost_of(a0, a1, b0, b1, n), n);
    }
    unsetenv("PAPI_PROFIL_RING");
    papi_free(s);
}

/* ---- threads ----------------------------------------------------------------------------
 * Every thread has its own set running (then its own region) while each in turn measures,
 * the others asleep on the turn lock: CNTVCT counts the whole guest, so threads that ran
 * alongside would be counted as the measured thread's cost. */
static pthread_barrier_t barrier;
static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;
static struct cost thread_read[64], thread_region[64];

static struct cost in_turn(op_fn op, int calls)
{
    pthread_mutex_lock(&turn);
    struct cost c = per_call_min(op, calls);
    pthread_mutex_unlock(&turn);
    return c;
}

static void *thread_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    meter_open();
    es = papi_set(1, 0);
    P.start(es);
    pthread_barrier_wait(&barrier);
    thread_read[i] = in_turn(op_read, CALLS);
    pthread_barrier_wait(&barrier);
    P.stop(es, vals);
    papi_free(es);
    thread_region[i] = (struct cost){-1, -1, -1};
    int region = P.hl_region_begin && P.hl_region_begin("t") == PAPI_OK;
    if (region)
        P.hl_region_end("t");
    pthread_barrier_wait(&barrier);
    if (region)
        thread_region[i] = in_turn(op_region, CALLS / 4);
    pthread_barrier_wait(&barrier);
    meter_close();
    return NULL;
}

static unsigned long self_id(void)
{
    return (unsigned long)pthread_self();
}

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
        struct cost r = {0, 0, 0}, g = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            pthread_join(t[i], NULL);
            r.all += thread_read[i].all, r.user += thread_read[i].user;
            g.all += thread_region[i].all, g.user += thread_region[i].user;
        }
        pthread_barrier_destroy(&barrier);
        printf("BENCH %s ua=%d threads_%d read_1 %.0f %.0f region_begin_end %.0f %.0f\n", label, ua,
               n, r.all / n, r.user / n, g.all / n, g.user / n);
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
    pmeter_open(); /* before the library, so its threads inherit it */
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
        ver =
            P.library_init(PAPI_VERSION_NUMBER(PAPI_VERSION_MAJOR(PAPI_VER_CURRENT), minor, 0, 0));
    if (ver < 0) {
        fprintf(stderr, "%s: PAPI_library_init failed\n", label);
        return 1;
    }
    meter_open();
    cntvct_check();
    if (wanted("counting"))
        bench_counting();
    if (wanted("mpx"))
        bench_multiplexed();
    /* Single-threaded until profil (our library starts its sampler thread there; glibc's
     * read() costs more in a process with threads), then threads. The region's set runs
     * in this thread until PAPI_hl_stop: after the parts that start sets of their own. */
    if (wanted("fortran"))
        bench_fortran_read();
    if (wanted("flops"))
        bench_flops();
    if (wanted("highlevel"))
        bench_highlevel();
    if (wanted("overflow")) {
        bench_overflow_floors();
        bench_overflow();
    }
    if (wanted("profil"))
        bench_profil();
    if (wanted("threads"))
        bench_threads();
    return 0;
}
