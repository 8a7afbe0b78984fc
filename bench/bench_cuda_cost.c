/* bench_cuda_cost: what the cuda component (CUPTI's Range Profiler in a user range,
 * src-c/lib/components/gpu) adds on the host, on the doubles: the CUPTI double
 * (tests/gpu_activity/cupti_profiler_double.c, libcupti.so.13) and the CUDA driver double
 * (tests/components/cuda_driver_double.c, libcuda.so.1), both found on LD_LIBRARY_PATH
 * as the component finds them. Per PAPI_read, PAPI_accum, PAPI_reset and start+stop of a
 * set of 1 and of 4 metrics of device 0: ns per call against the floor, the same range
 * calls made directly on the double (a read: pop, stop, decode, evaluate, the counter data
 * image initialised, start, push; a start+stop: enable ... push and pop ... disable with
 * the configuration image made once before), and the CUPTI and driver calls each makes,
 * as the doubles count them. Per kernel launch (the driver double's
 * cuda_double_launch_kernel, which models none of the driver's own work): the launch
 * with a set counting against the launch alone, and with a PAPI_read every K launches
 * against the floor's read every K; the CUPTI calls made while launches run with a set
 * counting are counted too (0: a user range asks nothing of the tool per kernel).
 * Fairness as bench_counting's (bench_timing.h): warm-up, ABBA pairs, medians.
 * The metric list is staged in tests/components/cuda_profiler.txt (PAPI_TEST_CUPTI_PROFILER,
 * set by default) and cached in a folder of the run's own, removed at the end.
 *
 *   LD_LIBRARY_PATH=<build>/tests/components/cuda_driver_double:<build>/tests/gpu_activity/cupti_double \
 *       bench_cuda_cost [--reps PAIRS] [--launches N] [--every K] */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_timing.h"
#include "cupti_profiler_api.h"
#include "scratch_cache.h"
#include "papi.h"

#ifndef CUDA_PROFILER_TXT
#define CUDA_PROFILER_TXT "tests/components/cuda_profiler.txt"
#endif
#define BATCH    16
#define MAX_METS 4

/* device 0's metrics in cuda_profiler.txt, all counted in one pass */
static const char *const metrics[MAX_METS] = {"sm__cycles_active.sum", "dram__bytes.sum",
                                              "sm__cycles_active.max",
                                              "smsp__average_inst_executed_per_warp.ratio"};

/* ---- the doubles' calls ---------------------------------------------------------------- */
static struct {
#define FIELD(sym) __typeof__(sym) *sym;
    CUDA_PROFILER_SYMBOLS(FIELD)
#undef FIELD
    unsigned long (*profiler_calls)(void);
    unsigned long (*driver_calls)(void);
    CUresult (*launch)(void);
    void (*make_current)(int);
    CUresult (*ctx_current)(CUcontext *);
} dbl;

/* Both doubles, by the sonames the component loads: 0, or -1 said. */
static int load_doubles(void)
{
    void *cupti = dlopen("libcupti.so.13", RTLD_NOW), *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cupti || !cuda) {
        fprintf(stderr, "bench_cuda_cost: %s (put the doubles' folders on LD_LIBRARY_PATH)\n",
                dlerror());
        return -1;
    }
#define LOOK(sym) *(void **)&dbl.sym = dlsym(cupti, #sym);
    CUDA_PROFILER_SYMBOLS(LOOK)
#undef LOOK
    *(void **)&dbl.profiler_calls = dlsym(cupti, "cupti_double_profiler_calls");
    *(void **)&dbl.driver_calls = dlsym(cuda, "cuda_double_driver_calls");
    *(void **)&dbl.launch = dlsym(cuda, "cuda_double_launch_kernel");
    *(void **)&dbl.make_current = dlsym(cuda, "cuda_double_make_current");
    *(void **)&dbl.ctx_current = dlsym(cuda, "cuCtxGetCurrent");
    if (!dbl.profiler_calls || !dbl.driver_calls || !dbl.launch || !dbl.make_current ||
        !dbl.ctx_current || !dbl.cuptiRangeProfilerDecodeData) {
        fprintf(stderr, "bench_cuda_cost: the libcupti.so.13 and libcuda.so.1 found are not the "
                        "project's doubles (no call counters): it measures on the doubles only\n");
        return -1;
    }
    return 0;
}

