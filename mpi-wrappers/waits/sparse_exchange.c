/* sparse_exchange.c: MPI_Alltoallv's result without its P x P pattern. The wait-state
 * analysis at MPI_Finalize sends each partner what concerns it; an Alltoall of counts
 * and two Alltoallv's cost every rank P steps even when it has no partner, and with
 * more ranks than cores each step waits for its partner to be scheduled: 256 ranks
 * on 2 cores spent 100 s there for a program with one barrier. Here a rank sends one
 * message per partner (Isend), learns how many arrive with one MPI_Reduce_scatter_block
 * of P flags (log P steps), and takes them as they come (MPI_Mprobe: any order, sizes
 * unknown beforehand); a reply needs no count at all: every partner answers. No rank
 * stops the exchange for want of memory: its workspace was agreed on beforehand
 * (finalize_agreement.c), and what it cannot keep it receives and drops. */
#include <stdlib.h>
#include <string.h>

#include "sparse_exchange.h"

struct msg {
    int src, n;
    void *data; /* n items; NULL when n == 0 or memory ran out */
};

static int by_src(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    return (x->src > y->src) - (x->src < y->src);
}

/* Takes one message of `size`-byte items from src (MPI_ANY_SOURCE: any) into m. */
static int take(MPI_Comm comm, int src, int tag, size_t size, struct msg *m)
{
    MPI_Message h;
    MPI_Status st;
    int bytes = 0;
    PMPI_Mprobe(src, tag, comm, &h, &st);
    PMPI_Get_count(&st, MPI_BYTE, &bytes);
    m->src = st.MPI_SOURCE;
    m->n = (int)((size_t)bytes / size);
    m->data = bytes > 0 ? malloc((size_t)bytes) : NULL;
    /* Without memory the message is still received: a zero-byte receive of it ends in
     * MPI_ERR_TRUNCATE (returned: the error handler) and drops it. */
    PMPI_Mrecv(m->data, m->data ? bytes : 0, MPI_BYTE, &h, MPI_STATUS_IGNORE);
    return bytes == 0 || m->data != NULL;
}

int pmpi_sparse_ws_alloc(struct pmpi_sparse_ws *ws, int P)
{
    ws->flag = malloc((size_t)P * sizeof *ws->flag);
    ws->req = malloc((size_t)P * sizeof *ws->req);
    return ws->flag && ws->req;
}

void pmpi_sparse_ws_free(struct pmpi_sparse_ws *ws)
{
    free(ws->flag);
    free(ws->req);
    ws->flag = NULL;
    ws->req = NULL;
}

int pmpi_sparse_exchange(MPI_Comm comm, const struct pmpi_sparse_ws *ws, int tag, size_t size,
                         const int *scnt, const int *sdis, const void *sbuf, const char *to,
                         const char *from, int *rcnt, int *rdis, void **rbuf)
{
    int P = 0, nto = 0, nfrom = 0, ok = 1;
    int *flag = ws->flag;
    MPI_Request *req = ws->req;
    PMPI_Comm_size(comm, &P);
    memset(rcnt, 0, (size_t)P * sizeof *rcnt);
    memset(rdis, 0, (size_t)P * sizeof *rdis);
    *rbuf = NULL;
    for (int r = 0; r < P; r++) {
        flag[r] = to ? to[r] != 0 : scnt[r] > 0;
        if (flag[r])
            PMPI_Isend((const char *)sbuf + (size_t)sdis[r] * size, (int)((size_t)scnt[r] * size),
                       MPI_BYTE, r, tag, comm, &req[nto++]);
    }
    if (from) {
        for (int r = 0; r < P; r++)
            nfrom += from[r] != 0;
    } else {
        /* how many send here: the sum over ranks of their flag for this rank */
        PMPI_Reduce_scatter_block(flag, &nfrom, 1, MPI_INT, MPI_SUM, comm);
    }
    struct msg *m = calloc((size_t)(nfrom ? nfrom : 1), sizeof *m);
    long long total = 0;
    for (int k = 0, r = 0; k < nfrom; k++) {
        if (from) /* the partners in rank order: no probing of any source needed */
            while (!from[r])
                r++;
        struct msg tmp, *into = m ? &m[k] : &tmp;
        ok &= take(comm, from ? r++ : MPI_ANY_SOURCE, tag, size, into);
        rcnt[into->src] = into->n; /* known even when its items were dropped */
        total += into->n;
        if (!m)
            free(tmp.data);
    }
    for (int k = 0; k < nto; k++) /* one by one: gcc takes MPI_STATUSES_IGNORE for an empty array */
        PMPI_Wait(&req[k], MPI_STATUS_IGNORE);
    ok &= m != NULL;
    char *out = ok ? malloc((size_t)(total ? total : 1) * size) : NULL;
    ok &= out != NULL;
    if (ok) {
        qsort(m, (size_t)nfrom, sizeof *m, by_src);
        long long at = 0;
        for (int k = 0; k < nfrom; k++) {
            if (m[k].n)
                memcpy(out + (size_t)at * size, m[k].data, (size_t)m[k].n * size);
            at += m[k].n;
        }
        for (int r = 0; r < P; r++)
            rdis[r] = r ? rdis[r - 1] + rcnt[r - 1] : 0;
    }
    for (int k = 0; m && k < nfrom; k++)
        free(m[k].data);
    free(m);
    *rbuf = out;
    return ok != 0;
}
