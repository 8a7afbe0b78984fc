/* pmu_state.c: the component's shared state (pmu_state.h), defined apart so that every
 * file may read it without reaching the file that fills it. */
#include "pmu_state.h"

struct pmu_access g_pmu;