/* ---- the floor: the range calls made directly --------------------------------------------- */
struct floor_range {
    const char *names[MAX_METS];
    int n;
    CUcontext ctx;
    CUpti_Profiler_Host_Object *host;
    uint8_t *config;
    size_t config_size;
    CUpti_RangeProfiler_Object *profiler;
    uint8_t *data;
    size_t data_size;
    double values[MAX_METS];
};

#define PARAMS(type, last, ...)                              \
    (type)                                                   \
    {                                                        \
        .structSize = PROFILER_SIZE(type, last), __VA_ARGS__ \
    }

/* The configuration image of the metrics, once (the component makes it at each start). */
static int floor_prepare(struct floor_range *f, const char *chip)
{
    CUpti_Profiler_Host_Initialize_Params init =
        PARAMS(CUpti_Profiler_Host_Initialize_Params, pHostObject,
               .profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER, .pChipName = chip);
    if (dbl.cuptiProfilerHostInitialize(&init) != CUPTI_SUCCESS)
        return -1;
    f->host = init.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add =
        PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics, .pHostObject = f->host,
               .ppMetricNames = f->names, .numMetrics = (size_t)f->n);
    CUpti_Profiler_Host_GetConfigImageSize_Params size = PARAMS(
        CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize, .pHostObject = f->host);
    if (dbl.cuptiProfilerHostConfigAddMetrics(&add) != CUPTI_SUCCESS ||
        dbl.cuptiProfilerHostGetConfigImageSize(&size) != CUPTI_SUCCESS ||
        !(f->config = calloc(1, size.configImageSize)))
        return -1;
    f->config_size = size.configImageSize;
    CUpti_Profiler_Host_GetConfigImage_Params image =
        PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage, .pHostObject = f->host,
               .configImageSize = f->config_size, .pConfigImage = f->config);
    return dbl.cuptiProfilerHostGetConfigImage(&image) == CUPTI_SUCCESS ? 0 : -1;
}

static int floor_init_data(struct floor_range *f)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params p =
        PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData,
               .pRangeProfilerObject = f->profiler, .counterDataSize = f->data_size,
               .pCounterData = f->data);
    return dbl.cuptiRangeProfilerCounterDataImageInitialize(&p) == CUPTI_SUCCESS ? 0 : -1;
}

static int floor_push(struct floor_range *f)
{
    CUpti_RangeProfiler_Start_Params start =
        PARAMS(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject,
               .pRangeProfilerObject = f->profiler);
    CUpti_RangeProfiler_PushRange_Params push =
        PARAMS(CUpti_RangeProfiler_PushRange_Params, pRangeName,
               .pRangeProfilerObject = f->profiler, .pRangeName = "floor");
    return dbl.cuptiRangeProfilerStart(&start) == CUPTI_SUCCESS &&
                   dbl.cuptiRangeProfilerPushRange(&push) == CUPTI_SUCCESS
               ? 0
               : -1;
}

