/* papi_internal.h: every internal header at once, for code not yet converted to
 * including what it uses (papi_globals.h, eventset.h, events.h, threads.h, ...). */
#ifndef PAPI_INTERNAL_H
#define PAPI_INTERNAL_H

#include "component_registry.h"
#include "eventset.h"
#include "events.h"
#include "hwinfo.h"
#include "papi_globals.h"
#include "scoped_env.h"
#include "threads.h"

#endif
