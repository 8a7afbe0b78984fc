/* sample_work.c: known shapes of work for papi_run --sample (check_sample.py).
 *   split N     work_a does 3 units for each of work_b's 1 (N units of 1e6 steps)
 *   recurse D   descend D frames of descend(), then spin in the deepest
 *   threads N   two threads spin in thread_work, a forked child in child_work (N units
 *               each), the main thread waits
 * Built with frame pointers and no inlining, so every function keeps its frame. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) void work_a(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) void work_b(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

__attribute__((noinline)) int descend(int depth, long units)
{
    if (depth <= 1) {
        spin(units);
        return 1;
    }
    int r = descend(depth - 1, units);
    sink += (unsigned long)r; /* work after the call: no tail call */
    return r + 1;
}

__attribute__((noinline)) void child_work(long units)
{
    spin(units);
}

__attribute__((noinline)) void *thread_work(void *arg)
{
    spin((long)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return fprintf(stderr, "usage: sample_work split|recurse|threads N [D]\n"), 2;
    long n = atol(argv[2]);
    if (strcmp(argv[1], "split") == 0) {
        for (int round = 0; round < 10; round++) { /* interleaved: drift hits both alike */
            work_a(3 * n / 10);
            work_b(n / 10);
        }
    } else if (strcmp(argv[1], "recurse") == 0) {
        return descend(argc > 3 ? atoi(argv[3]) : 50, n) > 0 ? 0 : 1;
    } else if (strcmp(argv[1], "threads") == 0) {
        pthread_t t[2];
        pid_t pid = fork();
        if (pid == 0) {
            child_work(n);
            _exit(0);
        }
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, thread_work, (void *)n);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        int st;
        waitpid(pid, &st, 0);
    } else {
        return 2;
    }
    return 0;
}
