/* pmu_papi_user_read: PAPI_read with user-space counter reads (arm64 user access).
 *
 * 1. fast_counter_read says what the lane configured (PMU_USER_ACCESS: 0 or 1).
 * 2. Raw: a user read of a counter taken between two read()s of the same descriptor lies
 *    between them, many times across the 32-bit wrap of the cycle counter (32-bit
 *    unless opened as a 64-bit "long" event; 2^32 cycles = 2^(32-shift) instructions).
 * 3. PAPI (user access only): reads of INST_RETIRED + CPU_CYCLES across that wrap grow and keep
 *    cycles - 2^shift x instructions constant; PAPI_reset still gives the loop exactly.
 * 4. Benchmark: guest instructions (user and kernel) per PAPI_read (1 and 4 events),
 *    PAPI_accum, PAPI_start + PAPI_stop, against the raw read() and raw user-space
 *    floors, counted by a counter of this program's own. With user access, PAPI_read (1 and 4
 *    events) and PAPI_accum must cost at most 1.5x the raw user-space read (issue 28).
 * 5. A set attached to the calling thread's own id (PAPI_attach(set, gettid()): the OMPT
 *    tool's per-thread sets, which must not take the program's running slot) is read from
 *    user space too (issue 73): as cheap as a set of one's own, and it counts the same. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu_hw.h"
#include "raw_group.h"

#define CALLS 2000
#define MAX_EV 4

static const char *names4[MAX_EV] = {"INST_RETIRED", "CPU_CYCLES", "BR_PRED", "BR_MIS_PRED"};
static const uint64_t raw4[MAX_EV] = {0x08, 0x11, 0x12, 0x10};
static int ua;

static int open_raw_k(uint64_t config, int group_fd, int user_bit, int kernel)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = config;
    a.exclude_kernel = !kernel;
    a.exclude_hv = 1;
    a.disabled = group_fd < 0;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    if (user_bit >= 0)
        a.config1 |= UINT64_C(1) << user_bit;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, 0);
    CHECK(fd >= 0, "perf_event_open raw 0x%llx: %s", (unsigned long long)config, strerror(errno));
    return fd;
}

static int open_raw(uint64_t config, int group_fd, int user_bit)
{
    return open_raw_k(config, group_fd, user_bit, 0);
}

/* ---- the instruction meter -------------------------------------------------------- */
/* One group: guest instructions in user and kernel mode (leader), and in user mode only
 * (exact under icount: what the user-read comparisons use). */
static int meter, meter_user;

struct icount {
    double all, user;
};

static void meter_now(long long *all, long long *user)
{
    uint64_t buf[5];
    CHECK(read(meter, buf, sizeof buf) == (ssize_t)sizeof buf, "meter read");
    *all = (long long)buf[3];
    *user = (long long)buf[4];
}

typedef void (*op_fn)(void);
static __attribute__((noinline)) void op_nothing(void) { __asm__ volatile(""); }

/* instructions per call of op, the calling loop subtracted */
static struct icount per_call(op_fn op)
{
    long long a, au, b, bu, c, cu;
    meter_now(&a, &au);
    for (int i = 0; i < CALLS; i++)
        op_nothing();
    meter_now(&b, &bu);
    for (int i = 0; i < CALLS; i++)
        op();
    meter_now(&c, &cu);
    struct icount r = {(double)((c - b) - (b - a)) / CALLS, (double)((cu - bu) - (bu - au)) / CALLS};
    return r;
}

/* ---- operations measured ---------------------------------------------------------- */
static int es1, es4;
static struct raw_group raw;
static long long vals[MAX_EV];
static volatile uint64_t sink;

