/* test_metric_api: papi_metrics.h end to end on any machine. CPU_UTILIZATION of a thread
 * that spins 0.3 s is near 1, of one that sleeps 0.3 s near 0 (its events counted in an
 * event set, evaluated with the wall time); group expansion; every bad input refused with
 * its reason and nothing changed. With the argument "badfile" (ctest sets
 * PAPI_METRICS_FILE to a malformed table): the table is refused, naming file and line. */
#include <papi_metrics.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi_test.h"
#include "test_workload.h"

static double abs_diff(double x)
{
    return x < 0 ? -x : x;
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU_UTILIZATION over 0.3 s of spinning (busy) or sleeping; *expected is the thread's
 * CPU time over the same wall time, as the C library measures it (a spinning thread on a
 * loaded machine gets less than a CPU: the metric must follow what it really got). */
static double utilization(const PAPIM_metric_info_t *m, int busy, double *expected)
{
    int es = PAPI_NULL;
    long long values[PAPIM_MAX_EVENTS];
    const char *names[PAPIM_MAX_EVENTS];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < m->num_events; i++) {
        names[i] = m->event_names[i];
        CHECK_RET(PAPI_add_named_event(es, names[i]), PAPI_OK);
    }
    double t0 = test_now(), c0 = thread_cpu();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    if (busy) {
        volatile unsigned long x = 0;
        while (test_now() - t0 < 0.3)
            x++;
    } else {
        usleep(300000);
    }
    CHECK_RET(PAPI_stop(es, values), PAPI_OK);
    double c1 = thread_cpu(), seconds = test_now() - t0, v = -1;
    *expected = (c1 - c0) / seconds;
    CHECK_RET(PAPIM_evaluate(m->name, m->num_events, names, values, seconds, &v), PAPI_OK);
    printf("%s: %s = %.3f over %.3f s (%s = %lld; thread CPU time / wall %.3f)\n",
           busy ? "spinning" : "sleeping", m->name, v, seconds, names[0], values[0], *expected);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return v;
}

static void bad_inputs(void)
{
    const char *names[] = {"perf::TASK-CLOCK"};
    long long values[] = {1000000000LL};
    double v = 42;
    CHECK_RET(PAPIM_evaluate("NOPE", 1, names, values, 1, &v), PAPI_ENOEVNT);
    CHECK(strstr(PAPI_strerror_detail(), "NOPE") != NULL, "unknown metric named: %s",
          PAPI_strerror_detail());
    CHECK_RET(PAPIM_evaluate("CPU_UTILIZATION", 1, names, values, 0, &v), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "division by zero: the time is 0") != NULL,
          "zero time: %s", PAPI_strerror_detail());
    const char *other[] = {"perf::PAGE-FAULTS"};
    CHECK_RET(PAPIM_evaluate("CPU_UTILIZATION", 1, other, values, 1, &v), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "perf::TASK-CLOCK, which was not given") != NULL,
          "missing event named: %s", PAPI_strerror_detail());
    CHECK_RET(PAPIM_evaluate("CPU_UTILIZATION", 1, NULL, values, 1, &v), PAPI_EINVAL);
    CHECK_RET(PAPIM_evaluate("CPU_UTILIZATION", 1, names, values, 1, NULL), PAPI_EINVAL);
    CHECK(v == 42, "no result written on errors (%g)", v);
    CHECK_RET(PAPIM_query_metric(NULL, NULL), PAPI_EINVAL);
    CHECK_RET(PAPIM_get_metric_info(-1, &(PAPIM_metric_info_t){0}), PAPI_ENOEVNT);

    char got[8][PAPI_MIN_STR_LEN];
    int n = -1;
    CHECK_RET(PAPIM_expand("FLOPS_DP, IPC,CPU_UTILIZATION", got, 8, &n), PAPI_OK);
    CHECK(n == 3 && !strcmp(got[0], "DP_FLOPS") && !strcmp(got[1], "IPC") &&
              !strcmp(got[2], "CPU_UTILIZATION"),
          "FLOPS_DP,IPC,CPU_UTILIZATION expands to 3 without duplicates (%d)", n);
    n = -1;
    CHECK_RET(PAPIM_expand("FLOPS_DP,NOPE", got, 8, &n), PAPI_ENOEVNT);
    CHECK(n == -1 && strstr(PAPI_strerror_detail(), "'NOPE'"), "unknown name refused, count kept");
    CHECK_RET(PAPIM_expand("FLOPS_DP", got, 2, &n), PAPI_EINVAL);
}

