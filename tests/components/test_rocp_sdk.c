/* test_rocp_sdk.c: the rocp_sdk component (rocprofiler-sdk's dispatch counting) through the
 * API, on the rocprofiler-sdk double (rocprofiler_sdk_double.c: librocprofiler-sdk.so.0)
 * that this program is linked with and that ctest puts first on LD_LIBRARY_PATH; the
 * agents, counters and each dispatch's counts are staged in rocp_sdk.txt
 * (PAPI_TEST_ROCP_SDK). A kernel dispatch is the double's rocp_sdk_double_dispatch(device)
 * on the calling thread. Modes:
 *   list      PAPI 7.2's names (listed form, :device and dimension qualifiers in any order,
 *             defaults), descriptions, bad names and qualifiers refused; nothing of the SDK
 *             touched by PAPI_library_init, all of it at the first question
 *   count     add/start/dispatch/read/accum/reset/stop exact; dispatches before the start,
 *             after the stop and on a device the set does not count are not counted; a
 *             second running set on the same thread refused
 *   devices   one set counting two devices, each its own dispatches
 *   threads   two threads, each its own set, counting only their own dispatches
 *   shutdown  PAPI_shutdown with a set counting: everything released; initialised again,
 *             it lists and counts without registering with the SDK a second time
 *   conflict  another context holds the service: PAPI_start refused with the reason
 *   hwlimit   two counters the hardware cannot count together: the add refused
 *   region    two dispatches in the region gpu_work through PAPI_EVENTS (its report is
 *             checked by check_gpu_region.py) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_test.h"

/* The double's side (rocprofiler_sdk_double.c). */
int rocp_sdk_double_dispatch(int device);
int rocp_sdk_double_configures(void);
int rocp_sdk_double_started(void);
int rocp_sdk_double_live_configs(void);

#define WAVES0   "rocp_sdk:::SQ_WAVES:device=0"
#define GRBM0    "rocp_sdk:::GRBM_COUNT:device=0"
#define XCC1     "rocp_sdk:::SQ_WAVES:device=0:DIMENSION_XCC=1"
#define XCC1_SE2 "rocp_sdk:::SQ_WAVES:device=0:DIMENSION_XCC=1:DIMENSION_SHADER_ENGINE=2"
#define WAVES1   "rocp_sdk:::SQ_WAVES:device=1"
#define TCC1     "rocp_sdk:::TCC_HIT:device=1"
#define DISPATCH 3600 /* SQ_WAVES a dispatch: 100 x (1 + ... + 8) */
#define XCC1_ONE 2600 /* its XCC 1: 100 x (5 + 6 + 7 + 8) */
#define SE2_ONE  700  /* XCC 1, shader engine 2: instance 6 */
#define GRBM_ONE 7
#define TCC_ONE  680 /* 5 x (1 + ... + 16) */

static int code_of(const char *name)
{
    int code = -1;
    return PAPI_event_name_to_code(name, &code) == PAPI_OK ? code : -1;
}

static void dispatch(int device, int times, int records)
{
    for (int i = 0; i < times; i++) {
        int got = rocp_sdk_double_dispatch(device);
        CHECK(got == records, "dispatch on device %d delivered %d records, want %d", device, got,
              records);
    }
}

