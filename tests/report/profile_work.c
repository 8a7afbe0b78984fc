/* profile_work.c: known work per function for papi_report's profile page and --compare
 * (check_report_profile.py), sampled by papi_run --sample.
 *   profile_work HEAVY LIGHT EXTRA
 * Two threads: one runs heavy(HEAVY units, and 16 KiB a unit of fresh pages), the
 * other light(LIGHT units) then, when EXTRA > 0, extra(EXTRA units) (a unit is 1e6
 * steps of the same loop in each). Built with frame pointers and no inlining, so every
 * function keeps its frame. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define STEPS(units)                                               \
    do {                                                           \
        unsigned long x = sink;                                    \
        for (long i = 0; i < (units)*1000000L; i++)                \
            x = x * 6364136223846793005UL + 1442695040888963407UL; \
        sink = x;                                                  \
    } while (0)

static long n_heavy, n_light, n_extra;

/* heavy also touches 16 KiB a unit of fresh memory: page faults to weigh by (-e). A
 * sample charges its stack with the faults since the thread's previous sample, so the
 * memory is freed only after the loop: a sample landing in free's munmap (whose frame
 * hides heavy's) would otherwise take the faults of the last millisecond. */
__attribute__((noinline)) void heavy(long units)
{
    size_t bytes = (size_t)units << 14;
    char *p = malloc(bytes);
    if (p) { /* a store a page in this frame (memset's own frame would hide heavy's) */
        for (size_t i = 0; i < bytes; i += 4096)
            ((volatile char *)p)[i] = 1; /* kept at -O2 too */
        sink += (unsigned long)((volatile char *)p)[bytes / 2];
    }
    STEPS(units);
    free(p);
}

__attribute__((noinline)) void light(long units)
{
    STEPS(units);
}

__attribute__((noinline)) void extra(long units)
{
    STEPS(units);
}

__attribute__((noinline)) static void *heavy_thread(void *arg)
{
    (void)arg;
    heavy(n_heavy);
    return NULL;
}

__attribute__((noinline)) static void *light_thread(void *arg)
{
    (void)arg;
    light(n_light);
    if (n_extra > 0)
        extra(n_extra);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return fprintf(stderr, "usage: profile_work HEAVY LIGHT EXTRA\n"), 2;
    n_heavy = atol(argv[1]);
    n_light = atol(argv[2]);
    n_extra = atol(argv[3]);
    pthread_t t[2];
    pthread_create(&t[0], NULL, heavy_thread, NULL);
    pthread_create(&t[1], NULL, light_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
