/* test_cuda.c: the cuda component (CUPTI's Range Profiler) through the API, on the CUPTI
 * double (tests/gpu_activity/cupti_double.c + cupti_profiler_double.c: libcupti.so.13) and
 * the CUDA driver double (cuda_driver_double.c: libcuda.so.1) that this program is linked
 * with and that ctest puts first on LD_LIBRARY_PATH; the metrics and each range's values
 * are staged in cuda_profiler.txt (PAPI_TEST_CUPTI_PROFILER). Modes:
 *   list        PAPI 7.2's names (listed form, :stat= and :device= qualifiers, defaults,
 *               bad qualifiers refused), descriptions, listing under 2 s, the
 *               per-chip+driver+CUPTI cache (a second listing reads it; a damaged
 *               file, another driver version and another CUPTI list anew)
 *   count       add/start/read/accum/reset/stop exact against the staged ranges, beside a
 *               CPU set counting at the same time
 *   devices     one set counting two devices, each in its own context
 *   threads     two threads, each its own context, device and set
 *   shutdown    PAPI_shutdown with a set counting: the profiler disabled, no crash
 *   lost        a range lost while counting (the double's decode fails): said at that
 *               read and the next (no stale count), the set stopped all the same
 *   metrics     the named GPU metrics (GPU_FP64_FLOPS ... GPU_IPC) exact from the counts
 *               cuda_metrics.txt stages; metrics_nodevice: unresolved, with the reason
 *   region      two regions of the region API (PAPI_EVENTS=cuda:::..., check_gpu_region.py)
 *   multipass | privileges | busy | nocontext
 *               the add refused with its one-line reason: the passes a metric needs, the
 *               admin-only restriction with its fix, another profiler on the device, a
 *               program that never initialised CUDA (and no context made for it) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "expect_reason.h"
#include "papi.h"
#include "papi_metrics.h"
#include "scratch_cache.h"
#include "papi_test.h"

void cuda_double_make_current(int device);
int cuda_double_contexts_created(void);
int cuda_double_inits(void);
int cupti_double_base_metric_calls(void);
int cupti_double_profilers(void);

#define CYCLES0 "cuda:::sm__cycles_active.sum:device=0"
#define NEVENTS 19 /* cuda_profiler.txt: 16 full names on GH100, 3 on GA100 */

static int code_of(const char *name)
{
    int code = 0;
    return PAPI_event_name_to_code(name, &code) == PAPI_OK ? code : -1;
}

