/* hl_event_types_workload: the region API on the recorded node tree
 * (tests/machines/node_counters, argv[2]) copied to a scratch directory (argv[3]) and
 * replayed through PAPI_FSROOT; check_hl_event_types.py runs it and checks the report
 * it leaves at exit.
 *   argv[1] "types": PAPI_EVENTS (set by the script) marks temperatures "=instant" and
 *     "=delta", names node events without their component prefix and a perf event with a
 *     raw "=" field; region "r" sees the files rewritten between its begin, a
 *     PAPI_hl_read and its end, and 300 fresh pages touched.
 *   argv[1] "threads": region "outer" in the main thread, region "inner" in a second
 *     thread while "outer" is open (PAPI_HL_THREAD_MULTIPLE decides whether one record
 *     or two hold them). */
#include <pthread.h>
#include <stdarg.h>

#include "papi_test.h"
#include "test_tree.h"
#include "test_workload.h"

static const char net_head[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
    "errs drop fifo colls carrier compressed\n";

static void put_eth0_rx_bytes(unsigned long long bytes)
{
    tree_put("proc/net/dev",
             "%s  eth0: %llu  712345    1    2    3     4          5        66 "
             "123456789  654321    7    8    9    10      11         12\n",
             net_head, bytes);
}

/* temp1 (=instant) 45000 -> 46000 at the read -> 47000 at the end; temp2 (=delta)
 * 43000 -> 44500 -> 45500; eth0 rx bytes (unprefixed, delta by default) 918273645 ->
 * +1000 -> +4000. */
static void types(void)
{
    CHECK_RET(PAPI_hl_region_begin("r"), PAPI_OK);
    tree_put("sys/class/hwmon/hwmon0/temp1_input", "46000\n");
    tree_put("sys/class/hwmon/hwmon0/temp2_input", "44500\n");
    put_eth0_rx_bytes(918273645ULL + 1000);
    CHECK_RET(PAPI_hl_read("r"), PAPI_OK);
    tree_put("sys/class/hwmon/hwmon0/temp1_input", "47000\n");
    tree_put("sys/class/hwmon/hwmon0/temp2_input", "45500\n");
    put_eth0_rx_bytes(918273645ULL + 4000);
    touch_pages(300);
    CHECK_RET(PAPI_hl_region_end("r"), PAPI_OK);
}

static void *inner(void *arg)
{
    (void)arg;
    CHECK_RET(PAPI_hl_region_begin("inner"), PAPI_OK);
    touch_pages(100);
    CHECK_RET(PAPI_hl_region_end("inner"), PAPI_OK);
    return NULL;
}

static void threads(void)
{
    pthread_t th;
    CHECK_RET(PAPI_hl_region_begin("outer"), PAPI_OK);
    CHECK(pthread_create(&th, NULL, inner, NULL) == 0, "pthread_create");
    pthread_join(th, NULL);
    CHECK_RET(PAPI_hl_region_end("outer"), PAPI_OK);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s types|threads TREE SCRATCH\n", argv[0]);
        return 2;
    }
    tree_use(argv[2], argv[3], "root");
    warm_up();
    if (strcmp(argv[1], "types") == 0)
        types();
    else
        threads();
    return test_done(argv[1]);
}
