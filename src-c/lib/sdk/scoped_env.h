/* scoped_env.h: an environment variable set around one call into hwloc or libpfm4. */
#ifndef SCOPED_ENV_H
#define SCOPED_ENV_H

#include "papi_sdk.h"

/* Locks, then sets name=value if wanted and the user has not set it; returns whether it
 * did. scoped_env_end undoes that and unlocks; always pair the two. */
PAPI_INTERNAL bool scoped_env_begin(const char *name, const char *value, bool wanted);
PAPI_INTERNAL void scoped_env_end(const char *name, bool was_set);

#endif