static int count_events(void)
{
    int cidx = PAPI_get_component_index("cuda"), code = PAPI_NATIVE_MASK, n = 0;
    CHECK(cidx >= 0, "no component cuda");
    if (cidx < 0 || PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
        return 0;
    do
        n++;
    while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void same(const char *alias, const char *name)
{
    int a = code_of(alias), b = code_of(name);
    CHECK(a != -1 && a == b, "%s is %#x, %s is %#x", alias, (unsigned)a, name, (unsigned)b);
}

static int exists(const char *dir, const char *file)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/papi-compat/%s", dir, file);
    return access(path, R_OK) == 0;
}

/* A cache directory of the run's own (XDG_CACHE_HOME), removed at the end. */
static char cache_dir[] = "/tmp/test_cuda_cacheXXXXXX";

static void fresh_cache(void)
{
    CHECK(scratch_cache_make(cache_dir) == 0, "mkdtemp");
}

static void remove_cache(void)
{
    scratch_cache_remove(cache_dir);
}

static void mode_list(void)
{
    const char *dir = cache_dir;
    /* PAPI_library_init neither starts the driver nor lists: the first question does */
    init_or_die();
    CHECK_EQ_LL(cuda_double_inits(), 0);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), 0);
    /* nor does a name that cannot be a CUPTI metric (unit__counter): a misspelt CPU event,
     * which the core asks of cuda too, prefix put back, or cuda's own without the __ */
    const char *not_metrics[] = {"PAPI_TOT_INSS", "perf::TASK-CLOCKK", "cycles_elapsed",
                                 "cuda:::sm_cycles_elapsed.avg:device=0",
                                 "cuda:::smcycles:device=0__x"};
    for (size_t i = 0; i < sizeof not_metrics / sizeof not_metrics[0]; i++) {
        int code;
        CHECK_EQ_LL(PAPI_event_name_to_code(not_metrics[i], &code), PAPI_ENOEVNT);
    }
    CHECK_EQ_LL(cuda_double_inits(), 0);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), 0);
    double t0 = now_s();
    CHECK_EQ_LL(count_events(), NEVENTS);
    double listed = now_s() - t0;
    int calls = cupti_double_base_metric_calls();
    printf("listed through CUPTI in %.3f s at the first question, %d GetBaseMetrics calls\n",
           listed, calls);
    CHECK_EQ_LL(cuda_double_inits(), 1);
    CHECK_EQ_LL(calls, 6); /* 3 metric types x 2 chips */
    CHECK(listed < 2.0, "listing took %.3f s", listed);
    CHECK(exists(dir, "cuda-GH100-driver13000-cupti130001.tsv") &&
              exists(dir, "cuda-GA100-driver13000-cupti130001.tsv"),
          "no cache files under %s", dir);
    /* PAPI 7.2's names */
    const char *listed_names[] = {
        CYCLES0,
        "cuda:::sm__cycles_active.sum.per_second:device=0",
        "cuda:::sm__throughput.avg.pct_of_peak_sustained_elapsed:device=0",
        "cuda:::smsp__average_inst_executed_per_warp.max_rate:device=0",
        "cuda:::dram__bytes.sum:device=1",
        "cuda:::launch__grid_size:device=0"};
    for (size_t i = 0; i < sizeof listed_names / sizeof listed_names[0]; i++)
        CHECK(code_of(listed_names[i]) != -1, "%s is not listed", listed_names[i]);
    same("cuda:::sm__cycles_active:stat=sum:device=0", CYCLES0);
    same("cuda:::sm__cycles_active:device=0:stat=sum", CYCLES0);
    same("cuda:::sm__cycles_active:stat=sum", CYCLES0);
    same("cuda:::sm__cycles_active.sum", CYCLES0);
    same("cuda:::dram__bytes.per_second:stat=sum:device=0",
         "cuda:::dram__bytes.sum.per_second:device=0");
    same("cuda:::sm__cycles_active:device=0", "cuda:::sm__cycles_active.avg:device=0");
    same("cuda:::dram__bytes:device=1", "cuda:::dram__bytes.sum:device=1");
    same("cuda:::smsp__average_inst_executed_per_warp:stat=ratio",
         "cuda:::smsp__average_inst_executed_per_warp.ratio:device=0");
    const char *bad[] = {
        "cuda:::sm__cycles_active:stat=median",  "cuda:::sm__cycles_active:stat=sum:stat=sum",
        "cuda:::sm__cycles_active:device=x",     "cuda:::sm__cycles_active:device=0:device=0",
        "cuda:::sm__cycles_active:unit=1",       "cuda:::sm__cycles_active.sum:device=2",
        "cuda:::sm__cycles_active.max:device=1", "cuda:::no_such_metric.sum"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(code_of(bad[i]) == -1, "%s was accepted", bad[i]);
    PAPI_event_info_t info;
    memset(&info, 0, sizeof info);
    CHECK_RET(PAPI_get_event_info(code_of(CYCLES0), &info), PAPI_OK);
    printf("%s: %s (%s)\n", info.symbol, info.long_descr, info.units);
    CHECK(strstr(info.long_descr, "# of cycles with at least one warp in flight") &&
              strstr(info.long_descr, "device 0, chip GH100") && strcmp(info.units, "cycle") == 0,
          "description '%s', units '%s'", info.long_descr, info.units);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
    PAPI_shutdown();
    /* the second listing reads the cache */
    init_or_die();
    t0 = now_s();
    CHECK_EQ_LL(count_events(), NEVENTS);
    printf("listed from the cache in %.3f s\n", now_s() - t0);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), calls);
    PAPI_shutdown();
    /* a damaged cache file: listed anew and rewritten */
    char damaged[4200];
    snprintf(damaged, sizeof damaged, "%s/papi-compat/cuda-GH100-driver13000-cupti130001.tsv", dir);
    FILE *f = fopen(damaged, "w");
    CHECK(f != NULL, "cannot write %s", damaged);
    if (f) {
        fputs("# papi-compat cuda metrics 1\nno tabs here\n", f);
        fclose(f);
    }
    init_or_die();
    CHECK_EQ_LL(count_events(), NEVENTS);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), calls + 3); /* GH100's 3 types again */
    PAPI_shutdown();
    calls += 3;
    /* another driver: listed anew */
    setenv("PAPI_TEST_CUDA_DRIVER", "13010", 1);
    init_or_die();
    CHECK_EQ_LL(count_events(), NEVENTS);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), calls + 6);
    CHECK(exists(dir, "cuda-GH100-driver13010-cupti130001.tsv"), "no cache file for driver 13010");
    PAPI_shutdown();
    /* another CUPTI (its host library names the metrics): listed anew */
    setenv("PAPI_TEST_CUPTI_MODE", "version=130002", 1);
    init_or_die();
    CHECK_EQ_LL(count_events(), NEVENTS);
    CHECK_EQ_LL(cupti_double_base_metric_calls(), calls + 12);
    CHECK(exists(dir, "cuda-GH100-driver13010-cupti130002.tsv"), "no cache file for CUPTI 130002");
    PAPI_shutdown();
}