static void mode_list(void)
{
    CHECK_EQ_LL(rocp_sdk_double_configures(), 0); /* PAPI_library_init touched nothing */
    int cidx = PAPI_get_component_index("rocp_sdk");
    CHECK(cidx >= 0, "no component rocp_sdk");
    CHECK_EQ_LL(rocp_sdk_double_configures(), 1); /* its description: discovery, once */
    const char *listed[] = {WAVES0, GRBM0, WAVES1, "rocp_sdk:::GRBM_COUNT:device=1", TCC1};
    int n = 0, code = 0 | PAPI_NATIVE_MASK;
    char name[PAPI_MAX_STR_LEN];
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
        do {
            CHECK_RET(PAPI_event_code_to_name(code, name), PAPI_OK);
            CHECK(n < 5 && strcmp(name, listed[n]) == 0, "event %d is %s, want %s", n, name,
                  n < 5 ? listed[n] : "none");
            n++;
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    CHECK_EQ_LL(n, 5);
    CHECK_EQ_LL(rocp_sdk_double_configures(), 1);
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    CHECK(info && !info->disabled && info->num_native_events == 5, "component info");

    PAPI_event_info_t ev;
    event_info_of(WAVES0, &ev);
    CHECK(strcmp(ev.long_descr,
                 "Count number of waves sent to SQs. (device 0, gfx90a AMD_Instinct_MI210); "
                 "dimensions DIMENSION_XCC 0-1, DIMENSION_SHADER_ENGINE 0-3, summed unless one "
                 "is named (:DIMENSION=i)") == 0,
          "description: %s", ev.long_descr);
    event_info_of(GRBM0, &ev);
    CHECK(strcmp(ev.long_descr,
                 "Tie High - Count Number of Clocks (device 0, gfx90a AMD_Instinct_MI210)") == 0,
          "description: %s", ev.long_descr);

    /* Defaults and qualifiers in any order name one event. */
    CHECK(code_of("rocp_sdk:::SQ_WAVES") == code_of(WAVES0) && code_of(WAVES0) != -1,
          "no :device is device 0");
    int q = code_of("rocp_sdk:::SQ_WAVES:DIMENSION_SHADER_ENGINE=2:DIMENSION_XCC=1");
    CHECK(q != -1 && q == code_of(XCC1_SE2) && q != code_of(XCC1), "qualified codes");
    CHECK_RET(PAPI_event_code_to_name(q, name), PAPI_OK);
    CHECK(strcmp(name, XCC1_SE2) == 0, "canonical name %s", name);
    event_info_of(XCC1, &ev);
    CHECK(strcmp(ev.symbol, XCC1) == 0 && strstr(ev.long_descr, "Count number of waves"),
          "qualified info %s", ev.symbol);

    const char *bad[] = {"rocp_sdk:::NO_SUCH_COUNTER",
                         "rocp_sdk:::TCC_HIT:device=0", /* device 0 lacks it */
                         "rocp_sdk:::SQ_WAVES:device=2",
                         "rocp_sdk:::SQ_WAVES:device=0:DIMENSION_XCC=2", /* 0-1 */
                         "rocp_sdk:::SQ_WAVES:DIMENSION_INSTANCE=0",     /* not SQ_WAVES' */
                         "rocp_sdk:::SQ_WAVES:device=0:device=1",
                         "rocp_sdk:::SQ_WAVES:DIMENSION_XCC=0:DIMENSION_XCC=1",
                         "rocp_sdk:::SQ_WAVES:device=x",
                         "rocp_sdk:::SQ_WAVES:DIMENSION_XCC",
                         "rocp_sdk:::SQ_WAVES:device=",
                         "rocp_sdk:::SQ_WAVES:"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_RET(PAPI_event_name_to_code(bad[i], &code), PAPI_ENOEVNT);
    CHECK(strstr(PAPI_strerror_detail(), "SQ_WAVES") != NULL, "reason: %s", PAPI_strerror_detail());
    CHECK_EQ_LL(rocp_sdk_double_configures(), 1);
}

/* The GPU's set counted beside a CPU set (a set holds one component's events, as PAPI's:
 * the core refuses a mix with PAPI_ECNFLCT). */
static void mode_count(void)
{
    const char *cpu_names[] = {"perf::TASK-CLOCK"};
    int cpu = named_set(cpu_names, 1);
    CHECK_RET(PAPI_add_named_event(cpu, WAVES0), PAPI_ECNFLCT);
    long long c0 = 0;
    const char *names[] = {WAVES0, GRBM0, XCC1, XCC1_SE2};
    long long v[4], acc[4] = {0};
    int es = named_set(names, 4);
    CHECK_EQ_LL(rocp_sdk_double_dispatch(0), -1); /* before the start: no context started */
    CHECK_RET(PAPI_start(cpu), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_EQ_LL(rocp_sdk_double_started(), 1);
    dispatch(0, 2, 8 + 1); /* SQ_WAVES' 8 instances and GRBM_COUNT's one */
    dispatch(1, 1, 0);     /* device 1: not in the set, no configuration chosen */
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_RET(PAPI_read(cpu, &c0), PAPI_OK);
    CHECK(c0 > 0, "the CPU set beside read %lld", c0);
    long long want1[] = {2 * DISPATCH, 2 * GRBM_ONE, 2 * XCC1_ONE, 2 * SE2_ONE};
    expect_values(names, v, want1, 4);
    dispatch(0, 1, 9);
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK); /* then counting again from 0 */
    long long want2[] = {3 * DISPATCH, 3 * GRBM_ONE, 3 * XCC1_ONE, 3 * SE2_ONE};
    expect_values(names, acc, want2, 4);
    dispatch(0, 1, 9);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    long long want3[] = {DISPATCH, GRBM_ONE, XCC1_ONE, SE2_ONE};
    expect_values(names, v, want3, 4);
    /* One set of a thread counts its dispatches: a second is refused while it runs (the
     * core's rule for every component). */
    int other = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&other), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(other, WAVES1), PAPI_OK);
    CHECK_RET(PAPI_start(other), PAPI_EISRUN);
    free_set(&other);
    CHECK_RET(PAPI_reset(es), PAPI_OK);
    dispatch(0, 2, 9);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_RET(PAPI_stop(cpu, &c0), PAPI_OK);
    free_set(&cpu);
    long long want4[] = {2 * DISPATCH, 2 * GRBM_ONE, 2 * XCC1_ONE, 2 * SE2_ONE};
    expect_values(names, v, want4, 4);
    CHECK_EQ_LL(rocp_sdk_double_started(), 0);
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 0);
    CHECK_EQ_LL(rocp_sdk_double_dispatch(0), -1); /* stopped: not counted */
    /* Started again: counts from 0. */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    dispatch(0, 1, 9);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    expect_values(names, v, want3, 4);
    free_set(&es);
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 0);
}

