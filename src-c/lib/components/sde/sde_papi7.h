/* sde_papi7.h: the registry (sde_registry.h) over another PAPI 7 libsde, such as
 * Debian's libsde1, when the process loaded that one instead of ours. */
#ifndef PAPI_SDE_PAPI7_H
#define PAPI_SDE_PAPI7_H

#include "papi_sdk.h"
#include "sde_registry.h"

/* The registry over the libsde whose tools-interface calls (sde_ti_*) dlsym finds in
 * handle (RTLD_DEFAULT or a dlopen handle), or NULL when it has none. */
PAPI_INTERNAL const struct sde_registry_api *sde_papi7_registry(void *handle);

#endif