/* Enable, size and initialise the counter data, configure, start, push. */
static int floor_start(struct floor_range *f)
{
    CUpti_RangeProfiler_Enable_Params en =
        PARAMS(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject, .ctx = f->ctx);
    if (dbl.cuptiRangeProfilerEnable(&en) != CUPTI_SUCCESS)
        return -1;
    f->profiler = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params size =
        PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize,
               .pRangeProfilerObject = f->profiler, .pMetricNames = f->names,
               .numMetrics = (size_t)f->n, .maxNumOfRanges = 1, .maxNumRangeTreeNodes = 1);
    if (dbl.cuptiRangeProfilerGetCounterDataSize(&size) != CUPTI_SUCCESS ||
        !(f->data = calloc(1, size.counterDataSize)))
        return -1;
    f->data_size = size.counterDataSize;
    if (floor_init_data(f) != 0)
        return -1;
    CUpti_RangeProfiler_SetConfig_Params cfg = PARAMS(
        CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel,
        .pRangeProfilerObject = f->profiler, .configSize = f->config_size, .pConfig = f->config,
        .counterDataImageSize = f->data_size, .pCounterDataImage = f->data,
        .range = CUPTI_UserRange, .replayMode = CUPTI_UserReplay, .maxRangesPerPass = 1,
        .numNestingLevels = 1, .minNestingLevel = 1, .targetNestingLevel = 1);
    if (dbl.cuptiRangeProfilerSetConfig(&cfg) != CUPTI_SUCCESS)
        return -1;
    return floor_push(f);
}

/* Pop, stop, decode and evaluate the range. */
static int floor_collect(struct floor_range *f)
{
    CUpti_RangeProfiler_PopRange_Params pop =
        PARAMS(CUpti_RangeProfiler_PopRange_Params, pRangeProfilerObject,
               .pRangeProfilerObject = f->profiler);
    CUpti_RangeProfiler_Stop_Params stop = PARAMS(
        CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted, .pRangeProfilerObject = f->profiler);
    CUpti_RangeProfiler_DecodeData_Params decode =
        PARAMS(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped,
               .pRangeProfilerObject = f->profiler);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = PARAMS(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues, .pHostObject = f->host,
        .pCounterDataImage = f->data, .counterDataImageSize = f->data_size, .rangeIndex = 0,
        .ppMetricNames = f->names, .numMetrics = (size_t)f->n, .pMetricValues = f->values);
    return dbl.cuptiRangeProfilerPopRange(&pop) == CUPTI_SUCCESS &&
                   dbl.cuptiRangeProfilerStop(&stop) == CUPTI_SUCCESS &&
                   dbl.cuptiRangeProfilerDecodeData(&decode) == CUPTI_SUCCESS &&
                   dbl.cuptiProfilerHostEvaluateToGpuValues(&eval) == CUPTI_SUCCESS
               ? 0
               : -1;
}

/* A read: the range closed, evaluated and the next one opened. */
static int floor_read(struct floor_range *f)
{
    return floor_collect(f) == 0 && floor_init_data(f) == 0 ? floor_push(f) : -1;
}

static int floor_stop(struct floor_range *f)
{
    int ret = floor_collect(f);
    CUpti_RangeProfiler_Disable_Params off =
        PARAMS(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject,
               .pRangeProfilerObject = f->profiler);
    if (dbl.cuptiRangeProfilerDisable(&off) != CUPTI_SUCCESS)
        ret = -1;
    free(f->data);
    f->data = NULL;
    return ret;
}

static void floor_release(struct floor_range *f)
{
    CUpti_Profiler_Host_Deinitialize_Params p =
        PARAMS(CUpti_Profiler_Host_Deinitialize_Params, pHostObject, .pHostObject = f->host);
    dbl.cuptiProfilerHostDeinitialize(&p);
    free(f->config);
}

/* ---- the sides compared ----------------------------------------------------------------- */
struct side_arg {
    int set; /* ours: a cuda event set of n metrics, started unless timing start+stop */
    struct floor_range *f;
    long long v[MAX_METS];
    int failed;
    long launches, every;  /* the launch rows */
    unsigned long outside; /* CUPTI calls of its untimed start and stop, not the launches' */
};

static int runs_ok(struct side_arg *a, int ok)
{
    if (!ok && !a->failed) {
        fprintf(stderr, "bench_cuda_cost: a call failed during the timing\n");
        a->failed = 1;
    }
    return ok;
}

#define TIMED(body)                      \
    long long t0_ = now_ns();            \
    for (int i_ = 0; i_ < BATCH; i_++) { \
        body;                            \
    }                                    \
    return now_ns() - t0_

