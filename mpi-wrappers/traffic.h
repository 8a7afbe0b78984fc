/* traffic.h: message sizes and point-to-point partners (traffic.c). */
#ifndef PAPI_MPI_TRAFFIC_H
#define PAPI_MPI_TRAFFIC_H

#include <mpi.h>

struct tbuf;

/* At MPI_Init: the world group partners' ranks are translated into. */
void pmpi_traffic_init(void);
/* A point-to-point call to dest and/or from source (ranks of comm; negative: none),
 * with its bytes and time (ticks). */
void pmpi_partner_add(MPI_Comm comm, int dest, int source, long long sent, long long recvd,
                      long long dt);
/* The row's "sizes", "partners" and "partners_dropped" members, summed over threads. */
void pmpi_traffic_json(struct tbuf *t, double ns_per_tick);

#endif
