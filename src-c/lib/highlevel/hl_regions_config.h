/* hl_regions_config.h: which events the region API counts (hl_regions_config.c), and a
 * set of them started. The functions fill or use the configuration they are given and
 * touch no global: hl_regions.c stores the result in g_hlr. Not installed. */
#ifndef HL_REGIONS_CONFIG_H
#define HL_REGIONS_CONFIG_H

#include "hl_state.h"

/* Choose the events into *c (cleared first): PAPI_OK, or the error that leaves nothing
 * chosen (*c empty; chosen again at the next call). */
PAPI_INTERNAL int hlr_configure(struct hlr_config *c);
/* Resolve c's codes again after PAPI_shutdown + PAPI_library_init. */
PAPI_INTERNAL int hlr_resolve_again(struct hlr_config *c);
/* c's set k in the event set es, made with the status made (create, assign, attach ...):
 * its events added and es started. PAPI_OK, or the first error (made's included) with
 * es cleaned up and destroyed; *out is es, PAPI_NULL once destroyed. */
PAPI_INTERNAL int hlr_set_start(const struct hlr_config *c, int k, int made, int es, int *out);
/* What *c holds on the heap freed, *c emptied. */
PAPI_INTERNAL void hlr_config_free(struct hlr_config *c);

#endif
