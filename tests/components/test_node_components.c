/* test_node_components: the node components (net, infiniband, coretemp, stealtime,
 * lustre: src-c/lib/components/node/) through the PAPI API on a recorded tree
 * (tests/machines/node_counters, argv[1]) replayed through PAPI_FSROOT. The tree is
 * copied to a scratch directory and its files rewritten between PAPI_start, PAPI_read
 * and PAPI_stop: exact differences, a 32-bit counter that wraps, instantaneous values,
 * malformed files (a clear error naming the file and line, nothing counted), and a
 * missing tree (the component disabled with the reason). */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "papi.h"
#include "papi_test.h"
#include "test_tree.h"

static char scratch[512];

static int cidx_of(const char *name)
{
    int cidx = PAPI_get_component_index(name);
    CHECK(cidx >= 0, "component %s is registered", name);
    return cidx;
}

/* An event set of the named events (every one must be known). */
static int set_of(const char *const *names, int n)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < n; i++) {
        int ret = PAPI_add_named_event(es, names[i]);
        CHECK(ret == PAPI_OK, "add %s: %s", names[i], PAPI_strerror_detail());
    }
    return es;
}

static void drop_set(int *es)
{
    CHECK_RET(PAPI_cleanup_eventset(*es), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(es), PAPI_OK);
}

static void init(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
}

/* A fresh tree, the library started on it, and component comp active with n events. */
static void start_on(const char *recorded, const char *comp, int n)
{
    tree_use(recorded, scratch, "root");
    init();
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx_of(comp));
    CHECK(ci && !ci->disabled && ci->num_native_events == n, "%s: %d events, want %d (%s)", comp,
          ci ? ci->num_native_events : -1, n, ci ? ci->disabled_reason : "");
}

/* Component comp is disabled with a reason that contains what, and lists no events. */
static void disabled_with(const char *comp, const char *what)
{
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx_of(comp));
    CHECK(ci && ci->disabled && strstr(ci->disabled_reason, what), "%s disabled: %s", comp,
          ci ? ci->disabled_reason : "");
    CHECK(ci && ci->num_native_events == 0, "%s lists no events", comp);
}

/* ---- net ------------------------------------------------------------------------- */
static const char net_head[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
    "errs drop fifo colls carrier compressed\n"
    "    lo:   52840     640    0    0    0     0          0         0    52840     640    "
    "0    0    0     0       0          0\n";

static void put_eth0(unsigned long long rx_bytes, unsigned long long tx_compressed)
{
    tree_put("proc/net/dev",
             "%s  eth0: %llu  712345    1    2    3     4          5        66 "
             "123456789  654321    7    8    9    10      11         %llu\n",
             net_head, rx_bytes, tx_compressed);
}

static void test_net(const char *recorded)
{
    start_on(recorded, "net", 32);
    PAPI_event_info_t info;
    int code;
    CHECK_RET(PAPI_event_name_to_code("net:::eth0:rx:bytes", &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(strcmp(info.units, "bytes") == 0, "units %s", info.units);
    CHECK_RET(PAPI_event_name_to_code("net:::eth0:rx:bogus", &code), PAPI_ENOEVNT);

    const char *names[] = {"net:::eth0:rx:bytes", "net:::eth0:tx:compressed", "net:::lo:rx:packets",
                           "net:::eth0:tx:colls"};
    int es = set_of(names, 4);
    long long v[4];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    put_eth0(918273645ULL + 1000, 12 + 3);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1000);
    CHECK_EQ_LL(v[1], 3);
    CHECK_EQ_LL(v[2], 0);
    CHECK_EQ_LL(v[3], 0);
    put_eth0(918273645ULL + 1500, 12 + 3);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1500);

    /* a read that fails while counting: PAPI_ESYS with the file and line at once (the
     * core asks the component's read_reason), the stop that fails with them too, and the
     * set that stops once the file is whole again */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    tree_put("proc/net/dev", "%s  eth0: 1 2\n", net_head);
    CHECK_RET(PAPI_read(es, NULL), PAPI_EINVAL); /* another reason in the detail first */
    CHECK_RET(PAPI_read(es, v), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "proc/net/dev line 4 is malformed"),
          "PAPI_read's reason: %s", PAPI_strerror_detail());
    CHECK_RET(PAPI_stop(es, v), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "proc/net/dev line 4 is malformed"), "reason: %s",
          PAPI_strerror_detail());
    put_eth0(918273645ULL + 1700, 12 + 3);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 200);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 200);

    /* a malformed line: a clear error naming file and line, at start */
    tree_put("proc/net/dev", "%s  eth0: 1 2 3\n", net_head);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "proc/net/dev line 4 is malformed"), "reason: %s",
          PAPI_strerror_detail());
    /* the interface gone */
    tree_put("proc/net/dev", "%s", net_head);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "no line 'eth0'"), "reason: %s", PAPI_strerror_detail());
    drop_set(&es);
    PAPI_shutdown();

    /* a malformed file at init disables net with the file and line */
    tree_put("proc/net/dev", "%s  eth0: 1 2 x\n", net_head);
    init();
    disabled_with("net", "proc/net/dev line 4 is malformed");
    PAPI_shutdown();
}

