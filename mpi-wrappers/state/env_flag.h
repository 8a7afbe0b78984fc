/* env_flag.h: the wrapper's on/off environment variables (PAPI_MPI_WAITS,
 * PAPI_MPI_CALLSITES, PAPI_MPI_CLOCK_PINGPONG, PAPI_MPI_KEEP_EVENT_LOG), read one way. */
#ifndef PAPI_MPI_ENV_FLAG_H
#define PAPI_MPI_ENV_FLAG_H

/* name's value: "1" is 1, "0" is 0, unset or empty is dflt; anything else is dflt, said
 * in one line by rank 0 ("papi_mpi: NAME=VALUE: expected 0 or 1; if_bad"). Read with
 * env_get (secure_getenv: a privileged process reads none). */
int pmpi_env_flag(const char *name, int dflt, int rank, const char *if_bad);

#endif
