/* traffic.h: message sizes and point-to-point partners (traffic.c). */
#ifndef PAPI_MPI_TRAFFIC_H
#define PAPI_MPI_TRAFFIC_H

#include <mpi.h>

struct jw;
struct pmpi_started;

/* A point-to-point call to dest and/or from source (ranks of comm; negative: none),
 * with its bytes and time (ticks). */
void pmpi_partner_add(MPI_Comm comm, int dest, int source, long long sent, long long recvd,
                      long long dt);
/* A MPI_Start/MPI_Startall (dt: the call's time, in ticks, shared by its requests):
 * each request's partner and bytes of one start, as its *_init call filed them and the
 * start's wrapper read them (persistent_requests.h). */
void pmpi_persistent_start(const struct pmpi_started *st, long long dt);
/* A Fortran receive's source: `source`, or when it is MPI_ANY_SOURCE the status's
 * (an INTEGER array, or TYPE(MPI_Status) when f08), -1 when the status is ignored. */
int pmpi_fortran_source(const int source, const void *status, int f08);
/* The row's "sizes", "partners" and "partners_dropped" members, summed over threads. */
void pmpi_traffic_json(struct jw *w, double ns_per_tick);

#endif
