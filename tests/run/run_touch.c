/* run_touch: the program papi_run measures in tests/run. Known page faults:
 *   run_touch THREADS PAGES CHILD_PAGES STATUS [SECONDS]
 * THREADS threads each touch PAGES fresh pages, then a forked child touches CHILD_PAGES
 * and leaves with _exit, then the process spins on the CPU for SECONDS (the --interval
 * test) and exits with STATUS. "run_touch term" says "ready" and waits for SIGTERM,
 * which makes it exit 42 (signal passing); "run_touch kill" dies of SIGKILL; "run_touch
 * sleeps N" sleeps 1 ms N times (each sleep is at least one context switch); "run_touch
 * net PAGES SENDS [SECONDS]" touches PAGES pages, sends itself SENDS datagrams of 1000
 * bytes over a loopback UDP socket (prints "BYTES n", the bytes received; exit 77 without
 * one), then spins SECONDS. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_loopback.h"

static long pages_per_thread;

static void touch(long pages)
{
    const long ps = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(pages * ps), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(3);
    }
    for (long i = 0; i < pages; i++)
        p[i * ps] = 1;
    munmap((void *)p, (size_t)(pages * ps));
}

static void *thread_main(void *arg)
{
    (void)arg;
    touch(pages_per_thread);
    return NULL;
}

static void on_term(int sig)
{
    (void)sig;
    _exit(42);
}

static void spin(double seconds)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9 < seconds);
}

/* SENDS datagrams of 1000 bytes to a socket of our own, each received: the bytes. */
static long ping(long sends)
{
    struct sockaddr_in a;
    int fd = test_loopback_socket(&a);
    long got = test_loopback_ping(fd, &a, sends);
    close(fd);
    return got;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "net") == 0) {
        touch(atol(argv[2]));
        long got = ping(atol(argv[3]));
        if (argc > 4)
            spin(atof(argv[4]));
        printf("BYTES %ld\n", got);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "term") == 0) {
        signal(SIGTERM, on_term);
        printf("ready\n");
        fflush(stdout);
        for (;;)
            pause();
    }
    if (argc == 2 && strcmp(argv[1], "kill") == 0)
        raise(SIGKILL);
    if (argc == 3 && strcmp(argv[1], "sleeps") == 0) {
        for (int i = 0; i < atoi(argv[2]); i++)
            usleep(1000);
        return 0;
    }
    if (argc < 5)
        return 2;
    int nthreads = atoi(argv[1]);
    pthread_t t[64];
    pages_per_thread = atol(argv[2]);
    for (int i = 0; i < nthreads && i < 64; i++)
        pthread_create(&t[i], NULL, thread_main, NULL);
    for (int i = 0; i < nthreads && i < 64; i++)
        pthread_join(t[i], NULL);
    pid_t child = fork();
    if (child == 0) {
        touch(atol(argv[3]));
        _exit(0);
    }
    waitpid(child, NULL, 0);
    if (argc > 5)
        spin(atof(argv[5]));
    return atoi(argv[4]);
}
