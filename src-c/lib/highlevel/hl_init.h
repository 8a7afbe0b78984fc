/* hl_init.h: the library initialised by the first high-level call (hl_init.c). Not
 * installed. */
#ifndef HL_INIT_H
#define HL_INIT_H

#include "papi_globals.h"

/* Initialise the library if needed and mark it PAPI_HIGH_LEVEL_INITED. */
PAPI_INTERNAL int hl_self_init(void);

#endif
