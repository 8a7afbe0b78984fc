/* pfm_pmus.h: libpfm4's PMU descriptions, read once after pfm_initialize. */
#ifndef PFM_PMUS_H
#define PFM_PMUS_H
#include <perfmon/pfmlib.h>

/* Describe every PMU libpfm4 supports, once (native_init calls it after pfm_initialize). */
__attribute__((visibility("hidden"))) void pfm_pmus_load(void);
/* The description of pmu, or NULL when libpfm4 does not support it. */
__attribute__((visibility("hidden"))) const pfm_pmu_info_t *pfm_pmu(pfm_pmu_t pmu);
#endif
