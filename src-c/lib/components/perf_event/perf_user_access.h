/* perf_user_access.h: whether and how events are opened for user-space reads
 * (perf_user_access.c). */
#ifndef PERF_USER_ACCESS_H
#define PERF_USER_ACCESS_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include "papi_sdk.h"

/* Set the config1 bit that the event's PMU names "rdpmc" in sysfs (arm64 user access);
 * no change when the PMU has no such format (x86 needs none). */
PAPI_INTERNAL void pe_user_access_attr(struct perf_event_attr *attr);
/* Whether user reads can be used at all here (kernel allows them, not switched off). */
PAPI_INTERNAL bool pe_user_read_enabled(void);

#endif