static __attribute__((noinline)) void op_raw_read(void)
{
    uint64_t buf[3 + MAX_EV];
    if (read(raw.fd[0], buf, (3 + (size_t)raw.n) * sizeof(uint64_t)) < 0)
        abort();
    sink = buf[3];
}
static __attribute__((noinline)) void op_raw_user(void)
{
    sink = raw_group_user_sum(&raw);
}
static __attribute__((noinline)) void op_read1(void) { PAPI_read(es1, vals); }
static int es_self;
static __attribute__((noinline)) void op_read_self(void) { PAPI_read(es_self, vals); }
static __attribute__((noinline)) void op_read4(void) { PAPI_read(es4, vals); }
static __attribute__((noinline)) void op_accum1(void) { PAPI_accum(es1, vals); }
static __attribute__((noinline)) void op_startstop1(void)
{
    PAPI_stop(es1, vals);
    PAPI_start(es1);
}

static void raw_open(int n, int user_bit)
{
    raw.n = n;
    for (int i = 0; i < n; i++) {
        raw.fd[i] = open_raw(raw4[i], i ? raw.fd[0] : -1, user_bit);
        raw.page[i] = NULL;
        if (user_bit >= 0) {
            void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, raw.fd[i], 0);
            CHECK(p != MAP_FAILED, "mmap of the event page: %s", strerror(errno));
            raw.page[i] = p;
        }
    }
    CHECK(ioctl(raw.fd[0], PERF_EVENT_IOC_ENABLE, 0) == 0, "enable raw group");
}

/* ---- 2. raw bracketing across the cycle counter's 32-bit wrap ----------------------- */
static void check_bracket(int user_bit, int shift)
{
    raw_open(2, user_bit);
    uint64_t buf[3 + 2], c, e, r, prev = 0;
    /* 2^32 cycles = 2^(32-shift) instructions; cover one and a half wraps. */
    long iters = (long)((UINT64_C(3) << 31) >> shift) / PMU_LOOP_INSNS / 40;
    int user_reads = 0;
    for (int k = 0; k < 40; k++) {
        pmu_loop(iters);
        CHECK(read(raw.fd[0], buf, sizeof buf) == sizeof buf, "read");
        uint64_t lo = buf[4];
        int ok = perf_user_read(raw.page[1], &c, &e, &r);
        CHECK(read(raw.fd[0], buf, sizeof buf) == sizeof buf, "read");
        uint64_t hi = buf[4];
        if (!ok)
            continue;
        user_reads++;
        CHECK(lo <= c && c <= hi && c >= prev,
              "user read %llu of CPU_CYCLES not between read()s %llu and %llu (previous %llu)",
              (unsigned long long)c, (unsigned long long)lo, (unsigned long long)hi,
              (unsigned long long)prev);
        prev = c;
    }
    CHECK(user_reads == 40, "only %d of 40 user reads were allowed by the page", user_reads);
    printf("raw: 40 user reads of CPU_CYCLES between read()s, up to %llu cycles (%llu wraps of "
           "2^32)\n", (unsigned long long)prev, (unsigned long long)(prev >> 32));
    raw_group_close(&raw);
}

/* ---- 3. PAPI across the wrap, and after PAPI_reset -------------------------------- */
static void check_papi_wrap(int shift)
{
    static const char *const two[] = {"INST_RETIRED", "CPU_CYCLES"};
    int es = pmu_set_of(two, 2);
    long long v[2], first_gap = 0, prev = -1;
    long iters = (long)((UINT64_C(3) << 31) >> shift) / PMU_LOOP_INSNS / 30;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    for (int k = 0; k < 30; k++) {
        pmu_loop(iters);
        CHECK_RET(PAPI_read(es, v), PAPI_OK);
        long long gap = v[1] - (v[0] << shift);
        if (k == 0)
            first_gap = gap;
        CHECK(v[1] > prev, "cycles went back: %lld after %lld", v[1], prev);
        CHECK(gap == first_gap, "read %d: cycles %lld - 2^%d x instructions %lld = %lld, first %lld",
              k, v[1], shift, v[0], gap, first_gap);
        prev = v[1];
    }
    /* reset: the loop alone, exactly (plus the library's constant). The loop's length is
     * loaded before the reset (volatile: not after it), so that the same instructions lie
     * between the reset and the read for both lengths, however the compiler lays them out. */
    long long c[2];
    static volatile long lengths[2] = {1000, 2000000};
    for (int k = 0; k < 2; k++) {
        long n = lengths[k];
        CHECK_RET(PAPI_reset(es), PAPI_OK);
        pmu_loop(n);
        CHECK_RET(PAPI_read(es, v), PAPI_OK);
        c[k] = v[0] - PMU_LOOP_INSNS * n;
    }
    CHECK(c[0] == c[1] && c[0] >= 0 && c[0] < 1000, "after PAPI_reset: constants %lld and %lld",
          c[0], c[1]);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    pmu_free_set(&es);
    printf("PAPI: 30 reads across %lld cycles, cycles - 2^%d x instructions = %lld at each; "
           "reset constant %lld\n", prev, shift, first_gap, c[0]);
}