/* Count the named events around change(), which rewrites the tree; check want[]. */
static void count(const char *const *names, int n, void (*change)(void), const long long *want)
{
    int es = set_of(names, n);
    long long v[8] = {0};
    CHECK_RET(PAPI_start(es), PAPI_OK);
    change();
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    for (int i = 0; i < n; i++)
        CHECK(v[i] == want[i], "%s read %lld, want %lld", names[i], v[i], want[i]);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    for (int i = 0; i < n; i++)
        CHECK(v[i] == want[i], "%s stopped at %lld, want %lld", names[i], v[i], want[i]);
    drop_set(&es);
}

/* An event set of event, then its file rel made malformed (text): PAPI_start fails with
 * a reason that contains what. */
static void start_fails(const char *event, const char *rel, const char *text, const char *what)
{
    int es = set_of(&event, 1);
    tree_put(rel, "%s", text);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), what), "%s: reason %s", event, PAPI_strerror_detail());
    /* and adding it again fails at once, with the same reason */
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
    CHECK(PAPI_add_named_event(es, event) != PAPI_OK && strstr(PAPI_strerror_detail(), what),
          "%s: add refused: %s", event, PAPI_strerror_detail());
    drop_set(&es);
}

static void units_are(const char *event, const char *units)
{
    PAPI_event_info_t info;
    int code = 0;
    CHECK_RET(PAPI_event_name_to_code(event, &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(strcmp(info.units, units) == 0, "%s units '%s', want '%s'", event, info.units, units);
}

/* ---- infiniband ------------------------------------------------------------------ */
#define IB_PORT "sys/class/infiniband/mlx5_0/ports/1/"

static void ib_traffic(void)
{
    tree_put(IB_PORT "counters/port_xmit_packets", "%llu\n", 4294967000ULL + 500 - 4294967296ULL);
    tree_put(IB_PORT "counters/port_xmit_data", "%llu\n", 123456789012ULL + 1000);
    tree_put(IB_PORT "hw_counters/out_of_buffer", "22\n");
}

static void test_infiniband(const char *recorded)
{
    start_on(recorded, "infiniband", 9);
    units_are("infiniband:::mlx5_0_1_ext:port_xmit_data", "4-byte words");
    units_are("infiniband:::mlx5_0_1:port_xmit_packets", "packets");
    int code;
    CHECK_RET(PAPI_event_name_to_code("infiniband:::mlx5_0_2:symbol_error", &code),
              PAPI_ENOEVNT); /* port 2 is DOWN */
    /* a 32-bit counter that wraps between start and read; a 64-bit one; hw_counters */
    const char *names[] = {
        "infiniband:::mlx5_0_1:port_xmit_packets", "infiniband:::mlx5_0_1_ext:port_xmit_data",
        "infiniband:::mlx5_0_1_ext:out_of_buffer", "infiniband:::mlx5_0_1:symbol_error"};
    count(names, 4, ib_traffic, (const long long[]){500, 1000, 5, 0});
    start_fails("infiniband:::mlx5_0_1:symbol_error", IB_PORT "counters/symbol_error", "three\n",
                "counters/symbol_error line 1 is malformed");
    PAPI_shutdown();
}

/* ---- coretemp -------------------------------------------------------------------- */
static void sensors_change(void)
{
    tree_put("sys/class/hwmon/hwmon0/temp1_input", "47000\n");
    tree_put("sys/class/hwmon/hwmon1/fan1_input", "1800\n");
}

static void test_coretemp(const char *recorded)
{
    start_on(recorded, "coretemp", 6);
    units_are("coretemp:::hwmon0:temp1_input", "millidegrees C");
    units_are("coretemp:::hwmon1:fan1_input", "RPM");
    units_are("coretemp:::hwmon1:power1_average", "uW");
    PAPI_event_info_t info;
    event_info_of("coretemp:::hwmon0:temp1_input", &info);
    CHECK(strstr(info.long_descr, "Package id 0"), "label in %s", info.long_descr);
    /* instantaneous: the value now, whatever it was at start; below zero too */
    const char *names[] = {"coretemp:::hwmon0:temp1_input", "coretemp:::hwmon1:fan1_input",
                           "coretemp:::hwmon1:temp3_input", "coretemp:::hwmon1:in0_input"};
    count(names, 4, sensors_change, (const long long[]){47000, 1800, -5000, 912});
    start_fails("coretemp:::hwmon0:temp1_input", "sys/class/hwmon/hwmon0/temp1_input", "\n",
                "temp1_input line 1 is malformed");
    PAPI_shutdown();
}

/* ---- stealtime ------------------------------------------------------------------- */
static void steal(void)
{
    tree_put("proc/stat", "cpu  10132153 290696 3084719 46828483 16683 0 25195 1207 0 0\n"
                          "cpu0 1393280 32966 572056 13343292 6130 0 17875 707 0 0\n"
                          "cpu1 1335186 37032 455580 13488493 3519 0 5426 500 0 0\n"
                          "intr 199292 0 9 0\nctxt 11960913\n");
}

static void test_stealtime(const char *recorded)
{
    start_on(recorded, "stealtime", 3);
    units_are("stealtime:::CPU1", "us");
    long long tick_us = 1000000 / sysconf(_SC_CLK_TCK);
    const char *names[] = {"stealtime:::TOTAL", "stealtime:::CPU1", "stealtime:::CPU2"};
    count(names, 3, steal, (const long long[]){7 * tick_us, 7 * tick_us, 0});
    start_fails("stealtime:::CPU1", "proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3\n",
                "proc/stat line 2 is malformed");
    PAPI_shutdown();
    init(); /* a /proc/stat without steal times disables the component at init */
    disabled_with("stealtime", "proc/stat line 2 is malformed");
    PAPI_shutdown();
}

/* ---- lustre ---------------------------------------------------------------------- */
#define LLITE "proc/fs/lustre/llite/scratch-ffff8881e2d4a000/"

static void lustre_io(void)
{
    tree_put(LLITE "stats", "snapshot_time 1732000001.5 secs.usecs\n"
                            "read_bytes 5 samples [bytes] 1 4096 12288\n"
                            "write_bytes 1 samples [bytes] 1536 1536 1536\n");
    tree_put(LLITE "read_ahead_stats", "hits 120 samples [pages]\nread but discarded 20 samples "
                                       "[pages]\n");
}

static void test_lustre(const char *recorded)
{
    tree_use(recorded, scratch, "root");
    tree_put(LLITE "stats", "snapshot_time 1732000000.1 secs.usecs\n"
                            "read_bytes 4 samples [bytes] 1 4096 8192\n"); /* nothing written yet */
    init();
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx_of("lustre"));
    CHECK(ci && !ci->disabled && ci->num_native_events == 3, "lustre: 3 events: %d %s",
          ci ? ci->num_native_events : -1, ci ? ci->disabled_reason : "");
    units_are("lustre:::scratch-ffff8881e2d4a000_llread", "bytes");
    const char *names[] = {"lustre:::scratch-ffff8881e2d4a000_llread",
                           "lustre:::scratch-ffff8881e2d4a000_llwrite",
                           "lustre:::scratch-ffff8881e2d4a000_wrong_readahead"};
    count(names, 3, lustre_io, (const long long[]){4096, 1536, 4});
    start_fails(names[0], LLITE "stats", "read_bytes 5 samples [bytes] 1 4096\n",
                "stats line 1 is malformed");
    PAPI_shutdown();
}

/* ---- every component without its tree ------------------------------------------------ */
static void test_missing(void)
{
    setenv("PAPI_FSROOT", "/nonexistent", 1);
    init();
    const char *comps[] = {"net", "infiniband", "coretemp", "stealtime", "lustre"};
    for (size_t i = 0; i < sizeof comps / sizeof comps[0]; i++)
        disabled_with(comps[i], "/nonexistent");
    int code;
    CHECK(PAPI_event_name_to_code("net:::eth0:rx:bytes", &code) != PAPI_OK, "no net event");
    PAPI_shutdown();
}

/* PAPI_DISABLE_COMPONENTS (PAPI 7.3): the named components disabled at each
 * PAPI_library_init (',' or ':' between names, unknown names ignored), their events gone;
 * unset, they count again. */
static void test_disable_env(const char *recorded)
{
    tree_use(recorded, scratch, "root");
    setenv("PAPI_DISABLE_COMPONENTS", "net:no_such_component,stealtime", 1);
    init();
    disabled_with("net", "disabled by PAPI_DISABLE_COMPONENTS");
    disabled_with("stealtime", "disabled by PAPI_DISABLE_COMPONENTS");
    CHECK(!PAPI_get_component_info(cidx_of("coretemp"))->disabled, "coretemp still active");
    int code;
    CHECK(PAPI_event_name_to_code("net:::eth0:rx:bytes", &code) != PAPI_OK, "net events gone");
    CHECK_RET(PAPI_event_name_to_code("coretemp:::hwmon0:temp1_input", &code), PAPI_OK);
    PAPI_shutdown();
    unsetenv("PAPI_DISABLE_COMPONENTS");
    start_on(recorded, "net", 32);
    PAPI_shutdown();
}

/* ---- numbers that do not fit in 64 bits ------------------------------------------- */
/* 2^64 - 1 is the last counter value, 2^63 - 1 the last signed one either way: one
 * more is an error with the file and line, never a wrapped count. */
static void test_too_big(const char *recorded)
{
    const char *what = "does not fit in 64 bits";
    start_on(recorded, "net", 32);
    const char *rx = "net:::eth0:rx:bytes";
    int es = set_of(&rx, 1);
    long long v = -1;
    put_eth0(18446744073709551000ULL, 0);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    put_eth0(18446744073709551615ULL, 0);
    CHECK_RET(PAPI_read(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, 615);
    /* one more, 20 digits, and 21: refused while counting, and at start */
    tree_put("proc/net/dev", "%s  eth0: 18446744073709551616 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
             net_head);
    CHECK_RET(PAPI_read(es, &v), PAPI_ESYS);
    CHECK_RET(PAPI_stop(es, &v), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "proc/net/dev line 4: the number at place 1 after "
                                         "'eth0' does not fit in 64 bits"),
          "reason: %s", PAPI_strerror_detail());
    put_eth0(18446744073709551615ULL, 0); /* whole again: the set stops */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    drop_set(&es);
    start_fails(rx, "proc/net/dev",
                "Inter-|\n face |\n  eth0: 123456789012345678901 1 2 3 4 5 6 7 8 9 10 11 12 13 "
                "14 15\n",
                "proc/net/dev line 3: the number at place 1 after 'eth0' does not fit in 64 bits");
    PAPI_shutdown();

    start_on(recorded, "infiniband", 9);
    start_fails("infiniband:::mlx5_0_1_ext:port_xmit_data", IB_PORT "counters/port_xmit_data",
                "99999999999999999999\n", "port_xmit_data line 1: the number at place 1");
    PAPI_shutdown();
    start_on(recorded, "coretemp", 6);
    start_fails("coretemp:::hwmon1:temp3_input", "sys/class/hwmon/hwmon1/temp3_input",
                "-9223372036854775809\n", what);
    PAPI_shutdown();
    start_on(recorded, "stealtime", 3);
    start_fails("stealtime:::CPU1", "proc/stat",
                "cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 100000000000000000000 0 0\n",
                "proc/stat line 2: the number at place 8 after 'cpu0' does not fit in 64 bits");
    PAPI_shutdown();
    tree_use(recorded, scratch, "root");
    init();
    start_fails("lustre:::scratch-ffff8881e2d4a000_llread", LLITE "stats",
                "read_bytes 5 samples [bytes] 1 4096 184467440737095516150\n", what);
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    tree_scratch(argc, "test_node_components", "tests/machines/node_counters", scratch,
                 sizeof scratch);
    test_net(argv[1]);
    test_infiniband(argv[1]);
    test_coretemp(argv[1]);
    test_stealtime(argv[1]);
    test_lustre(argv[1]);
    test_missing();
    test_disable_env(argv[1]);
    test_too_big(argv[1]);
    remove_tree(scratch);
    return test_done("test_node_components");
}
