/* pmu_read_plt: PAPI_read as a program linked with libpapi.so pays it (through the PLT),
 * in guest instructions, kernel included, against the bare user-space read of the same
 * counters (issue 34: at most 1.5x, 1 and 4 events; with kernel.perf_user_access=1).
 *
 * Every guest instruction is counted with the virtual counter CNTVCT_EL0: under QEMU's
 * -icount each instruction advances virtual time by 2^shift ns, so the counter ticks with
 * the instructions executed, whatever the mode (the PMU stops while the kernel handles
 * its own events, so a PMU meter would miss kernel work). The bare read is the seqlock
 * loop of linux/perf_event.h with the times (perf_user_read.h, what the kernel documents
 * for a self-monitoring read), on a group of the same raw events opened with the
 * user-access bit, one page per event. Each cost is the least over many batches of
 * calls minus an empty batch (a timer tick lands in some batches, never in all). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu_hw.h"
#include "raw_group.h"

#define CALLS   200 /* per batch: about 20,000 instructions, under a timer tick's spacing */
#define BATCHES 41  /* the least of these */
#define MAX_EV  4

static const char *names4[MAX_EV] = {"INST_RETIRED", "CPU_CYCLES", "BR_PRED", "BR_MIS_PRED"};
static const uint64_t raw4[MAX_EV] = {0x08, 0x11, 0x12, 0x10};
static double insns_per_tick;

typedef void (*op_fn)(void);
static __attribute__((noinline)) void op_nothing(void)
{
    __asm__ volatile("");
}

static double batch(op_fn op)
{
    uint64_t a = pmu_vcount();
    for (int i = 0; i < CALLS; i++)
        op();
    return (double)(pmu_vcount() - a);
}

/* Guest instructions per call of op, the calling loop subtracted. */
static double per_call(op_fn op)
{
    double best = -1, empty = -1;
    for (int b = 0; b < BATCHES; b++) {
        double e = batch(op_nothing), t = batch(op);
        if (empty < 0 || e < empty)
            empty = e;
        if (best < 0 || t < best)
            best = t;
    }
    return (best - empty) * insns_per_tick / CALLS;
}

static int es1, es4;
static struct raw_group raw;
static long long vals[MAX_EV];
static volatile uint64_t sink;

static __attribute__((noinline)) void op_bare(void)
{
    sink = raw_group_user_sum(&raw);
}
static __attribute__((noinline)) void op_read1(void)
{
    PAPI_read(es1, vals);
}
static __attribute__((noinline)) void op_read4(void)
{
    PAPI_read(es4, vals);
}

static void raw_open(int n, int bit)
{
    raw.n = n;
    for (int i = 0; i < n; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_RAW;
        a.config = raw4[i];
        a.config1 = UINT64_C(1) << bit;
        a.exclude_kernel = a.exclude_hv = 1;
        a.disabled = i == 0;
        a.read_format =
            PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        raw.fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? raw.fd[0] : -1, 0);
        CHECK(raw.fd[i] >= 0, "perf_event_open raw 0x%llx: %s", (unsigned long long)raw4[i],
              strerror(errno));
        void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, raw.fd[i], 0);
        CHECK(p != MAP_FAILED, "mmap of the event page: %s", strerror(errno));
        if (raw.fd[i] < 0 || p == MAP_FAILED)
            exit(1);
        raw.page[i] = p;
    }
    CHECK(ioctl(raw.fd[0], PERF_EVENT_IOC_ENABLE, 0) == 0, "enable the raw group");
}

static double measure_papi(int *es, int n, op_fn op)
{
    *es = pmu_set_of(names4, n);
    CHECK_RET(PAPI_start(*es), PAPI_OK);
    CHECK_RET(PAPI_read(*es, vals), PAPI_OK);
    double c = per_call(op);
    CHECK_RET(PAPI_stop(*es, NULL), PAPI_OK);
    pmu_free_set(es);
    return c;
}

int main(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    pmu_require_hw();
    if (!PAPI_get_component_info(0)->fast_counter_read)
        test_skip("kernel.perf_user_access is 0: PAPI_read takes read(), no user-space read "
                  "to compare with (the lane's a57ua boot has it)");
    int bit = pmu_rdpmc_bit();
    CHECK(bit >= 0, "perf_user_access=1 but no PMU has a format/rdpmc");
    if (bit < 0)
        return test_done("pmu_read_plt");
    insns_per_tick = pmu_insns_per_tick();
    if (PAPI_query_named_event("BR_PRED") != PAPI_OK) { /* Cortex-A57's spelling */
        names4[2] = "BRANCH_PRED";
        names4[3] = "BRANCH_MISPRED";
    }
    double bare[2], papi[2];
    for (int k = 0; k < 2; k++) {
        raw_open(k ? 4 : 1, bit);
        bare[k] = per_call(op_bare);
        raw_group_close(&raw);
    }
    papi[0] = measure_papi(&es1, 1, op_read1);
    papi[1] = measure_papi(&es4, 4, op_read4);
    printf("guest instructions per call (CNTVCT, kernel included; %.3f instructions a tick):\n"
           "  bare user-space read: 1 event %.1f, 4 events %.1f\n"
           "  PAPI_read through the PLT: 1 event %.1f (%.2fx), 4 events %.1f (%.2fx)\n",
           insns_per_tick, bare[0], bare[1], papi[0], papi[0] / bare[0], papi[1],
           papi[1] / bare[1]);
    for (int k = 0; k < 2; k++)
        CHECK(papi[k] <= 1.5 * bare[k], "PAPI_read of %d events costs %.1f > 1.5 x %.1f", k ? 4 : 1,
              papi[k], bare[k]);
    PAPI_shutdown();
    return test_done("pmu_read_plt");
}
