/* refuse_sampling.c: a kernel that refuses to sample, for check_sample_limits.py refused.
 * Preloaded into papi_run (and so into the program it starts), it fails every
 * perf_event_open that asks for samples (a period or a frequency) with REFUSE_ERRNO, as
 * kernel.perf_event_paranoid 3 does (EACCES) or a PMU whose event cannot sample
 * (EOPNOTSUPP); counting opens and every other system call go through unchanged. Built
 * once per errno (REFUSE_ERRNO defined by the build). */
#include "refuse_perf_open.h"

static int refused(const struct perf_event_attr *a)
{
    return a->sample_period != 0 ? REFUSE_ERRNO : 0; /* (sample_freq shares it) */
}
