/* test_node_components: the node components (net, infiniband, coretemp, stealtime,
 * lustre: src-c/lib/components/node/) through the PAPI API on a recorded tree
 * (tests/machines/node_counters, argv[1]) replayed through PAPI_FSROOT. The tree is
 * copied to a scratch directory and its files rewritten between PAPI_start, PAPI_read
 * and PAPI_stop: exact differences, a 32-bit counter that wraps, instantaneous values,
 * malformed files (a clear error naming the file and line, nothing counted), and a
 * missing tree (the component disabled with the reason). */
#include <stdarg.h>
#include <stdlib.h>

#include "papi.h"
#include "papi_test.h"
#include "test_tree.h"

static char scratch[512], root[1024];

/* A fresh copy of the recorded tree, made the root in force. */
static void use_tree(const char *recorded)
{
    snprintf(root, sizeof root, "%s/root", scratch);
    remove_tree(root);
    copy_tree(recorded, root);
    setenv("PAPI_FSROOT", root, 1);
}

/* Write text to the file rel (under the root) in place. */
static void put(const char *rel, const char *fmt, ...)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL, "rewrite %s", p);
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

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

/* ---- net ------------------------------------------------------------------------- */
static const char net_head[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
    "errs drop fifo colls carrier compressed\n"
    "    lo:   52840     640    0    0    0     0          0         0    52840     640    "
    "0    0    0     0       0          0\n";

static void put_eth0(unsigned long long rx_bytes, unsigned long long tx_compressed)
{
    put("proc/net/dev",
        "%s  eth0: %llu  712345    1    2    3     4          5        66 "
        "123456789  654321    7    8    9    10      11         %llu\n",
        net_head, rx_bytes, tx_compressed);
}

static void test_net(const char *recorded)
{
    use_tree(recorded);
    init();
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx_of("net"));
    CHECK(ci && !ci->disabled && ci->num_native_events == 32, "net: 2 interfaces x 16: %d %s",
          ci ? ci->num_native_events : -1, ci ? ci->disabled_reason : "");
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

    /* a malformed line: a clear error naming file and line, at start */
    put("proc/net/dev", "%s  eth0: 1 2 3\n", net_head);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "proc/net/dev line 4 is malformed"), "reason: %s",
          PAPI_strerror_detail());
    /* the interface gone */
    put("proc/net/dev", "%s", net_head);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "no line 'eth0'"), "reason: %s", PAPI_strerror_detail());
    drop_set(&es);
    PAPI_shutdown();

    /* a malformed file at init disables net with the file and line */
    put("proc/net/dev", "%s  eth0: 1 2 x\n", net_head);
    init();
    ci = PAPI_get_component_info(cidx_of("net"));
    CHECK(ci && ci->disabled && strstr(ci->disabled_reason, "line 4 is malformed"), "disabled: %s",
          ci ? ci->disabled_reason : "");
    PAPI_shutdown();
}

/* ---- every component without its tree ------------------------------------------------ */
static void test_missing(void)
{
    setenv("PAPI_FSROOT", "/nonexistent", 1);
    init();
    const char *comps[] = {"net"};
    for (size_t i = 0; i < sizeof comps / sizeof comps[0]; i++) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(cidx_of(comps[i]));
        CHECK(ci && ci->disabled && strstr(ci->disabled_reason, "/nonexistent"), "%s disabled: %s",
              comps[i], ci ? ci->disabled_reason : "");
        CHECK(ci && ci->num_native_events == 0, "%s lists no events", comps[i]);
    }
    int code;
    CHECK(PAPI_event_name_to_code("net:::eth0:rx:bytes", &code) != PAPI_OK, "no net event");
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_node_components <tests/machines/node_counters>\n");
        return 1;
    }
    snprintf(scratch, sizeof scratch, "/tmp/test_node_components.XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        return 1;
    }
    test_net(argv[1]);
    test_missing();
    remove_tree(scratch);
    return test_done("test_node_components");
}
