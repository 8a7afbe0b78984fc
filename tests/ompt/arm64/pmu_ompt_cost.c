/* pmu_ompt_cost (arm64 PMU lane, issue 73 item 1): what counting per region costs a
 * thread, counters off against on, in guest instructions (user and kernel) and read()
 * system calls. This program (gcc -fopenmp: libgomp) runs itself again ("child") under
 * LLVM's libomp (LD_PRELOAD=libomp.so.5) with the OMPT tool three times:
 *   off      PAPI_OMPT_EVENTS= (set, empty): the tables without counts;
 *   hw       PAPI_OMPT_EVENTS=PAPI_TOT_INS,PAPI_TOT_CYC: papi_run's default hardware
 *            events, the ones a set reads from user space where the PMU allows it;
 *   default  papi_run's whole default list (its software events too: perf::TASK-CLOCK,
 *            PAGE-FAULTS, CONTEXT-SWITCHES), which no set reads from user space.
 * The child counts its own instructions (user, kernel: perf_event_open, no inherit) and its
 * read() calls (the syscalls:sys_enter_read tracepoint, tracefs mounted when it is not)
 * over REGIONS empty parallel regions of one thread (num_threads(1): the tool's callbacks
 * and both of its reads, and nothing that waits for another thread, so that the counts
 * do not depend on the scheduling of a single vCPU). Per region, printed for each mode;
 * checked: with user access (the CPU component's fast_counter_read) the hw mode costs at
 * most 400 instructions more than off and calls no read(); without it the hw mode calls
 * at most two read() per region (its two reads), and papi_run's default there is the
 * cheaper mode, counters per region off (run_openmp.c: fast_counter_read 0), which this
 * test states. SKIPPED where no hardware counts instructions or no libomp.so.5. */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../run/arm64/lane_sample.h"
#include "pmu_hw.h"
#include "test_perf_open.h"

#define REGIONS     2000
#define WARM        50
#define OUTDIR      "/tmp/pmu_ompt_cost"
#define ADDED_MAX   400 /* instructions per region and thread past off, with user access */
#define HW_EVENTS   "PAPI_TOT_INS,PAPI_TOT_CYC"
#define ALL_DEFAULT "perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES," HW_EVENTS

#if defined(__clang__)
#define NOT_INLINED __attribute__((noinline))
#else
#define NOT_INLINED __attribute__((noinline, noclone))
#endif

static NOT_INLINED void region(void)
{
#pragma omp parallel num_threads(1)
    __asm__ volatile("" ::: "memory");
    __asm__ volatile("" ::: "memory");
}

/* The tracepoint's id, tracefs mounted where it is not; -1 when there is none. */
static long read_tracepoint(void)
{
    static const char *const dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 2; i++) {
            char path[128];
            snprintf(path, sizeof path, "%s/events/syscalls/sys_enter_read/id", dirs[i]);
            FILE *f = fopen(path, "r");
            long id = -1;
            if (f) {
                if (fscanf(f, "%ld", &id) != 1)
                    id = -1;
                fclose(f);
                return id;
            }
            if (pass == 0 && i == 0)
                mount("tracefs", dirs[0], "tracefs", 0, NULL);
        }
    return -1;
}

