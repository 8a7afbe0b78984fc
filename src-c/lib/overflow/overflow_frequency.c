/* overflow_frequency.c: PAPI_overflow_frequency, PAPI_overflow in frequency mode (an
 * extension of this library, not in PAPI): the kernel adjusts the event's period so that
 * it overflows hz times a second of the event's time (perf_event_attr.freq); everything
 * else is PAPI_overflow's (the handler, the vector, one record per event, threshold 0 of
 * PAPI_overflow turns it off). */
#include <stdlib.h>

#include "call_guard.h"
#include "fsroot.h"
#include "overflow.h"

#define MAX_RATE_FILE "/proc/sys/kernel/perf_event_max_sample_rate"

/* The kernel's limit on samples a second (kernel.perf_event_max_sample_rate), or -1 when
 * it cannot be read. */
static long max_sample_rate(void)
{
    char line[64];
    if (fsroot_read_line(MAX_RATE_FILE, line, sizeof line) != 0)
        return -1;
    char *end;
    long v = strtol(line, &end, 10);
    return end != line && v > 0 ? v : -1;
}

int PAPI_overflow_frequency(int EventSet, int EventCode, int hz, int flags,
                            PAPI_overflow_handler_t handler)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = ovf_user_set(EventSet, flags, &es);
    if (ret != PAPI_OK)
        return ret;
    if (hz <= 0)
        return papi_error(PAPI_EINVAL,
                          "frequency %d Hz: it must be at least 1 (turn overflow off with "
                          "PAPI_overflow(EventSet, EventCode, 0, 0, NULL))",
                          hz);
    long limit = max_sample_rate();
    if (limit > 0 && hz > limit)
        return papi_error(PAPI_EINVAL,
                          "frequency %d Hz is above the kernel's limit of %ld samples a "
                          "second (" MAX_RATE_FILE ")",
                          hz, limit);
    return ovf_configure(es, EventCode, hz, flags | OVF_FLAG_HZ, handler, 0);
}