/* The GPU's set counted beside a CPU set, started and stopped together (a set holds one
 * component's events, as PAPI's: the core refuses a mix with PAPI_ECNFLCT). */
static void mode_count(void)
{
    init_or_die();
    cuda_double_make_current(0);
    const char *cpu_names[] = {"perf::TASK-CLOCK"};
    int cpu = named_set(cpu_names, 1);
    CHECK_RET(PAPI_add_named_event(cpu, CYCLES0), PAPI_ECNFLCT);
    const char *names[] = {CYCLES0, "cuda:::dram__bytes:stat=sum:device=0",
                           "cuda:::sm__cycles_active:stat=max:device=0",
                           "cuda:::launch__grid_size:device=0"};
    int es = named_set(names, 4);
    long long v[4] = {0}, acc[4] = {0}, c0 = 0, c1 = 0;
    CHECK_RET(PAPI_start(cpu), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* range 1 */
    CHECK_RET(PAPI_read(cpu, &c0), PAPI_OK);
    printf("read: %lld %lld %lld (cpu %lld)\n", v[0], v[1], v[2], c0);
    CHECK(c0 > 0 && v[0] == 1000 && v[1] == 4096 && v[2] == 10 && v[3] == 123, "first read");
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* ranges 1-2 */
    printf("read: %lld %lld %lld\n", v[0], v[1], v[2]);
    CHECK(v[0] == 3500 && v[1] == 12288 && v[2] == 30, "second read");
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK); /* ranges 1-3, then counting again from 0 */
    printf("accum: %lld %lld\n", acc[0], acc[1]);
    CHECK(acc[0] == 3900 && acc[1] == 12304, "accum");
    CHECK_RET(PAPI_reset(es), PAPI_OK);   /* range 4 closed, counts from 0 */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK); /* range 5 */
    CHECK_RET(PAPI_stop(cpu, &c1), PAPI_OK);
    printf("stop: %lld %lld %lld (cpu %lld)\n", v[0], v[1], v[2], c1);
    CHECK(v[0] == 123 && v[1] == 64 && v[2] == 7 && c1 >= c0, "stop after the reset");
    CHECK_EQ_LL(cupti_double_profilers(), 0);
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* stopped: frozen */
    CHECK(v[0] == 123, "stopped read %lld", v[0]);
    free_set(&es);
    free_set(&cpu);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

/* A range lost while counting (the double's second decode fails): that read fails with
 * the call's name, the next read too (never the stale count), the stop says it and stops
 * the set (the count kept), a new start counts again. */
static void mode_lost(void)
{
    init_or_die();
    cuda_double_make_current(0);
    const char *names[] = {CYCLES0};
    int es = named_set(names, 1);
    long long v = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, 1000);
    CHECK_RET(PAPI_read(es, &v), PAPI_ECMP);
    expect_reason("lost", "cuptiRangeProfilerDecodeData on device 0 failed", NULL);
    CHECK_RET(PAPI_read(es, &v), PAPI_ECMP);
    expect_reason("after", "ended at an earlier error", NULL);
    CHECK_RET(PAPI_stop(es, &v), PAPI_ECMP);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK); /* stopped all the same */
    CHECK_EQ_LL(cupti_double_profilers(), 0);
    CHECK_RET(PAPI_start(es), PAPI_OK); /* a new profiler object: its ranges from 1 */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("after a new start: %lld\n", v);
    CHECK_EQ_LL(v, 1000);
    free_set(&es);
}

/* PAPI_shutdown with a set still counting: its ranges closed, the profiler disabled,
 * no call into an unloaded library. */
static void mode_shutdown(void)
{
    init_or_die();
    cuda_double_make_current(0);
    const char *names[] = {CYCLES0};
    int es = named_set(names, 1);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_EQ_LL(cupti_double_profilers(), 1);
    PAPI_shutdown();
    CHECK_EQ_LL(cupti_double_profilers(), 0);
}