static long long ours_read(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, PAPI_read(a->set, a->v) == PAPI_OK));
}

static long long ours_accum(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, PAPI_accum(a->set, a->v) == PAPI_OK));
}

static long long ours_reset(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, PAPI_reset(a->set) == PAPI_OK));
}

static long long ours_start_stop(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, PAPI_start(a->set) == PAPI_OK && PAPI_stop(a->set, a->v) == PAPI_OK));
}

static long long floor_read_side(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, floor_read(a->f) == 0));
}

/* The floor of an accum: the read and the values added to the caller's. */
static int floor_accum(struct side_arg *a)
{
    int ret = floor_read(a->f);
    for (int k = 0; k < a->f->n; k++)
        a->v[k] += (long long)a->f->values[k];
    return ret;
}

static long long floor_accum_side(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, floor_accum(a) == 0));
}

static long long floor_start_stop(void *p)
{
    struct side_arg *a = p;
    TIMED(runs_ok(a, floor_start(a->f) == 0 && floor_stop(a->f) == 0));
}

/* Launches, a read every a->every of them (0: none); per_run is a->launches. */
static long long launches(struct side_arg *a, int (*read)(struct side_arg *))
{
    long long t0 = now_ns();
    for (long i = 1; i <= a->launches; i++) {
        runs_ok(a, dbl.launch() == CUDA_SUCCESS);
        if (a->every && i % a->every == 0)
            runs_ok(a, read(a) == 0);
    }
    return now_ns() - t0;
}

static int read_ours(struct side_arg *a)
{
    return PAPI_read(a->set, a->v) == PAPI_OK ? 0 : -1;
}

static int read_floor(struct side_arg *a)
{
    return floor_read(a->f);
}

static long long launch_alone(void *p)
{
    struct side_arg *a = p;
    long every = a->every;
    a->every = 0;
    long long t = launches(a, read_ours);
    a->every = every;
    return t;
}

/* The set started and stopped outside the timed launches (their calls set apart). */
static long long launch_counting(void *p)
{
    struct side_arg *a = p;
    unsigned long c0 = dbl.profiler_calls();
    runs_ok(a, PAPI_start(a->set) == PAPI_OK);
    unsigned long c1 = dbl.profiler_calls();
    long long t = launches(a, read_ours);
    unsigned long c2 = dbl.profiler_calls();
    runs_ok(a, PAPI_stop(a->set, a->v) == PAPI_OK);
    a->outside += (c1 - c0) + (dbl.profiler_calls() - c2);
    return t;
}

static long long launch_floor_reads(void *p)
{
    struct side_arg *a = p;
    unsigned long c0 = dbl.profiler_calls();
    runs_ok(a, floor_start(a->f) == 0);
    unsigned long c1 = dbl.profiler_calls();
    long long t = launches(a, read_floor);
    unsigned long c2 = dbl.profiler_calls();
    runs_ok(a, floor_stop(a->f) == 0);
    a->outside += (c1 - c0) + (dbl.profiler_calls() - c2);
    return t;
}

/* ---- the rows ---------------------------------------------------------------------------- */
struct calls {
    double cupti, driver;
};

/* The doubles' calls per operation of one run of a side (untimed), less those of its
 * untimed part. */
static struct calls calls_per_op(const struct bench_side *s)
{
    struct side_arg *a = s->arg;
    unsigned long c0 = dbl.profiler_calls(), d0 = dbl.driver_calls();
    a->outside = 0;
    s->run(a);
    return (struct calls){(double)(dbl.profiler_calls() - c0 - a->outside) / s->per_run,
                          (double)(dbl.driver_calls() - d0) / s->per_run};
}

static int pairs = 201;

