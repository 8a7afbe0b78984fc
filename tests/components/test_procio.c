/* test_procio: the procio component (/proc/<task>/io) through the PAPI API, exactly:
 * writing N bytes in k write() calls makes procio:::wchar grow by N and procio:::syscw by
 * k, while the set runs and not after PAPI_stop; PAPI_reset starts again from 0; another
 * thread's writes are not this thread's; reads count at least the bytes read (the
 * component's own pread of the file adds to them, and never to the write counters). Also
 * the names, the enumeration and the errors. Skips when the kernel has no per-task I/O
 * accounting (the component is disabled, with its reason). */
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "papi_test.h"

static int devnull;

static void write_bytes(size_t n, int calls)
{
    static char buf[65536];
    for (int c = 0; c < calls; c++) {
        size_t part = n / (size_t)calls + (c == calls - 1 ? n % (size_t)calls : 0);
        if (write(devnull, buf, part) != (ssize_t)part)
            CHECK(0, "write to /dev/null");
    }
}

static void *other_thread(void *arg)
{
    (void)arg;
    write_bytes(50000, 5);
    return NULL;
}

static void check_names(int cidx)
{
    int code = 0, n = 0, first = 0;
    char name[PAPI_MAX_STR_LEN];
    CHECK_RET(PAPI_event_name_to_code("procio:::wchar", &first), PAPI_OK);
    CHECK_RET(PAPI_event_code_to_name(first, name), PAPI_OK);
    CHECK(strcmp(name, "procio:::wchar") == 0, "round trip gave %s", name);
    CHECK_EQ_LL(PAPI_get_event_component(first), cidx);
    CHECK_RET(PAPI_event_name_to_code("procio:::no_such_field", &code), PAPI_ENOEVNT);
    PAPI_event_info_t info;
    CHECK_RET(PAPI_get_event_info(first, &info), PAPI_OK);
    CHECK(strcmp(info.units, "bytes") == 0, "wchar units '%s'", info.units);
    code = 0;
    for (int r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx); r == PAPI_OK;
         r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx))
        n++;
    CHECK_EQ_LL(n, 7); /* the fields of /proc/<task>/io */
    CHECK_EQ_LL(PAPI_get_component_info(cidx)->num_native_events, 7);
}

int main(void)
{
    init_or_die();
    devnull = open("/dev/null", O_WRONLY);
    CHECK(devnull >= 0, "open /dev/null");
    int cidx = PAPI_get_component_index("procio");
    CHECK(cidx >= 0, "no component named procio: %d", cidx);
    if (cidx < 0)
        return test_done("test_procio");
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    if (ci->disabled) {
        char why[PAPI_HUGE_STR_LEN + 32];
        snprintf(why, sizeof why, "procio disabled: %s", ci->disabled_reason);
        test_skip(why);
    }
    check_names(cidx);

    int es = PAPI_NULL;
    long long v[4] = {0}, w[4] = {0};
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "procio:::wchar"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "procio:::syscw"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "procio:::rchar"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "procio:::syscr"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_ECNFLCT);

    CHECK_RET(PAPI_start(es), PAPI_OK);
    write_bytes(12345, 3);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 12345);
    CHECK_EQ_LL(v[1], 3);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0, "pthread_create");
    pthread_join(t, NULL);
    int zero = open("/dev/zero", O_RDONLY);
    char buf[4096];
    long long got = 0;
    for (int i = 0; i < 4; i++)
        got += read(zero, buf, sizeof buf);
    close(zero);
    write_bytes(1000, 1);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 12345 + 1000); /* not the other thread's 50000 */
    CHECK_EQ_LL(v[1], 3 + 1);
    CHECK(got == 4 * (long long)sizeof buf, "read /dev/zero: %lld", got);
    CHECK(v[2] >= got && v[3] >= 4, "rchar %lld (read %lld), syscr %lld (4 reads)", v[2], got,
          v[3]);
    write_bytes(777, 1); /* stopped: not counted */
    CHECK_RET(PAPI_read(es, w), PAPI_OK);
    CHECK_EQ_LL(w[0], v[0]);
    CHECK_EQ_LL(w[1], v[1]);

    CHECK_RET(PAPI_reset(es), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    write_bytes(4096, 2);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 4096);
    CHECK_EQ_LL(v[1], 2);

    /* A process-wide set counts every thread. */
    int pes = PAPI_NULL;
    PAPI_option_t opt;
    CHECK_RET(PAPI_create_eventset(&pes), PAPI_OK);
    CHECK_RET(PAPI_assign_eventset_component(pes, cidx), PAPI_OK);
    memset(&opt, 0, sizeof opt);
    opt.granularity.eventset = pes;
    opt.granularity.granularity = PAPI_GRN_PROC;
    CHECK_RET(PAPI_set_opt(PAPI_GRANUL, &opt), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(pes, "procio:::wchar"), PAPI_OK);
    CHECK_RET(PAPI_start(pes), PAPI_OK);
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0, "pthread_create");
    pthread_join(t, NULL);
    write_bytes(100, 1);
    CHECK_RET(PAPI_stop(pes, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 50000 + 100);

    free_set(&es);
    free_set(&pes);
    close(devnull);
    PAPI_shutdown();
    return test_done("test_procio");
}
