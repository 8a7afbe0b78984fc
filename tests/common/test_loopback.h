/* test_loopback.h: UDP traffic of known size over the loopback interface, for the tests
 * of network counters (net:::lo:rx:bytes). Header-only, for tests; no PAPI in it. */
#ifndef PAPI_TEST_LOOPBACK_H
#define PAPI_TEST_LOOPBACK_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* A UDP socket bound to a free loopback port, its address in *a; skips the test (77)
 * where there is none. */
static inline int test_loopback_socket(struct sockaddr_in *a)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    socklen_t len = sizeof *a;
    *a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof *a) != 0 ||
        getsockname(fd, (struct sockaddr *)a, &len) != 0) {
        printf("SKIPPED: no loopback UDP socket here\n");
        exit(77);
    }
    return fd;
}

/* Sends datagrams of 1000 bytes to the socket's own address, each received (exit 3 if
 * not): the bytes received. */
static inline long test_loopback_ping(int fd, const struct sockaddr_in *to, long sends)
{
    static char buf[1000];
    long got = 0;
    for (long i = 0; i < sends; i++) {
        ssize_t n = sendto(fd, buf, sizeof buf, 0, (const struct sockaddr *)to, sizeof *to);
        if (n != (ssize_t)sizeof buf || (n = recv(fd, buf, sizeof buf, 0)) != (ssize_t)sizeof buf) {
            perror("sendto/recv");
            exit(3);
        }
        got += n;
    }
    return got;
}

#endif
