/* Bad input, as a table: every call with an invalid EventSet handle, NULL pointers,
 * out-of-range codes, wrong states, unknown or over-long names returns the documented
 * code, crashes nothing and changes nothing (the reference set counts on afterwards).
 * CI runs this under AddressSanitizer and UBSan. */
#include <limits.h>

#include "papi_test.h"

static int good = PAPI_NULL;
static int pf_code;
static long long vals[8];
static char longname[5000];

/* One call with bad input and the code it must return (evaluated in place: no GCC
 * nested functions, so clang builds the tests too). */
static size_t bad_calls;
static void bad_result(const char *what, int r, int expect)
{
    bad_calls++;
    if (r != expect) {
        fprintf(stderr, "FAIL %s = %d (%s), want %d (%s)\n", what, r,
                PAPI_strerror(r) ? PAPI_strerror(r) : "?", expect, PAPI_strerror(expect));
        test_failures++;
    }
}
#define BAD(expr, code) bad_result(#expr, (expr), (code))

static int handles[] = {-1, PAPI_NULL, 65536, INT_MAX, INT_MIN, 4242};

static int all_handles(int (*fn)(int), int expect, const char *what)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        int r = fn(handles[i]);
        if (r != expect) {
            fprintf(stderr, "FAIL %s(handle %d) = %d, want %d\n", what, handles[i], r, expect);
            bad++;
        }
    }
    return bad;
}

static int h_start(int h) { return PAPI_start(h); }
static int h_stop(int h) { return PAPI_stop(h, vals); }
static int h_read(int h) { return PAPI_read(h, vals); }
static int h_accum(int h) { return PAPI_accum(h, vals); }
static int h_reset(int h) { return PAPI_reset(h); }
static int h_write(int h) { return PAPI_write(h, vals); }
static int h_add(int h) { return PAPI_add_event(h, pf_code); }
static int h_addn(int h) { return PAPI_add_named_event(h, "perf::PAGE-FAULTS"); }
static int h_rm(int h) { return PAPI_remove_event(h, pf_code); }
static int h_cleanup(int h) { return PAPI_cleanup_eventset(h); }
static int h_destroy(int h) { int x = h; return PAPI_destroy_eventset(&x); }
static int h_num(int h) { return PAPI_num_events(h); }
static int h_state(int h) { int s; return PAPI_state(h, &s); }
static int h_list(int h) { int e[4], n = 4; return PAPI_list_events(h, e, &n); }
static int h_attach(int h) { return PAPI_attach(h, (unsigned long)getpid()); }
static int h_detach(int h) { return PAPI_detach(h); }
static int h_cmp(int h) { return PAPI_get_eventset_component(h); }
static int h_assign(int h) { return PAPI_assign_eventset_component(h, 0); }
static int h_mpx(int h) { return PAPI_get_multiplex(h); }
static int h_dom(int h) { PAPI_option_t o; memset(&o, 0, sizeof o); o.domain.eventset = h; o.domain.domain = PAPI_DOM_ALL; return PAPI_set_opt(PAPI_DOMAIN, &o); }
static int h_getdom(int h) { PAPI_option_t o; memset(&o, 0, sizeof o); o.domain.eventset = h; return PAPI_get_opt(PAPI_DOMAIN, &o); }