static int row(const char *label, const struct bench_side *ours, const struct bench_side *floor,
               int digits)
{
    struct calls co = calls_per_op(ours), cf = calls_per_op(floor);
    struct bench_compare r;
    if (bench_abba(ours, floor, pairs, pairs / 10 + 5, &r) != 0)
        return -1;
    printf("%-30s %9.*f %9.*f %8.2f %7.2f %7.2f %7.2f\n", label, digits, r.a_ns, digits, r.b_ns,
           r.ratio, co.cupti, cf.cupti, co.driver);
    return 0;
}

static int make_set(int n, int *set)
{
    *set = PAPI_NULL;
    if (PAPI_create_eventset(set) != PAPI_OK)
        return -1;
    for (int i = 0; i < n; i++) {
        char name[200];
        snprintf(name, sizeof name, "cuda:::%s:device=0", metrics[i]);
        int ret = PAPI_add_named_event(*set, name);
        if (ret != PAPI_OK) {
            fprintf(stderr, "bench_cuda_cost: PAPI_add_named_event(%s): %s\n", name,
                    PAPI_strerror(ret));
            return -1;
        }
    }
    return 0;
}

static int operation_rows(int n, const char *chip, CUcontext ctx)
{
    struct floor_range f = {.n = n, .ctx = ctx};
    memcpy(f.names, metrics, sizeof f.names);
    struct side_arg o = {.f = &f}, fl = {.f = &f};
    if (make_set(n, &o.set) != 0 || floor_prepare(&f, chip) != 0) {
        fprintf(stderr, "bench_cuda_cost: the set or the floor's configuration failed\n");
        return -1;
    }
    const struct {
        const char *op;
        long long (*ours)(void *), (*floor)(void *);
        int running; /* timed with both ranges open */
    } ops[] = {{"PAPI_read", ours_read, floor_read_side, 1},
               {"PAPI_accum", ours_accum, floor_accum_side, 1},
               {"PAPI_reset", ours_reset, floor_read_side, 1},
               {"PAPI_start+stop", ours_start_stop, floor_start_stop, 0}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s x%d", ops[i].op, n);
        if (ops[i].running && (PAPI_start(o.set) != PAPI_OK || floor_start(&f) != 0))
            return -1;
        struct bench_side a = {ops[i].ours, &o, BATCH}, b = {ops[i].floor, &fl, BATCH};
        if (row(label, &a, &b, 0) != 0)
            return -1;
        if (ops[i].running && (PAPI_stop(o.set, o.v) != PAPI_OK || floor_stop(&f) != 0))
            return -1;
    }
    floor_release(&f);
    PAPI_cleanup_eventset(o.set);
    PAPI_destroy_eventset(&o.set);
    return o.failed || fl.failed ? -1 : 0;
}

/* Per launch: with a set of one metric counting against none, then with a read every K
 * against the floor's read every K; and the calls a counting set makes between reads. */
static int launch_rows(const char *chip, CUcontext ctx, long n, long every)
{
    struct floor_range f = {.n = 1, .ctx = ctx, .names = {metrics[0]}};
    struct side_arg o = {.f = &f, .launches = n, .every = 0}, fl = o;
    if (make_set(1, &o.set) != 0 || floor_prepare(&f, chip) != 0)
        return -1;
    struct bench_side counting = {launch_counting, &o, (int)n}, alone = {launch_alone, &fl, (int)n};
    if (row("launch, a set counting", &counting, &alone, 2) != 0)
        return -1;
    o.every = fl.every = every;
    struct bench_side ours = {launch_counting, &o, (int)n},
                      floor = {launch_floor_reads, &fl, (int)n};
    char label[64];
    snprintf(label, sizeof label, "launch, PAPI_read every %ld", every);
    if (row(label, &ours, &floor, 2) != 0)
        return -1;
    /* Between reads: the calls the component makes while the program launches. */
    o.every = 0;
    if (PAPI_start(o.set) != PAPI_OK)
        return -1;
    unsigned long c0 = dbl.profiler_calls(), d0 = dbl.driver_calls();
    launches(&o, read_ours);
    unsigned long c = dbl.profiler_calls() - c0, d = dbl.driver_calls() - d0;
    if (PAPI_stop(o.set, o.v) != PAPI_OK)
        return -1;
    printf("while counting, %ld launches made %lu CUPTI calls and %lu driver calls\n", n, c, d);
    if (c || d) { /* a user range needs none: a per-kernel path crept in */
        fprintf(stderr, "bench_cuda_cost: the component called CUPTI or the driver between "
                        "reads; a user range needs no call per kernel\n");
        return -1;
    }
    floor_release(&f);
    PAPI_cleanup_eventset(o.set);
    PAPI_destroy_eventset(&o.set);
    return o.failed || fl.failed ? -1 : 0;
}

