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
 * (socket_wide[k] nonzero) become the socket reader's, all in one broadcast. */
void pmpi_socket_attribute(double *value, int *ok, const int *socket_wide, int n);
/* 1 once pmpi_socket_layout ran (laid out or not): it runs once per job. */
int pmpi_socket_layout_tried(void);
/* The ranks on this rank's node, 0 when not laid out. */
int pmpi_node_ranks(void);
/* Collective over the ranks of this rank's socket (node 0) or node (node 1): out[i] =
 * the sum of their in[i]. -1 when not laid out: out = in (this rank alone). */
int pmpi_layout_group_sum(int node, const int *in, int *out, int n);
/* Collective, at the end of MPI_Finalize's report: the socket and node groups freed. */
void pmpi_socket_layout_free(void);

/* Collective over MPI_COMM_WORLD, at MPI_Finalize before the report: for each node
 * device event (socket_share.h) that this rank counts (counting: its set reads), the
 * node's ranks that count it too, and whether this rank is the lowest of them. Lays the
 * node out first when nothing did (decided by the job's events, the same on all ranks). */
void pmpi_device_layout(int counting);
/* 1 when this rank's count of event e enters the job's totals: any event but a node
 * device's, which only the lowest rank of the node counting it adds (each rank for
 * itself when the node could not be laid out). */
int pmpi_device_in_job(int e);
/* The node's ranks that count node device event e (1 alone), 0 when not a node
 * device event or before pmpi_device_layout. */
int pmpi_device_shared_by(int e);

/* 0 when event is not counted in these counts: a socket's event is counted only in the
 * rank totals (rank_row) of the socket's reader, never per thread or region. Such a
 * count is left out (never written as 0). */
int pmpi_socket_counted_here(const char *event, int rank_row);

#endif
