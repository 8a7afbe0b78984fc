/* mpi_series: rank r touches (r + 1) x 10 x 64 fresh pages in 10 steps 0.05 s apart
 * (about 0.5 s), then MPI_Finalize: the rank's PAPI_INTERVAL series grows in steps
 * (check_mpi_series.py). "mpi_series net" also has each rank send itself 10 x 50
 * datagrams of 1000 bytes over a loopback UDP socket, one burst per step
 * (check_mpi_components.py: events of two components in the rows); exit 77 without one.
 * "mpi_series spin" has each rank's one thread compute 0.3 s of CPU time and call
 * MPI_Finalize at once (the last sample's interval, check_mpi_series.py); rank r then
 * ends 0.5 r s later. */
#include <arpa/inet.h>
#include <mpi.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SENDS 50

/* SENDS datagrams of 1000 bytes to our own socket fd, each received. */
static void ping(int fd, const struct sockaddr_in *to)
{
    static char buf[1000];
    for (int i = 0; i < SENDS; i++)
        if (sendto(fd, buf, sizeof buf, 0, (const struct sockaddr *)to, sizeof *to) !=
                (ssize_t)sizeof buf ||
            recv(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf)
            MPI_Abort(MPI_COMM_WORLD, 3);
}

#define STEPS 10
#define PAGES 64

/* the busy work's result: kept, so that no compiler drops the loop */
static volatile unsigned long spin_sink;

/* This thread computes for cpu_s of its CPU time. */
static void spin(double cpu_s)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do {
        for (int i = 0; i < 10000; i++)
            spin_sink += (unsigned long)i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < cpu_s);
}

int main(int argc, char **argv)
{
    int rank;
    long page = sysconf(_SC_PAGESIZE);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1 && strcmp(argv[1], "spin") == 0) {
        spin(0.3);
        MPI_Finalize();
        usleep((useconds_t)rank * 500000); /* the ranks end in turn (check_run_sample_ranks.py) */
        return 0;
    }
    int fd = -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (argc > 1 && strcmp(argv[1], "net") == 0) {
        socklen_t len = sizeof a;
        fd = socket(AF_INET, SOCK_DGRAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
            getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
            if (rank == 0)
                printf("SKIPPED: no loopback UDP socket here\n");
            MPI_Finalize();
            return 77;
        }
    }
    size_t n = (size_t)(rank + 1) * PAGES * (size_t)page;
    for (int s = 0; s < STEPS; s++) {
        volatile char *p =
            mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (size_t i = 0; i < n; i += (size_t)page)
            p[i] = 1;
        munmap((void *)p, n);
        if (fd >= 0)
            ping(fd, &a);
        usleep(50000);
    }
    if (fd >= 0)
        close(fd);
    MPI_Finalize();
    return 0;
}