static int child(void)
{
    int libomp = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL;
    for (int i = 0; i < WARM; i++) /* the loader's bindings, the thread's event set */
        region();
    long tp = read_tracepoint();
    int fu = test_perf_open_part(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0);
    int fk = test_perf_open_part(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
    int fr = tp >= 0 ? test_perf_open_part(PERF_TYPE_TRACEPOINT, (uint64_t)tp, 0, 1) : -1;
    long long u0 = test_perf_value(fu), k0 = test_perf_value(fk), r0 = test_perf_value(fr);
    for (int i = 0; i < REGIONS; i++)
        region();
    long long r1 = test_perf_value(fr), k1 = test_perf_value(fk), u1 = test_perf_value(fu);
    printf("pmu_ompt_cost facts: pid=%ld libomp=%d user=%lld kernel=%lld reads=%lld\n",
           (long)getpid(), libomp, fu >= 0 ? u1 - u0 : -1, fk >= 0 ? k1 - k0 : -1,
           fr >= 0 ? r1 - r0 - 1 : -1); /* less the read of r1 itself */
    return 0;
}

struct mode {
    const char *name, *events;
    long pid;
    int libomp;
    long long user, kernel, reads, counted;
};

/* "threads_counted": N in the tool's file, -1 when absent. */
static long long threads_counted(long pid)
{
    char path[256], buf[1 << 16];
    snprintf(path, sizeof path, OUTDIR "/ompt_%ld.json", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strstr(buf, "\"threads_counted\"");
    p = p ? strchr(p, ':') : NULL;
    return p ? strtoll(p + 1, NULL, 10) : -1;
}

static void run_mode(const char *self, const char *tool, struct mode *m)
{
    char cmd[4 * PATH_MAX], line[1024];
    snprintf(cmd, sizeof cmd,
             "rm -rf " OUTDIR " && OMP_TOOL_LIBRARIES=%s PAPI_OMPT_EVENTS='%s' "
             "PAPI_OMPT_OUTPUT_DIR=" OUTDIR " LD_PRELOAD=libomp.so.5 %s child 2>&1",
             tool, m->events, self);
    m->pid = 0, m->libomp = -1, m->user = m->kernel = m->reads = -1;
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "cannot run %s", cmd);
    if (!p)
        return;
    while (fgets(line, sizeof line, p)) {
        if (strncmp(line, "pmu_ompt_cost facts:", 20) != 0)
            fputs(line, stdout);
        sscanf(line, "pmu_ompt_cost facts: pid=%ld libomp=%d user=%lld kernel=%lld reads=%lld",
               &m->pid, &m->libomp, &m->user, &m->kernel, &m->reads);
    }
    CHECK(pclose(p) == 0, "%s: the child's exit status", m->name);
    m->counted = m->pid > 0 ? threads_counted(m->pid) : -1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child();
    lane_need_instructions();
    int fast = PAPI_get_component_info(0)->fast_counter_read;

    char tool[PATH_MAX + 64], self[PATH_MAX];
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    pmu_ompt_tool(self, tool, sizeof tool);
    CHECK(access(tool, R_OK) == 0, "no OMPT tool at %s (scripts/pmu-lane.sh stages it)", tool);
    if (access(tool, R_OK) != 0)
        return test_done("pmu_ompt_cost");

    struct mode m[3] = {{.name = "off", .events = ""},
                        {.name = "hw", .events = HW_EVENTS},
                        {.name = "default", .events = ALL_DEFAULT}};
    for (int i = 0; i < 3; i++)
        run_mode(self, tool, &m[i]);
    if (m[0].libomp == 0)
        test_skip("libomp.so.5 (LLVM's OpenMP runtime) is not in the guest: the program ran "
                  "under libgomp, which has no OMPT");
    for (int i = 0; i < 3; i++) {
        CHECK(m[i].user > 0 && m[i].kernel >= 0, "%s: no instruction counts", m[i].name);
        CHECK(m[i].counted == (i == 0 ? 0 : 1), "%s: the tool counted %lld threads, want %d",
              m[i].name, m[i].counted, i == 0 ? 0 : 1);
    }
    double per[3], reads[3];
    for (int i = 0; i < 3; i++) {
        per[i] = (double)(m[i].user + m[i].kernel) / REGIONS;
        reads[i] = m[i].reads >= 0 ? (double)m[i].reads / REGIONS : -1;
        printf("pmu_ompt_cost: fast_counter_read=%d %-7s per region and thread: %.1f "
               "instructions (user %.1f, kernel %.1f), read() %.3f; past off %+.1f\n",
               fast, m[i].name, per[i], (double)m[i].user / REGIONS, (double)m[i].kernel / REGIONS,
               reads[i], per[i] - per[0]);
    }
    if (fast) {
        CHECK(per[1] <= per[0] + ADDED_MAX,
              "user access: counters on (%s) cost %.1f instructions per region and thread "
              "past off, want at most %d",
              HW_EVENTS, per[1] - per[0], ADDED_MAX);
        CHECK(reads[1] < 0 || reads[1] - reads[0] < 0.01,
              "user access: %.3f read() per region with counters on, want none", reads[1]);
    } else {
        CHECK(reads[1] < 0 || reads[1] - reads[0] <= 2.01,
              "no user access: %.3f read() per region with counters on, want at most two (its "
              "two reads)",
              reads[1]);
        printf("pmu_ompt_cost: no user access here: papi_run's default counts nothing per "
               "region (the cheaper mode, said in its banner): 0 read() per region and "
               "thread\n");
    }
    return test_done("pmu_ompt_cost");
}