static void mode_devices(void)
{
    init_or_die();
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    cuda_double_make_current(0);
    CHECK_RET(PAPI_add_named_event(es, CYCLES0), PAPI_OK);
    cuda_double_make_current(1);
    CHECK_RET(PAPI_add_named_event(es, "cuda:::sm__cycles_active.sum:device=1"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "cuda:::dram__bytes.sum:device=1"), PAPI_OK);
    long long v[3] = {0};
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_EQ_LL(cupti_double_profilers(), 2);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    printf("read: %lld %lld %lld\n", v[0], v[1], v[2]);
    CHECK(v[0] == 1000 && v[1] == 7 && v[2] == 100, "read of two devices");
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    printf("stop: %lld %lld %lld\n", v[0], v[1], v[2]);
    CHECK(v[0] == 3500 && v[1] == 18 && v[2] == 300, "stop of two devices");
    CHECK_EQ_LL(cupti_double_profilers(), 0);
    free_set(&es);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

/* Each thread: its own context on its device, its own set. */
static void *thread_counts(void *arg)
{
    int device = (int)(long)arg;
    long long want[2][2] = {{1000, 3500}, {7, 18}}, v = 0;
    char name[96];
    snprintf(name, sizeof name, "cuda:::sm__cycles_active.sum:device=%d", device);
    CHECK_RET(PAPI_register_thread(), PAPI_OK);
    cuda_double_make_current(device);
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, name), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &v), PAPI_OK);
    CHECK(v == want[device][0], "thread of device %d read %lld", device, v);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("device %d's thread: %lld\n", device, v);
    CHECK(v == want[device][1], "thread of device %d stopped at %lld", device, v);
    free_set(&es);
    CHECK_RET(PAPI_unregister_thread(), PAPI_OK);
    return NULL;
}

static unsigned long thread_id(void)
{
    return (unsigned long)pthread_self();
}