/* ---- a forked child reading an inherited running set ------------------------------ */
/* The child has its parent's thread pointer but not its counters: PAPI_read there must
 * not read a counter from user space (arm64: the instruction traps: SIGILL). */
static void check_fork(void)
{
    es1 = pmu_set_of(names4, 1);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        long long v[1];
        int r = PAPI_read(es1, v);
        _exit(r == PAPI_OK || r < 0 ? 0 : 3);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child reading the inherited set: %s %d",
          WIFSIGNALED(st) ? "killed by signal" : "exit status",
          WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    CHECK_RET(PAPI_stop(es1, NULL), PAPI_OK);
    pmu_free_set(&es1);
    printf("fork: the child's PAPI_read of the inherited set ended normally\n");
}

static void check_attached_self(double floor_user1);

/* ---- 4. benchmark ------------------------------------------------------------------ */
static void bench(int user_bit)
{
    struct icount floor_read[2], floor_user[2] = {{0, 0}, {0, 0}};
    for (int k = 0; k < 2; k++) {
        raw_open(k ? 4 : 1, user_bit);
        floor_read[k] = per_call(op_raw_read);
        if (user_bit >= 0 && ua)
            floor_user[k] = per_call(op_raw_user);
        raw_group_close(&raw);
    }
    es1 = pmu_set_of(names4, 1);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    struct icount r1 = per_call(op_read1), acc = per_call(op_accum1), ss = per_call(op_startstop1);
    CHECK_RET(PAPI_stop(es1, NULL), PAPI_OK);
    pmu_free_set(&es1);
    es4 = pmu_set_of(names4, 4);
    CHECK_RET(PAPI_start(es4), PAPI_OK);
    struct icount r4 = per_call(op_read4);
    CHECK_RET(PAPI_stop(es4, NULL), PAPI_OK);
    pmu_free_set(&es4);
    printf("guest instructions per call, all (user only), perf_user_access=%d:\n", ua);
    printf("  raw read(): 1 event %.0f (%.0f), 4 events %.0f (%.0f)\n", floor_read[0].all,
           floor_read[0].user, floor_read[1].all, floor_read[1].user);
    if (ua)
        printf("  raw user read: 1 event %.0f (%.0f), 4 events %.0f (%.0f)\n", floor_user[0].all,
               floor_user[0].user, floor_user[1].all, floor_user[1].user);
    printf("  PAPI_read: 1 event %.0f (%.0f), 4 events %.0f (%.0f)\n", r1.all, r1.user, r4.all,
           r4.user);
    printf("  PAPI_accum 1 event %.0f (%.0f); PAPI_stop+PAPI_start 1 event %.0f (%.0f)\n", acc.all,
           acc.user, ss.all, ss.user);
    if (ua) {
        /* user-only counts: exact, no timer-tick noise, and a user read is all user */
        printf("  PAPI_read / raw user read (user instructions): %.2fx (1 event), %.2fx (4 events)\n",
               r1.user / floor_user[0].user, r4.user / floor_user[1].user);
        CHECK(r1.user <= 1.5 * floor_user[0].user, "PAPI_read of 1 event costs %.0f > 1.5 x %.0f",
              r1.user, floor_user[0].user);
        CHECK(r4.user <= 1.5 * floor_user[1].user, "PAPI_read of 4 events costs %.0f > 1.5 x %.0f",
              r4.user, floor_user[1].user);
        CHECK(acc.user <= 1.5 * floor_user[0].user, "PAPI_accum of 1 event costs %.0f > 1.5 x %.0f",
              acc.user, floor_user[0].user);
    }
    check_attached_self(floor_user[0].user);
}