static void mode_devices(void)
{
    const char *names[] = {WAVES0, WAVES1, TCC1};
    long long v[3];
    int es = named_set(names, 3);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 2); /* one per device */
    dispatch(0, 1, 8);
    dispatch(1, 2, 8 + 16);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    long long want[] = {DISPATCH, 2 * DISPATCH, 2 * TCC_ONE};
    expect_values(names, v, want, 3);
    free_set(&es);
}

static pthread_barrier_t barrier;

static void *counting_thread(void *arg)
{
    long times = (long)arg;
    CHECK_RET(PAPI_register_thread(), PAPI_OK);
    const char *names[] = {WAVES0};
    long long v = -1;
    int es = named_set(names, 1);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pthread_barrier_wait(&barrier); /* both counting */
    dispatch(0, (int)times, 8);
    pthread_barrier_wait(&barrier); /* both dispatched */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK(v == times * DISPATCH, "thread with %ld dispatches read %lld, want %lld", times, v,
          (long long)times * DISPATCH);
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
    CHECK_RET(PAPI_thread_init(thread_id), PAPI_OK);
    pthread_t t[2];
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_create(&t[0], NULL, counting_thread, (void *)3L);
    pthread_create(&t[1], NULL, counting_thread, (void *)5L);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    pthread_barrier_destroy(&barrier);
    CHECK_EQ_LL(rocp_sdk_double_dispatch(0), -1); /* this thread counts nothing */
    CHECK_EQ_LL(rocp_sdk_double_started(), 0);
}

/* PAPI_shutdown with a set counting: its configuration and the context released; a new
 * PAPI_library_init lists and counts again without registering with the SDK twice. */
static void mode_shutdown(void)
{
    const char *names[] = {WAVES0, XCC1};
    long long v[2];
    int es = named_set(names, 2);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    dispatch(0, 1, 8);
    PAPI_shutdown();
    CHECK_EQ_LL(rocp_sdk_double_started(), 0);
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 0);
    CHECK_EQ_LL(rocp_sdk_double_dispatch(0), -1);
    init_or_die();
    es = named_set(names, 2);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    dispatch(0, 2, 8);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    long long want[] = {2 * DISPATCH, 2 * XCC1_ONE};
    expect_values(names, v, want, 2);
    CHECK_EQ_LL(rocp_sdk_double_configures(), 1);
    free_set(&es);
}

static void mode_conflict(void)
{
    const char *names[] = {WAVES0};
    int es = named_set(names, 1);
    CHECK_RET(PAPI_start(es), PAPI_ECNFLCT);
    const char *why = PAPI_strerror_detail();
    CHECK(strstr(why, "rocprofiler_start_context failed: Context operation failed due to a "
                      "conflict with another context (status 12): another context") != NULL,
          "reason: %s", why);
    CHECK(strchr(why, '\n') == NULL, "one line: %s", why);
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 0);
    free_set(&es);
}

static void mode_hwlimit(void)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, WAVES0), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, XCC1), PAPI_OK);   /* the same counter: one config */
    CHECK_RET(PAPI_add_named_event(es, WAVES1), PAPI_OK); /* another device */
    CHECK_RET(PAPI_add_named_event(es, GRBM0), PAPI_ECNFLCT);
    CHECK(strstr(PAPI_strerror_detail(), "Exceeds hardware limits for collection"), "reason: %s",
          PAPI_strerror_detail());
    int n = PAPI_num_events(es);
    CHECK_EQ_LL(n, 3); /* the refused add changed nothing */
    CHECK_EQ_LL(rocp_sdk_double_live_configs(), 0);
    free_set(&es);
}

/* Two dispatches in a region through PAPI_EVENTS (set by check_gpu_region.py): the
 * region API starts its thread's set at the begin, so they are counted. */
static int region(void)
{
    CHECK_RET(PAPI_hl_region_begin("gpu_work"), PAPI_OK);
    dispatch(0, 2, 8); /* SQ_WAVES' 8 instances: the region's events are of it */
    CHECK_RET(PAPI_hl_region_end("gpu_work"), PAPI_OK);
    return test_done("test_rocp_sdk region");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "list";
    if (strcmp(mode, "region") == 0)
        return region();
    init_or_die();
    if (strcmp(mode, "list") == 0)
        mode_list();
    else if (strcmp(mode, "count") == 0)
        mode_count();
    else if (strcmp(mode, "devices") == 0)
        mode_devices();
    else if (strcmp(mode, "threads") == 0)
        mode_threads();
    else if (strcmp(mode, "shutdown") == 0)
        mode_shutdown();
    else if (strcmp(mode, "conflict") == 0)
        mode_conflict();
    else if (strcmp(mode, "hwlimit") == 0)
        mode_hwlimit();
    else
        CHECK(0, "unknown mode %s", mode);
    PAPI_shutdown();
    return test_done("test_rocp_sdk");
}
