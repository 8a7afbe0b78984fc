/* pmu_access.h: the probe of this machine's PMUs and perf_event access (pmu_access.c). */
#ifndef PMU_ACCESS_H
#define PMU_ACCESS_H

#include "pmu_state.h"

PAPI_INTERNAL void pmu_access_probe(struct pmu_access *out);

#endif
