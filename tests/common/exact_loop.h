/* exact_loop.h: loops of an exactly known number of user instructions, for the programs
 * that count or sample instructions on hardware (the PMU lane's tests, bench/arm64): each
 * turn of EXACT_LOOP_2 is 2 instructions (a subtract and a branch), of EXACT_LOOP_3 3 (a
 * nop more, so that the compiler cannot fold it into the other). Each is the whole body
 * of a noinline function taking a long n: the count is that function's own. No PAPI: the
 * benches built without the library use it too. */
#ifndef EXACT_LOOP_H
#define EXACT_LOOP_H

#if defined(__aarch64__)
#define EXACT_LOOP_2(n) __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc")
#define EXACT_LOOP_3(n) __asm__ volatile("1: nop\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc")
#elif defined(__x86_64__)
#define EXACT_LOOP_2(n) __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc")
#define EXACT_LOOP_3(n) __asm__ volatile("1: nop\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc")
#else /* not exact elsewhere: a loop the compiler keeps */
#define EXACT_LOOP_2(n) for (volatile long exact_turn_ = 0; exact_turn_ < (n); exact_turn_++)
#define EXACT_LOOP_3(n) EXACT_LOOP_2(n)
#endif

#endif
