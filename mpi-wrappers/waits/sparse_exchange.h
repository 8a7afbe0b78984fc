/* sparse_exchange.h: an all-to-all of variable counts between the ranks that have
 * something for each other only (sparse_exchange.c). */
#ifndef PAPI_MPI_SPARSE_EXCHANGE_H
#define PAPI_MPI_SPARSE_EXCHANGE_H

#include <mpi.h>
#include <stddef.h>

/* The exchanges' workspace for P ranks and n patterns counted together
 * (pmpi_sparse_senders): 1, or 0 without memory (free it either way). Every rank must
 * have one before any exchanges (an agreement: finalize_agreement.h). */
struct pmpi_sparse_ws {
    int *flag;
    MPI_Request *req;
};
int pmpi_sparse_ws_alloc(struct pmpi_sparse_ws *ws, int P, int n);
void pmpi_sparse_ws_free(struct pmpi_sparse_ws *ws);

/* Collective over comm: for each of n exchanges k, how many ranks will send here
 * (nfrom[k]; -1 when the MPI failed), this rank sending to every r with cnt[k][r] > 0:
 * one MPI_Reduce_scatter_block of n flags per rank for all of them. */
void pmpi_sparse_senders(MPI_Comm comm, const struct pmpi_sparse_ws *ws, int n,
                         const int *const *cnt, int *nfrom);

/* dis[r]: where rank r's cnt[r] items start when they lie in rank order. */
void pmpi_sparse_displacements(int P, const int *cnt, int *dis);

/* Collective over comm (P ranks, its error handler MPI_ERRORS_RETURN): what
 * MPI_Alltoallv of items of `size` bytes gives, with messages only where they go.
 * Rank r gets scnt[r] items from sbuf + sdis[r] * size. to: NULL sends to every r
 * with scnt[r] > 0; else a message (perhaps empty) to every r with to[r] set. from:
 * NULL takes nfrom messages (pmpi_sparse_senders' count for this pattern); else
 * exactly the r with from[r] set send here (the reply to an earlier exchange: from =
 * its to) and nfrom is not read.
 * On return rcnt[r] is the number of items r sent here (even when they were dropped)
 * and rdis[r] (arrays of P) places them in *rbuf (malloc'ed, rank order; free it).
 * Returns 1, or 0 when this rank's memory ran out (every message was still received
 * and dropped, *rbuf NULL: the exchange completes on every rank either way). */
int pmpi_sparse_exchange(MPI_Comm comm, const struct pmpi_sparse_ws *ws, int tag, size_t size,
                         const int *scnt, const int *sdis, const void *sbuf, const char *to,
                         const char *from, int nfrom, int *rcnt, int *rdis, void **rbuf);

#endif
