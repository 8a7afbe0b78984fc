/* kokkos_regions.h: the open Kokkos kernels and profile regions of one thread, each a
 * region of PAPI's region API (PAPI_hl_region_begin/end) under the Kokkos name. */
#ifndef KOKKOS_REGIONS_H
#define KOKKOS_REGIONS_H

#include <stdint.h>

/* What Kokkos opened: a kernel (ended by the id it was given) or a profile region
 * (pushRegion; popRegion ends the innermost one). */
enum kr_kind { KR_KERNEL, KR_PROFILE };

/* Begins the region NAME (cut to the region API's 127 characters) and returns its id
 * for kr_end, or KR_NO_ID when this thread already has KR_MAX_OPEN open (not counted,
 * said once per process on stderr; a refused profile region's pop then ends nothing). */
#define KR_MAX_OPEN 64
#define KR_NO_ID    UINT64_MAX
uint64_t kr_begin(enum kr_kind kind, const char *name);
/* Ends the region of ID (an id kr_begin did not give is ignored). */
void kr_end(uint64_t id);
/* Pops the innermost profile push of this thread: ends its region, or nothing when that
 * push was refused. */
void kr_pop_profile(void);
/* Ends every region this thread still has open (Kokkos::finalize with a pushRegion left
 * unpopped), innermost first, so the report at exit is complete. */
void kr_end_all(void);

#endif
