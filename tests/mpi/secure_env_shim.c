/* secure_env_shim: preloaded ahead of the wrapper library, makes secure_getenv answer
 * as in a privileged process (AT_SECURE: setuid, setgid, file capabilities) for the
 * wrapper's own variables (PAPI_MPI_*): unset, whatever the environment holds, while
 * getenv still sees them. check_secure_env.py shows that the wrapper then ignores them
 * all. Every other name reads as in an ordinary process. */
#define _GNU_SOURCE /* the declaration of secure_getenv */
#include <stdlib.h>
#include <string.h>

char *secure_getenv(const char *name)
{
    if (strncmp(name, "PAPI_MPI_", 9) == 0)
        return NULL;
    return getenv(name);
}
