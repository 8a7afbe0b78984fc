/* hl_mixed_workload: one region that touches PAGES fresh pages and sends BYTES bytes to
 * itself over a loopback UDP socket, for PAPI_EVENTS naming events of several components
 * (perf::PAGE-FAULTS with net:::lo:rx:bytes ...): check_hl_mixed.py reads the region
 * report it writes at exit. The socket, its buffers and every call path are made ready
 * before the region, so the region faults exactly PAGES pages. Prints "BYTES n". With
 * "once" it marks that region alone (one instance: a rank file of check_hl_hatchet.py). */

#include "papi_test.h"
#include "test_loopback.h"

#define PAGES 40
#define SENDS 50

int main(int argc, char **argv)
{
    const int once = argc > 1 && strcmp(argv[1], "once") == 0; /* the measured region only */
    struct sockaddr_in a;
    int fd = test_loopback_socket(&a);
    warm_up();
    test_loopback_ping(fd, &a, SENDS);
    for (int k = 0; !once && k < 2; k++) { /* every path of begin and end resident */
        CHECK_RET(PAPI_hl_region_begin("warm"), PAPI_OK);
        touch_pages(2);
        test_loopback_ping(fd, &a, SENDS);
        CHECK_RET(PAPI_hl_region_end("warm"), PAPI_OK);
    }
    CHECK_RET(PAPI_hl_region_begin("mixed"), PAPI_OK);
    touch_pages(PAGES);
    long got = test_loopback_ping(fd, &a, SENDS);
    CHECK_RET(PAPI_hl_region_end("mixed"), PAPI_OK);
    close(fd);
    printf("BYTES %ld\n", got);
    printf("hl_mixed_workload: PASSED\n");
    return 0;
}
