/* mono_clock.h: the one clock of the library, its tools and the MPI wrapper for times
 * that only need to be compared on this host: CLOCK_MONOTONIC in nanoseconds (never
 * steps back, async-signal-safe). Header only, inline: it is on the read paths. */
#ifndef PAPI_MONO_CLOCK_H
#define PAPI_MONO_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The interval clock of the hot paths: the TSC on x86 (about half the cost of
 * clock_gettime), the virtual counter on arm64 (CNTVCT_EL0, which the vDSO's
 * clock_gettime reads and converts: one instruction of its 60), else mono_clock_ns. Its ticks become ns through a ratio measured over
 * a run against mono_clock_ns. The MPI wrapper's calls and the OMPT tool's trace spans
 * both read it, so that a call made inside an OpenMP slice stays inside it once both
 * are converted by the same map. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t tick_clock(void)
{
    return (uint64_t)__rdtsc();
}
#elif defined(__aarch64__)
static inline uint64_t tick_clock(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory"); /* isb: in order */
    return v;
}
#else
static inline uint64_t tick_clock(void)
{
    return mono_clock_ns();
}
#endif

#endif
