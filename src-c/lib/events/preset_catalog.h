/* preset_catalog.h: the presets PAPI names, their categories and descriptions
 * (preset_catalog.c over preset_catalog.def), a leaf of events/. */
#ifndef PRESET_CATALOG_H
#define PRESET_CATALOG_H

#include "papi_globals.h"

struct preset_catalog_entry {
    const char *name;
    unsigned categories;
    const char *short_descr;
    const char *long_descr;
};
/* Indexed by PAPI_*_idx. */
extern const struct preset_catalog_entry preset_catalog[PAPI_END_idx] PAPI_INTERNAL;
/* The name of preset index idx ("PAPI_TOT_INS"), NULL out of range. */
PAPI_INTERNAL const char *preset_catalog_name(int idx);
/* The catalog index of a preset name ("PAPI_TOT_INS"), -1 when none has it. */
PAPI_INTERNAL int preset_catalog_index(const char *name);

#endif
