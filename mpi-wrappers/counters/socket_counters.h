/* socket_counters.h: the socket-wide events of PAPI_MPI_METRICS (memory controllers),
 * counted in one event set per socket, by its reader rank (socket_counters.c). */
#ifndef PMPI_SOCKET_COUNTERS_H
#define PMPI_SOCKET_COUNTERS_H

#include "socket_share.h"

/* At MPI_Init, after the events are chosen (collective when PAPI_MPI_METRICS is set):
 * lays out the node's sockets and, on each socket's reader, opens and starts the
 * socket-wide events. papi_ok: the library initialised. */
void pmpi_socket_counters_init(int papi_ok);
/* 1 when this rank reads for its socket (its reader, or not laid out) and the socket's
 * set did not open: the socket's metrics have no value (never 0). */
int pmpi_socket_counters_not_counted(void);
/* 1 when this rank counts socket-wide event e (an index of pmpi_ev()->event_names): the
 * socket's reader, or any rank of it for a powercap energy sum. */
int pmpi_socket_counters_open(int e);
/* Adds the socket set's counts (reader) into sum, in pmpi_ev()->event_names' order. */
void pmpi_socket_counters_read(long long *sum);
/* Stops the socket set, its final counts added into into (once). */
void pmpi_socket_counters_stop(long long *into);

#endif
