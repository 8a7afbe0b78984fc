/* hl_clock.h: the high-level calls' wall clock (mono_clock.h's, in signed ns), one inline
 * read shared by the sessions, the regions, the time series and the trace. Not
 * installed. */
#ifndef HL_CLOCK_H
#define HL_CLOCK_H

#include "mono_clock.h"

static inline long long hl_real_ns(void)
{
    return (long long)mono_clock_ns();
}

#endif
