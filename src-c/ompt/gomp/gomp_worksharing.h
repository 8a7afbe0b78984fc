/* gomp_worksharing.h: worksharing constructs under the interposer (gomp_worksharing.c). */
#ifndef PAPI_GOMP_WORKSHARING_H
#define PAPI_GOMP_WORKSHARING_H

#include <stdint.h>

/* The iterations of a loop from start to end (excluded) by incr. */
uint64_t gomp_trip_count(long start, long end, long incr);

#endif
