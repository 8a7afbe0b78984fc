/* env_flag.c: the wrapper's on/off environment variables (env_flag.h). */
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "env_flag.h"

int pmpi_env_flag(const char *name, int dflt, int rank, const char *if_bad)
{
    const char *v = env_get(name);
    if (!v || !*v)
        return dflt;
    if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)
        return v[0] == '1';
    if (rank == 0)
        fprintf(stderr, "papi_mpi: %s=%s: expected 0 or 1; %s\n", name, v, if_bad);
    return dflt;
}