/* ---- a cache folder of the run's own ------------------------------------------------------- */
static char cache_dir[] = "/tmp/bench_cuda_cost_XXXXXX";

int main(int argc, char **argv)
{
    long n = 10000, every = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps"))
            pairs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--launches"))
            n = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--every"))
            every = atol(argv[i + 1]);
        else
            pairs = 0;
    }
    if (argc % 2 == 0 || pairs < 3 || pairs > 100001 || n < 10 || n > 10000000 || every < 1 ||
        every > n) {
        fprintf(stderr, "usage: bench_cuda_cost [--reps PAIRS 3..100001] [--launches N] "
                        "[--every K]\n");
        return 2;
    }
    /* the staged metrics; the activity layer's cost per launch is bench_gpu_launch's */
    setenv("PAPI_TEST_CUPTI_PROFILER", CUDA_PROFILER_TXT, 0);
    setenv("PAPI_GPU_ACTIVITY", "0", 1);
    if (scratch_cache_make(cache_dir) != 0) {
        perror("mkdtemp");
        return 1;
    }
    int ret = 1;
    if (load_doubles() != 0)
        goto out;
    dbl.make_current(0); /* the program's own context on device 0 */
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "bench_cuda_cost: PAPI_library_init failed\n");
        goto out;
    }
    CUcontext ctx = NULL;
    CUpti_Device_GetChipName_Params chip =
        PARAMS(CUpti_Device_GetChipName_Params, pChipName, .deviceIndex = 0);
    CUpti_Profiler_Initialize_Params init = PARAMS(CUpti_Profiler_Initialize_Params, pPriv);
    if (dbl.ctx_current(&ctx) != CUDA_SUCCESS ||
        dbl.cuptiProfilerInitialize(&init) != CUPTI_SUCCESS ||
        dbl.cuptiDeviceGetChipName(&chip) != CUPTI_SUCCESS) {
        fprintf(stderr, "bench_cuda_cost: the doubles have no device 0\n");
        goto out;
    }
    printf("cuda component on the doubles (host side only): ns per call, median of %d pairs "
           "in ABBA order after warm-up; ratio = median of per-pair ratios; calls per call as "
           "the doubles count them\n",
           pairs);
    printf("%-30s %9s %9s %8s %7s %7s %7s\n", "operation", "ours", "floor", "ratio", "CUPTI",
           "floor's", "driver");
    if (operation_rows(1, chip.pChipName, ctx) != 0 ||
        operation_rows(MAX_METS, chip.pChipName, ctx) != 0) {
        fprintf(stderr, "bench_cuda_cost: failed\n");
        goto out;
    }
    printf("per launch (%ld launches a run, the driver double's launch: no driver work "
           "modelled); floor: the launch alone, then the floor's read every %ld\n",
           n, every);
    if (launch_rows(chip.pChipName, ctx, n, every) != 0) {
        fprintf(stderr, "bench_cuda_cost: the launch rows failed\n");
        goto out;
    }
    CUpti_Profiler_DeInitialize_Params deinit = PARAMS(CUpti_Profiler_DeInitialize_Params, pPriv);
    dbl.cuptiProfilerDeInitialize(&deinit);
    PAPI_shutdown();
    ret = 0;
out:
    scratch_cache_remove(cache_dir);
    return ret;
}