/* ---- 5. a set attached to this thread itself ---------------------------------------- */
static void check_attached_self(double floor_user1)
{
    es_self = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es_self), PAPI_OK);
    CHECK_RET(PAPI_assign_eventset_component(es_self, 0), PAPI_OK);
    CHECK_RET(PAPI_attach(es_self, (unsigned long)syscall(SYS_gettid)), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es_self, names4[0]), PAPI_OK);
    es1 = pmu_set_of(names4, 1);
    CHECK_RET(PAPI_start(es1), PAPI_OK); /* an own set runs beside it: no slot taken */
    CHECK_RET(PAPI_start(es_self), PAPI_OK);
    struct icount r = per_call(op_read_self);
    /* The same instructions counted by both sets: the attached one's reads (user space)
     * against the own set's around them, which hold the attached set's second read. */
    long long p0, p1, a0, a1;
    CHECK_RET(PAPI_read(es1, vals), PAPI_OK);
    p0 = vals[0];
    CHECK_RET(PAPI_read(es_self, vals), PAPI_OK);
    a0 = vals[0];
    for (int i = 0; i < CALLS; i++)
        op_nothing();
    CHECK_RET(PAPI_read(es_self, vals), PAPI_OK);
    a1 = vals[0];
    CHECK_RET(PAPI_read(es1, vals), PAPI_OK);
    p1 = vals[0];
    CHECK_RET(PAPI_stop(es_self, NULL), PAPI_OK);
    CHECK_RET(PAPI_stop(es1, NULL), PAPI_OK);
    pmu_free_set(&es1);
    pmu_free_set(&es_self);
    printf("  PAPI_read of a set attached to this thread, 1 event: %.0f (%.0f)\n", r.all, r.user);
    printf("  attached set: %lld instructions over the loop, the own set %lld around it\n", a1 - a0,
           p1 - p0);
    CHECK(a1 - a0 >= 3 * CALLS && a1 - a0 <= p1 - p0,
          "the attached set counted %lld over a loop of %d calls, the own set %lld around it",
          a1 - a0, CALLS, p1 - p0);
    if (ua)
        CHECK(r.user <= 1.5 * floor_user1,
              "PAPI_read of a set attached to this thread costs %.0f > 1.5 x %.0f (no user read)",
              r.user, floor_user1);
}

int main(void)
{
    const char *s = getenv("PMU_USER_ACCESS");
    ua = s && atoi(s) == 1;
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    pmu_require_hw();
    int shift = pmu_icount_shift();
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    CHECK(ci->fast_counter_read == ua, "fast_counter_read is %d with perf_user_access=%d",
          ci->fast_counter_read, ua);
    int bit = pmu_rdpmc_bit();
    CHECK(!ua || bit >= 0, "perf_user_access=1 but no PMU has a format/rdpmc");
    /* The meter counts user and kernel instructions (a read() is mostly kernel). */
    meter = open_raw_k(0x08, -1, -1, 1);
    meter_user = open_raw_k(0x08, meter, -1, 0);
    /* libpfm4 names the branch events BR_PRED / BR_MIS_PRED on Neoverse-N1 and
     * BRANCH_PRED / BRANCH_MISPRED on Cortex-A57. */
    if (PAPI_query_named_event("BR_PRED") != PAPI_OK) {
        names4[2] = "BRANCH_PRED";
        names4[3] = "BRANCH_MISPRED";
    }
    CHECK(ioctl(meter, PERF_EVENT_IOC_ENABLE, 0) == 0, "enable meter");
    if (ua) { /* without user access the kernel's read() handles the wrap (other tests) */
        check_bracket(bit, shift);
        check_papi_wrap(shift);
        check_fork();
    }
    bench(ua ? bit : -1);
    close(meter_user);
    close(meter);
    PAPI_shutdown();
    return test_done("pmu_papi_user_read");
}