int main(void)
{
    memset(longname, 'A', sizeof longname - 1);
    init_or_die();
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf_code), PAPI_OK);
    CHECK_RET(PAPI_create_eventset(&good), PAPI_OK);
    CHECK_RET(PAPI_add_event(good, pf_code), PAPI_OK);
    warm_up();
    CHECK_RET(PAPI_start(good), PAPI_OK); /* counts across every bad call below */
    touch_pages(10);

    int (*hfns[])(int) = {h_start, h_stop, h_read, h_accum, h_reset, h_write, h_add, h_addn,
                          h_rm, h_cleanup, h_destroy, h_num, h_state, h_list, h_attach,
                          h_detach, h_cmp, h_assign, h_mpx, h_dom, h_getdom};
    const char *hnames[] = {"start", "stop", "read", "accum", "reset", "write", "add_event",
                            "add_named_event", "remove_event", "cleanup", "destroy",
                            "num_events", "state", "list_events", "attach", "detach",
                            "get_eventset_component", "assign_eventset_component",
                            "get_multiplex", "set_opt(DOMAIN)", "get_opt(DOMAIN)"};
    for (size_t i = 0; i < sizeof hfns / sizeof hfns[0]; i++)
        test_failures += all_handles(hfns[i], PAPI_ENOEVST, hnames[i]);

    BAD(PAPI_create_eventset(NULL), PAPI_EINVAL);
    BAD(({ int x = 5; PAPI_create_eventset(&x); }), PAPI_EINVAL);
    BAD(PAPI_destroy_eventset(NULL), PAPI_EINVAL);
    BAD(PAPI_read(good, NULL), PAPI_EINVAL);
    BAD(PAPI_accum(good, NULL), PAPI_EINVAL);
    BAD(PAPI_write(good, NULL), PAPI_EINVAL);
    BAD(PAPI_read_ts(good, vals, NULL), PAPI_EINVAL);
    BAD(PAPI_state(good, NULL), PAPI_EINVAL);
    BAD(PAPI_list_events(good, NULL, NULL), PAPI_EINVAL);
    BAD(({ int n = 3; PAPI_list_events(good, NULL, &n); }), PAPI_EINVAL);
    BAD(({ int n = -1, e[1]; PAPI_list_events(good, e, &n); }), PAPI_EINVAL);
    BAD(PAPI_start(good), PAPI_EISRUN);
    BAD(PAPI_add_event(good, pf_code), PAPI_EISRUN);
    BAD(PAPI_remove_event(good, pf_code), PAPI_EISRUN);
    BAD(PAPI_cleanup_eventset(good), PAPI_EISRUN);
    BAD(({ int g = good; PAPI_destroy_eventset(&g); }), PAPI_EISRUN);
    BAD(PAPI_attach(good, 1), PAPI_EISRUN);
    BAD(PAPI_add_events(good, NULL, 1), PAPI_EISRUN);
    BAD(PAPI_event_name_to_code(NULL, &pf_code), PAPI_EINVAL);
    BAD(PAPI_event_name_to_code("perf::PAGE-FAULTS", NULL), PAPI_EINVAL);
    BAD(({ int c; PAPI_event_name_to_code("NO_SUCH_EVENT_XYZ", &c); }), PAPI_ENOEVNT);
    BAD(({ int c; PAPI_event_name_to_code("PAPI_NOT_A_PRESET", &c); }), PAPI_ENOEVNT);
    BAD(({ int c; PAPI_event_name_to_code(longname, &c); }), PAPI_EINVAL);
    BAD(({ int c; PAPI_event_name_to_code("", &c); }), PAPI_EINVAL);
    BAD(({ int c; PAPI_event_name_to_code("perf::PAGE-FAULTS:bogus=3", &c); }), PAPI_ENOEVNT);
    BAD(PAPI_event_code_to_name(pf_code, NULL), PAPI_EINVAL);
    BAD(({ char b[PAPI_MAX_STR_LEN]; PAPI_event_code_to_name(0x12345, b); }), PAPI_ENOEVNT);
    BAD(({ char b[PAPI_MAX_STR_LEN]; PAPI_event_code_to_name(PAPI_PRESET_MASK | 5000, b); }), PAPI_ENOTPRESET);
    BAD(({ char b[PAPI_MAX_STR_LEN]; PAPI_event_code_to_name(PAPI_NATIVE_MASK | 0x3FFFFFF, b); }), PAPI_ENOEVNT);
    BAD(PAPI_query_event(PAPI_NATIVE_MASK | 0x3FFFFFF), PAPI_ENOEVNT);
    BAD(PAPI_query_event(PAPI_PRESET_MASK | 5000), PAPI_ENOTPRESET);
    BAD(PAPI_query_event(0), PAPI_ENOEVNT);
    BAD(PAPI_query_named_event(NULL), PAPI_EINVAL);
    BAD(PAPI_add_named_event(good, NULL), PAPI_EISRUN);
    BAD(PAPI_get_event_info(pf_code, NULL), PAPI_EINVAL);
    BAD(({ PAPI_event_info_t i; PAPI_get_event_info(0x1234, &i); }), PAPI_ENOTPRESET);
    BAD(PAPI_enum_event(NULL, PAPI_ENUM_FIRST), PAPI_EINVAL);
    BAD(({ int c = 0x1234; PAPI_enum_event(&c, PAPI_ENUM_EVENTS); }), PAPI_ENOEVNT);
    BAD(({ int c = PAPI_NATIVE_MASK; PAPI_enum_cmp_event(&c, PAPI_ENUM_FIRST, 99); }), PAPI_ENOCMP);
    BAD(({ int c = PAPI_PRESET_MASK; PAPI_enum_event(&c, 12345); }), PAPI_EINVAL);
    BAD(PAPI_set_opt(PAPI_DOMAIN, NULL), PAPI_EINVAL);
    BAD(PAPI_get_opt(PAPI_DOMAIN, NULL), PAPI_EINVAL);
    BAD(PAPI_set_opt(9999, NULL), PAPI_EINVAL);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_get_opt(9999, &o); }), PAPI_EINVAL);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_set_opt(9999, &o); }), PAPI_EINVAL);
    BAD(PAPI_set_domain(0), PAPI_EINVAL);
    BAD(PAPI_set_domain(0x100), PAPI_EINVAL);
    BAD(PAPI_set_granularity(0), PAPI_EINVAL);
    BAD(PAPI_set_granularity(PAPI_GRN_PROCG), PAPI_ECMP);
    BAD(PAPI_set_granularity(PAPI_GRN_SYS_CPU), PAPI_ECMP);
    BAD(PAPI_set_debug(7), PAPI_EINVAL);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_set_opt(PAPI_DATA_ADDRESS, &o); }), PAPI_ECMP);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_set_opt(PAPI_INSTR_ADDRESS, &o); }), PAPI_ECMP);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_set_opt(PAPI_HWINFO, &o); }), PAPI_EINVAL);
    BAD(({ PAPI_option_t o; memset(&o, 0, sizeof o); PAPI_set_opt(PAPI_MAX_HWCTRS, &o); }), PAPI_EINVAL);
    BAD(PAPI_set_thr_specific(-1, NULL), PAPI_EINVAL);
    BAD(PAPI_set_thr_specific(PAPI_NUM_TLS, NULL), PAPI_EINVAL);
    BAD(PAPI_get_thr_specific(PAPI_USR1_TLS, NULL), PAPI_EINVAL);
    BAD(PAPI_get_thr_specific(77, (void **)vals), PAPI_EINVAL);
    BAD(PAPI_lock(-1), PAPI_EINVAL);
    BAD(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, NULL), PAPI_EINVAL);
    BAD(PAPI_enum_dev_type(0x100, (void **)vals), PAPI_EINVAL);
    BAD(PAPI_get_dev_type_attr(vals, PAPI_DEV_TYPE_ATTR__INT_COUNT, vals), PAPI_EINVAL);
    BAD(({ void *h; PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h);
           PAPI_get_dev_type_attr(h, (PAPI_dev_type_attr_e)99, vals); }), PAPI_ENOSUPP);
    BAD(({ void *h; PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h);
           PAPI_get_dev_attr(h, 0, PAPI_DEV_ATTR__CUDA_UINT_WARP_SIZE, vals); }), PAPI_ENOSUPP);
    BAD(({ void *h; PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h);
           PAPI_get_dev_attr(h, 1, PAPI_DEV_ATTR__CPU_UINT_FAMILY, vals); }), PAPI_EINVAL);
    BAD(({ void *h; PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h);
           PAPI_get_dev_attr(h, -1, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, vals); }), PAPI_EINVAL);
    BAD(PAPI_unlock(2), PAPI_EINVAL);
    BAD(PAPI_list_threads(NULL, NULL), PAPI_EINVAL);
    BAD(PAPI_get_dmem_info(NULL), PAPI_EINVAL);
    BAD(PAPI_num_cmp_hwctrs(-1), PAPI_ENOCMP);
    BAD(PAPI_num_cmp_hwctrs(PAPI_num_components()), PAPI_ENOCMP); /* one past the last */
    BAD(PAPI_get_component_index(NULL), PAPI_EINVAL);
    BAD(PAPI_get_component_index("no-such-component"), PAPI_ENOCMP);
    BAD(PAPI_get_event_component(PAPI_NATIVE_MASK | 0x3FFFFFF), PAPI_ENOEVNT);
    BAD(PAPI_library_init(0x1234), PAPI_EINVAL);
    /* pypapi passes 6.0: the reason names the version asked and the current one. */
    BAD(PAPI_library_init(PAPI_VERSION_NUMBER(6, 0, 0, 0)), PAPI_EINVAL);
    {
        char cur[32];
        snprintf(cur, sizeof cur, "is %d.%d", PAPI_VERSION_MAJOR(PAPI_VER_CURRENT),
                 PAPI_VERSION_MINOR(PAPI_VER_CURRENT));
        const char *d = PAPI_strerror_detail();
        CHECK(d && strstr(d, "asked for version 6.0") && strstr(d, cur),
              "library_init version reason: %s", d ? d : "(none)");
    }
    BAD(PAPI_thread_init(NULL), PAPI_EINVAL);
    BAD(PAPI_perror3(1, NULL, 0), PAPI_EINVAL);
    BAD(({ char b[8]; PAPI_perror3(PAPI_EINVAL, b, 0); }), PAPI_EINVAL);
    BAD(PAPI_multiplex_init() == PAPI_OK ? PAPI_set_multiplex(good) : -99, PAPI_EISRUN);
    CHECK(PAPI_strerror(1) == NULL && PAPI_strerror(-PAPI_NUM_ERRORS) == NULL, "strerror range");
    CHECK(PAPI_get_component_info(-1) == NULL &&
              PAPI_get_component_info(PAPI_num_components()) == NULL, "component range");

    /* Nothing above changed the reference set: it is still running and exact. */
    touch_pages(5);
    int st;
    CHECK_RET(PAPI_state(good, &st), PAPI_OK);
    CHECK_EQ_LL(st, PAPI_RUNNING);
    CHECK_RET(PAPI_stop(good, vals), PAPI_OK);
    CHECK(vals[0] >= 15, "reference set still counting: %lld (at least 15)", vals[0]);
    CHECK_EQ_LL(PAPI_num_events(good), 1);
    /* Hostile environment: over-long or odd values must not matter to the core. */
    setenv("PAPI_CSV_EVENT_FILE", longname, 1);
    int c;
    CHECK(PAPI_event_name_to_code("PAPI_TOT_CYC", &c) == PAPI_OK, "preset names resolve");
    free_set(&good);
    PAPI_shutdown();
    /* After shutdown every call says the library is not initialised. */
    CHECK_RET(PAPI_start(0), PAPI_ENOINIT);
    CHECK_RET(PAPI_read(0, vals), PAPI_ENOINIT);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &c), PAPI_ENOINIT);
    printf("%zu bad calls checked\n", bad_calls + sizeof hfns / sizeof hfns[0] * 6);
    return test_done("test_bad_input");
}
