/* hl_mixed_workload: one region that touches PAGES fresh pages and sends BYTES bytes to
 * itself over a loopback UDP socket, for PAPI_EVENTS naming events of several components
 * (perf::PAGE-FAULTS with net:::lo:rx:bytes ...): check_hl_mixed.py reads the region
 * report it writes at exit. The socket, its buffers and every call path are made ready
 * before the region, so the region faults exactly PAGES pages. Prints "BYTES n". With
 * "once" it marks that region alone (one instance: a rank file of check_hl_hatchet.py). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "papi_test.h"

#define PAGES 40
#define CHUNK 1000
#define SENDS 50

static char buf[CHUNK];

/* Send SENDS datagrams of CHUNK bytes to our own socket and receive them: the bytes
 * received. */
static long ping(int fd, const struct sockaddr_in *to)
{
    long got = 0;
    for (int i = 0; i < SENDS; i++) {
        if (sendto(fd, buf, sizeof buf, 0, (const struct sockaddr *)to, sizeof *to) !=
            (ssize_t)sizeof buf) {
            perror("sendto");
            exit(2);
        }
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n != (ssize_t)sizeof buf) {
            perror("recv");
            exit(2);
        }
        got += n;
    }
    return got;
}

int main(int argc, char **argv)
{
    const int once = argc > 1 && strcmp(argv[1], "once") == 0; /* the measured region only */
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        printf("SKIPPED: no loopback UDP socket here\n");
        return 77;
    }
    memset(buf, 'x', sizeof buf);
    warm_up();
    ping(fd, &a);
    for (int k = 0; !once && k < 2; k++) { /* every path of begin and end resident */
        CHECK_RET(PAPI_hl_region_begin("warm"), PAPI_OK);
        touch_pages(2);
        ping(fd, &a);
        CHECK_RET(PAPI_hl_region_end("warm"), PAPI_OK);
    }
    CHECK_RET(PAPI_hl_region_begin("mixed"), PAPI_OK);
    touch_pages(PAGES);
    long got = ping(fd, &a);
    CHECK_RET(PAPI_hl_region_end("mixed"), PAPI_OK);
    close(fd);
    printf("BYTES %ld\n", got);
    printf("hl_mixed_workload: PASSED\n");
    return 0;
}
