/* pfm_pmus.c: libpfm4's PMU descriptions, read once. pfm_get_pmu_info looks up the first
 * event of the PMU's table at every call, and the library asks about every PMU when it
 * picks a preset table, counts and enumerates native events, and names an event. */
#include <string.h>

#include "pfm_pmus.h"

static pfm_pmu_info_t pmus[PFM_PMU_MAX];
static unsigned char supported[PFM_PMU_MAX];

void pfm_pmus_load(void)
{
    for (int p = 0; p < PFM_PMU_MAX; p++) {
        memset(&pmus[p], 0, sizeof pmus[p]);
        pmus[p].size = sizeof pmus[p];
        supported[p] = pfm_get_pmu_info((pfm_pmu_t)p, &pmus[p]) == PFM_SUCCESS;
    }
}

const pfm_pmu_info_t *pfm_pmu(pfm_pmu_t pmu)
{
    if ((int)pmu < 0 || pmu >= PFM_PMU_MAX || !supported[pmu])
        return NULL;
    return &pmus[pmu];
}