static int bad_file(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    int r = PAPIM_num_metrics();
    printf("malformed PAPI_METRICS_FILE: %d: %s\n", r, PAPI_strerror_detail());
    CHECK(r == PAPI_EINVAL, "refused: %d", r);
    CHECK(strstr(PAPI_strerror_detail(), "bad_metrics.csv:3: metric IPC: ')' expected"),
          "file and line named");
    return test_done("test_metric_api badfile");
}

/* A table saved with a UTF-8 byte order mark (bom_metrics.csv) is read as without it. */
static int bom_file(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    PAPIM_metric_info_t m;
    int r = PAPIM_query_metric("BOM_TABLE_METRIC", &m);
    CHECK(r == PAPI_OK, "the table after its byte order mark is read: %d: %s", r,
          PAPI_strerror_detail());
    CHECK(r != PAPI_OK || !strcmp(m.unit, "CPUs"), "its metric's unit: %s", m.unit);
    return test_done("test_metric_api bomfile");
}

/* A line starting with an invisible character (invisible_metrics.csv: U+200B) is refused
 * with the character escaped: every byte of the message printable ASCII. */
static int invisible_file(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    int r = PAPIM_num_metrics();
    const char *why = PAPI_strerror_detail();
    printf("PAPI_METRICS_FILE with an invisible character: %d: %s\n", r, why);
    CHECK(r == PAPI_EINVAL, "refused: %d", r);
    CHECK(strstr(why, "invisible_metrics.csv:2: \\xE2\\x80\\x8BCPU line before any CPU line") !=
              NULL,
          "file, line and the character escaped: %s", why);
    for (const char *p = why; *p; p++)
        CHECK(*p >= 0x20 && *p < 0x7f, "byte 0x%02x of the message is not printable ASCII",
              (unsigned char)*p);
    return test_done("test_metric_api invisiblefile");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "badfile"))
        return bad_file();
    if (argc > 1 && !strcmp(argv[1], "bomfile"))
        return bom_file();
    if (argc > 1 && !strcmp(argv[1], "invisiblefile"))
        return invisible_file();
    CHECK_RET(PAPIM_num_metrics(), PAPI_ENOINIT);
    init_or_die();
    int n = PAPIM_num_metrics();
    CHECK(n >= 9, "generic metrics: %d", n);
    bad_inputs();
    PAPIM_metric_info_t m;
    CHECK_RET(PAPIM_query_metric("CPU_UTILIZATION", &m), PAPI_OK);
    CHECK(m.resolved && m.num_events == 1 && !strcmp(m.event_names[0], "perf::TASK-CLOCK") &&
              m.uses_time && !strcmp(m.unit, "CPUs"),
          "CPU_UTILIZATION is task-clock over time");
    if (!m.countable)
        test_skip(m.reason);
    double busy_cpu, idle_cpu;
    double busy = utilization(&m, 1, &busy_cpu), idle = utilization(&m, 0, &idle_cpu);
    CHECK(busy < 1.05 && abs_diff(busy - busy_cpu) < 0.02 + 0.05 * busy_cpu,
          "spinning thread: %.3f CPUs, its CPU time over wall time %.3f", busy, busy_cpu);
    CHECK(busy > idle + 0.1, "spinning above sleeping: %.3f against %.3f", busy, idle);
    CHECK(idle >= 0 && idle < 0.1 && abs_diff(idle - idle_cpu) < 0.02,
          "sleeping thread near 0 CPUs: %.3f (CPU time over wall %.3f)", idle, idle_cpu);
    return test_done("test_metric_api");
}
