/* static_line.c: a PAPI user's program for the static library (test_static_line.sh):
 * perf::PAGE-FAULTS counts exactly one fault per fresh page, and the hardware
 * information has this machine's CPU count, from hwloc (which the static library loads
 * at run time). Exit 0 only when both hold. */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_workload.h" /* touch_pages: exactly one fault per fresh page */

static int count_faults(long pages)
{
    int es = PAPI_NULL;
    long long count = -1;
    if (PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK) {
        PAPI_perror("perf::PAGE-FAULTS");
        return 1;
    }
    warm_up();
    PAPI_start(es);
    touch_pages(pages);
    PAPI_stop(es, &count);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    printf("%ld fresh pages: %lld page faults\n", pages, count);
    /* Every fresh page once, and a few more at most: the first PAPI_stop of a static
     * program may fault in its own code page (seen once: 401 for 400). */
    return count >= pages && count <= pages + pages / 20 ? 0 : 1;
}

static int check_hardware(void)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    const char *src = PAPI_get_hardware_info_topology_source();
    if (!hw) {
        printf("PAPI_get_hardware_info: NULL\n");
        return 1;
    }
    printf("totalcpus %d (sysconf %ld), topology from %s\n", hw->totalcpus, cpus, src);
    return hw->totalcpus == cpus && hw->sockets >= 1 && strcmp(src, "hwloc") == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    long pages = argc > 1 ? atol(argv[1]) : 500;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        printf("PAPI_library_init failed\n");
        return 1;
    }
    int bad = count_faults(pages) | check_hardware();
    PAPI_shutdown();
    return bad;
}