static void mode_threads(void)
{
    init_or_die();
    CHECK_RET(PAPI_thread_init(thread_id), PAPI_OK);
    pthread_t t[2];
    for (long d = 0; d < 2; d++)
        pthread_create(&t[d], NULL, thread_counts, (void *)d);
    for (int d = 0; d < 2; d++)
        pthread_join(t[d], NULL);
    CHECK_EQ_LL(cupti_double_profilers(), 0);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

/* The named GPU metrics from the cuda counters (papi_metrics.csv's GPU_CUDA group) on the
 * counts cuda_metrics.txt stages for device 0's first range: each metric's events in a set
 * of their own, one range (start to stop), evaluated over 0.5 s. The wants are the
 * formulas worked by hand over the staged numbers. */
static void mode_metrics(void)
{
    init_or_die();
    cuda_double_make_current(0);
    const struct {
        const char *name;
        int events;
        double want;
    } m[] = {{"GPU_FP64_FLOPS", 3, (1000 + 2000 + 2 * 3000) / 0.5}, /* dadd, dmul, 2 x dfma */
             {"GPU_FP32_FLOPS", 3, (400 + 600 + 2 * 2500) / 0.5},   /* fadd, fmul, 2 x ffma */
             {"GPU_DRAM_BYTES", 1, 1048576},
             {"GPU_DRAM_READ_BW", 1, 786432 / 0.5},
             {"GPU_DRAM_WRITE_BW", 1, 262144 / 0.5},
             {"GPU_ACHIEVED_OCCUPANCY", 2, 100.0 * 384000 / 768000}, /* warps / their most */
             {"GPU_IPC", 2, 30000.0 / 12000}};                       /* inst / active cycles */
    static PAPIM_metric_info_t info;
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        CHECK_RET(PAPIM_query_metric(m[k].name, &info), PAPI_OK);
        printf("%s [%s] = %s: resolved %d, countable %d%s%s\n", info.name, info.unit, info.formula,
               info.resolved, info.countable, info.reason[0] ? ": " : "", info.reason);
        CHECK(info.resolved && info.countable && info.num_events == m[k].events,
              "%s: resolved %d, countable %d, %d events", m[k].name, info.resolved, info.countable,
              info.num_events);
        int es = PAPI_NULL;
        long long v[PAPIM_MAX_EVENTS] = {0};
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        for (int i = 0; i < info.num_events; i++)
            CHECK_RET(PAPI_add_named_event(es, info.event_names[i]), PAPI_OK);
        CHECK_RET(PAPI_start(es), PAPI_OK); /* a new profiler object: its range 1 */
        CHECK_RET(PAPI_stop(es, v), PAPI_OK);
        double got = -1;
        CHECK_RET(PAPIM_evaluate_eventset(m[k].name, es, v, 0.5, &got), PAPI_OK);
        printf("  %s = %.17g (want %.17g)\n", m[k].name, got, m[k].want);
        CHECK(got == m[k].want, "%s is %.17g, want %.17g", m[k].name, got, m[k].want);
        free_set(&es);
    }
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

/* No CUDA device (the driver double's nodevice mode): each GPU_CUDA metric listed,
 * unresolved, its reason naming the event and why the component is disabled. */
static void mode_metrics_nodevice(void)
{
    init_or_die();
    static PAPIM_metric_info_t info;
    const char *names[] = {"GPU_FP64_FLOPS", "GPU_DRAM_BYTES", "GPU_ACHIEVED_OCCUPANCY", "GPU_IPC"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        CHECK_RET(PAPIM_query_metric(names[k], &info), PAPI_OK);
        printf("%s: resolved %d: %s\n", names[k], info.resolved, info.reason);
        CHECK(!info.resolved && !info.countable && strstr(info.reason, "cuda:::") &&
                  strstr(info.reason, "component cuda is disabled") &&
                  strstr(info.reason, "no NVIDIA device"),
              "%s: resolved %d, reason '%s'", names[k], info.resolved, info.reason);
    }
}

/* Two regions of the region API on device 0, its events from PAPI_EVENTS
 * (check_gpu_region.py checks gpu_work's values in the report). */
static void mode_region(void)
{
    cuda_double_make_current(0);
    CHECK_RET(PAPI_hl_region_begin("gpu_first"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("gpu_first"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_begin("gpu_work"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("gpu_work"), PAPI_OK);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

static void refused(const char *event, int code, const char *words, const char *words2)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, event), code);
    const char *why = expect_reason(event, words, words2);
    CHECK(!strchr(why, '\n'), "the reason is more than one line");
    free_set(&es);
}

static void mode_refused(const char *mode)
{
    init_or_die();
    if (strcmp(mode, "nocontext") != 0)
        cuda_double_make_current(0);
    if (strcmp(mode, "multipass") == 0) {
        const char *dfma = "cuda:::smsp__sass_thread_inst_executed_op_dfma_pred_on.sum:device=0";
        refused(dfma, PAPI_EMULPASS, "need 2 passes", "counts in one");
        int es = PAPI_NULL;
        long long v = 0;
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        CHECK_RET(PAPI_add_named_event(es, CYCLES0), PAPI_OK);
        CHECK_RET(PAPI_add_named_event(es, dfma), PAPI_EMULPASS);
        expect_reason("beside another", "with the set's other metrics", NULL);
        CHECK_RET(PAPI_start(es), PAPI_OK); /* the set counts what it had */
        CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
        CHECK_EQ_LL(v, 1000);
        free_set(&es);
    } else if (strcmp(mode, "privileges") == 0) {
        refused(CYCLES0, PAPI_EPERM, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES",
                "NVreg_RestrictProfilingToAdminUsers=0");
    } else if (strcmp(mode, "busy") == 0) {
        refused(CYCLES0, PAPI_ECNFLCT, "CUPTI_ERROR_HARDWARE_BUSY", "another profiler");
    } else {
        refused(CYCLES0, PAPI_ECMP, "no CUDA context on device 0", "creates none");
    }
    CHECK_EQ_LL(cupti_double_profilers(), 0);
    CHECK_EQ_LL(cuda_double_contexts_created(), 0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "list";
    fresh_cache();
    if (strcmp(mode, "list") == 0)
        mode_list();
    else if (strcmp(mode, "count") == 0)
        mode_count();
    else if (strcmp(mode, "devices") == 0)
        mode_devices();
    else if (strcmp(mode, "threads") == 0)
        mode_threads();
    else if (strcmp(mode, "lost") == 0)
        mode_lost();
    else if (strcmp(mode, "shutdown") == 0)
        mode_shutdown();
    else if (strcmp(mode, "metrics") == 0)
        mode_metrics();
    else if (strcmp(mode, "metrics_nodevice") == 0)
        mode_metrics_nodevice();
    else if (strcmp(mode, "region") == 0)
        mode_region();
    else
        mode_refused(mode);
    remove_cache();
    return test_done("test_cuda");
}
