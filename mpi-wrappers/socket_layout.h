/* socket_layout.h: the collective side of one reader per socket (socket_layout.c). */
#ifndef PMPI_SOCKET_LAYOUT_H
#define PMPI_SOCKET_LAYOUT_H

#include "socket_share.h"

/* Collective over MPI_COMM_WORLD: this rank's share of its socket; 0, or -1 when the
 * node's packages cannot be gathered (each rank then reads for itself). */
int pmpi_socket_layout(int world_rank);
/* This rank's share, or NULL before (or without) pmpi_socket_layout. */
const struct pmpi_socket_share *pmpi_socket(void);
/* Collective over the socket's ranks: value[k] and ok[k] of each socket-wide metric k
 * (socket_wide[k] nonzero) become the socket reader's. */
void pmpi_socket_attribute(double *value, int *ok, const int *socket_wide, int n);

/* 0 when event is not counted in these counts: a socket's event is counted only in the
 * rank totals (rank_row) of the socket's reader, never per thread or region. Such a
 * count is left out (never written as 0). */
int pmpi_socket_counted_here(const char *event, int rank_row);

#endif
