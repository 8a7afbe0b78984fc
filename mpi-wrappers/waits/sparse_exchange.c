/* sparse_exchange.c: MPI_Alltoallv's result without its P x P pattern. The wait-state
 * analysis at MPI_Finalize sends each partner what concerns it; an Alltoall of counts
 * and two Alltoallv's cost every rank P steps even when it has no partner, and with
 * more ranks than cores each step waits for its partner to be scheduled: 256 ranks
 * on 2 cores spent 100 s there for a program with one barrier. Here a rank sends one
 * message per partner (Isend), learns how many arrive with one MPI_Reduce_scatter_block
 * of P flags (log P steps; one for the exchanges of a step together: pmpi_sparse_senders),
 * and takes them as they come (MPI_Mprobe: any order, sizes
 * unknown beforehand); a reply needs no count at all: every partner answers. No rank
 * stops the exchange for want of memory: its workspace was agreed on beforehand
 * (finalize_agreement.c), and what it cannot keep it receives and drops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse_exchange.h"
#include "idle_wait.h"
#include "pmpi_identity.h"

struct msg {
    int src, n;
    void *data; /* n items; NULL when n == 0 or memory ran out */
};

static int by_src(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    return (x->src > y->src) - (x->src < y->src);
}

/* A probe that failed, said once per rank: the wait states are then not reported. */
static void say_probe_failed(int rc)
{
    static int said;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (said++)
        return;
    if (PMPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", rc);
    fprintf(stderr,
            "papi_mpi: rank %d: MPI_Improbe failed in the wait states' exchange (%s): no wait "
            "states reported; counters and calls are still reported\n",
            pmpi_id()->rank, text);
}

/* Takes one message of `size`-byte items from src (MPI_ANY_SOURCE: any) into m (src -1
 * and nothing taken when the probe failed: its status and handle are never read). */
static int take(MPI_Comm comm, int src, int tag, size_t size, struct msg *m)
{
    MPI_Message h;
    MPI_Status st;
    int bytes = 0, rc = pmpi_idle_mprobe(src, tag, comm, &h, &st);
    *m = (struct msg){-1, 0, NULL};
    if (rc != MPI_SUCCESS) {
        say_probe_failed(rc);
        return 0;
    }
    if (PMPI_Get_count(&st, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0)
        bytes = 0; /* MPI_UNDEFINED cannot be for bytes: taken as empty, then refused */
    m->src = st.MPI_SOURCE;
    m->n = (int)((size_t)bytes / size);
    m->data = bytes > 0 ? malloc((size_t)bytes) : NULL;
    /* Without memory the message is still received: a zero-byte receive of it ends in
     * MPI_ERR_TRUNCATE (returned: the error handler) and drops it. */
    rc = PMPI_Mrecv(m->data, m->data ? bytes : 0, MPI_BYTE, &h, MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS && (bytes == 0 || m->data != NULL);
}

int pmpi_sparse_ws_alloc(struct pmpi_sparse_ws *ws, int P, int n)
{
    ws->flag = malloc((size_t)P * (size_t)n * sizeof *ws->flag);
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

void pmpi_sparse_displacements(int P, const int *cnt, int *dis)
{
    for (int r = 0; r < P; r++)
        dis[r] = r ? dis[r - 1] + cnt[r - 1] : 0;
}

void pmpi_sparse_senders(MPI_Comm comm, const struct pmpi_sparse_ws *ws, int n,
                         const int *const *cnt, int *nfrom)
{
    int P = 0;
    PMPI_Comm_size(comm, &P);
    for (int r = 0; r < P; r++) /* rank r's block: this rank's flags for r, one per exchange */
        for (int k = 0; k < n; k++)
            ws->flag[(size_t)r * (size_t)n + (size_t)k] = cnt[k][r] > 0;
    MPI_Request req;
    if (pmpi_idle_complete(
            PMPI_Ireduce_scatter_block(ws->flag, nfrom, n, MPI_INT, MPI_SUM, comm, &req), &req) !=
        MPI_SUCCESS)
        for (int k = 0; k < n; k++)
            nfrom[k] = -1;
}

int pmpi_sparse_exchange(MPI_Comm comm, const struct pmpi_sparse_ws *ws, int tag, size_t size,
                         const int *scnt, const int *sdis, const void *sbuf, const char *to,
                         const char *from, int nfrom, int *rcnt, int *rdis, void **rbuf)
{
    int P = 0, nto = 0, ok = 1;
    MPI_Request *req = ws->req;
    PMPI_Comm_size(comm, &P);
    memset(rcnt, 0, (size_t)P * sizeof *rcnt);
    memset(rdis, 0, (size_t)P * sizeof *rdis);
    *rbuf = NULL;
    for (int r = 0; r < P; r++)
        if (to ? to[r] != 0 : scnt[r] > 0)
            PMPI_Isend((const char *)sbuf + (size_t)sdis[r] * size, (int)((size_t)scnt[r] * size),
                       MPI_BYTE, r, tag, comm, &req[nto++]);
    if (from)
        for (int r = nfrom = 0; r < P; r++)
            nfrom += from[r] != 0;
    if (nfrom < 0) /* the senders' count failed: nothing can be told apart */
        nfrom = 0, ok = 0;
    struct msg *m = calloc((size_t)(nfrom ? nfrom : 1), sizeof *m);
    long long total = 0;
    for (int k = 0, r = 0; k < nfrom; k++) {
        if (from) /* the partners in rank order: no probing of any source needed */
            while (!from[r])
                r++;
        struct msg tmp, *into = m ? &m[k] : &tmp;
        ok &= take(comm, from ? r++ : MPI_ANY_SOURCE, tag, size, into);
        if (into->src >= 0 && into->src < P) /* none from a failed probe */
            rcnt[into->src] = into->n;       /* known even when its items were dropped */
        total += into->n;
        if (!m)
            free(tmp.data);
    }
    for (int k = 0; k < nto; k++) /* one by one: gcc takes MPI_STATUSES_IGNORE for an empty array */
        pmpi_idle_wait(&req[k], MPI_STATUS_IGNORE);
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
