/* overflow_count.h: the overflow handler of the tests that count its calls and the events
 * that overflowed (each call's vector ORed into vectors). One test file includes it. */
#ifndef PAPI_TEST_OVERFLOW_COUNT_H
#define PAPI_TEST_OVERFLOW_COUNT_H

static volatile int calls;
static volatile long long vectors;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)address;
    (void)context;
    calls++;
    vectors |= overflow_vector;
}

#endif
