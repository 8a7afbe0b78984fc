/* socket_layout.c: the node's packages gathered at MPI_Init (a shared-memory
 * communicator, each rank's package from its CPU affinity), this rank's share
 * (socket_share.c), and at MPI_Finalize the socket reader's metric values handed to the
 * ranks on its socket. Both collective, on every rank or none: decided by the
 * environment alone (PAPI_MPI_METRICS naming a socket-wide metric). The node's devices
 * (GPUs, powercap zones) that every rank reads are taken once per node into the job's
 * totals over the same node communicator (pmpi_device_layout). */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "component_counters.h"
#include "finalize_agreement.h"
#include "idle_wait.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "socket_layout.h"

static struct pmpi_socket_share share = {0, 1, 1, -1};
/* Kept until pmpi_socket_layout_free: the regions' energy is attributed over them too. */
static MPI_Comm socket_comm = MPI_COMM_NULL, node_comm = MPI_COMM_NULL;
static int laid_out, tried, node_ranks;
/* Per node device event: the node's ranks counting it; 1 when this rank adds it to the
 * job's totals. Set by pmpi_device_layout (device_done). */
static int device_ranks[PMPI_MAX_EVENTS], device_first[PMPI_MAX_EVENTS], device_done;

const struct pmpi_socket_share *pmpi_socket(void)
{
    return laid_out ? &share : NULL;
}

int pmpi_socket_layout(int world_rank)
{
    MPI_Comm node;
    int n = 0, me = 0, own = pmpi_own_package();
    tried = 1;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL,
                             &node) != MPI_SUCCESS)
        return -1;
    PMPI_Comm_size(node, &n);
    PMPI_Comm_rank(node, &me);
    int *pkg = malloc((size_t)n * sizeof *pkg);
    int ok = pkg && PMPI_Allgather(&own, 1, MPI_INT, pkg, 1, MPI_INT, node) == MPI_SUCCESS;
    /* Every rank reaches the split, also one whose gather failed (color: its own group). */
    if (ok)
        pmpi_socket_share(pkg, n, me, &share);
    int color = ok ? share.package + 1 : n + 1 + me;
    ok = PMPI_Comm_split(node, color, me, &socket_comm) == MPI_SUCCESS && ok;
    free(pkg);
    node_comm = node;
    node_ranks = n;
    laid_out = ok;
    return ok ? 0 : -1;
}

void pmpi_socket_attribute(double *value, int *ok, const int *socket_wide, int n)
{
    double v[2 * PMPI_MAX_METRICS];
    int m = 0;
    if (socket_comm == MPI_COMM_NULL)
        return;
    for (int k = 0; k < n && k < PMPI_MAX_METRICS; k++)
        if (socket_wide[k]) {
            v[m++] = value[k];
            v[m++] = ok[k];
        }
    if (m == 0)
        return;      /* the same on every rank: the metrics are the job's */
    MPI_Request req; /* the reader: index 0 (key = node rank); waiting without a core */
    pmpi_idle_complete(PMPI_Ibcast(v, m, MPI_DOUBLE, 0, socket_comm, &req), &req);
    m = 0;
    for (int k = 0; k < n && k < PMPI_MAX_METRICS; k++)
        if (socket_wide[k]) {
            value[k] = v[m++];
            ok[k] = v[m++] != 0;
        }
}

int pmpi_socket_layout_tried(void)
{
    return tried;
}

int pmpi_node_ranks(void)
{
    return laid_out ? node_ranks : 0;
}

int pmpi_layout_group_sum(int node, const int *in, int *out, int n)
{
    MPI_Comm c = node ? node_comm : socket_comm;
    MPI_Request req;
    if (c == MPI_COMM_NULL ||
        pmpi_idle_complete(PMPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, c, &req), &req) !=
            MPI_SUCCESS) {
        for (int i = 0; i < n; i++)
            out[i] = in[i];
        return -1;
    }
    return 0;
}

static int any_device_event(void)
{
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (pmpi_node_device_event(pmpi_ev()->event_names[e]))
            return 1;
    return 0;
}

void pmpi_device_layout(int counting)
{
    long long pairs[4 * PMPI_MAX_EVENTS], out[4 * PMPI_MAX_EVENTS];
    int have[PMPI_MAX_EVENTS], n = pmpi_ev()->nevents, me = 0;
    if (n == 0 || !any_device_event()) /* the same on every rank: the events are the job's */
        return;
    if (!tried)
        pmpi_socket_layout(pmpi_id()->rank);
    if (node_comm != MPI_COMM_NULL)
        PMPI_Comm_rank(node_comm, &me);
    /* per event, in one reduction: the node's ranks counting it, the lowest of them */
    for (int e = 0; e < n; e++) {
        have[e] = counting && pmpi_node_device_event(pmpi_ev()->event_names[e]) &&
                  pmpi_component_counting(e);
        long long mine[4] = {PMPI_AGREE_SUM, have[e], PMPI_AGREE_MIN, have[e] ? me : LLONG_MAX};
        memcpy(&pairs[4 * e], mine, sizeof mine);
    }
    int ok =
        node_comm != MPI_COMM_NULL && pmpi_agree_pairs(node_comm, pairs, out, 2 * n) == MPI_SUCCESS;
    for (int e = 0; e < n; e++) { /* without the node: each rank for itself */
        device_ranks[e] = ok ? (int)out[4 * e + 1] : have[e];
        device_first[e] = have[e] && (!ok || out[4 * e + 3] == me);
    }
    device_done = 1;
}

int pmpi_device_in_job(int e)
{
    if (!device_done || e < 0 || e >= pmpi_ev()->nevents ||
        !pmpi_node_device_event(pmpi_ev()->event_names[e]))
        return 1;
    return device_first[e];
}

int pmpi_device_shared_by(int e)
{
    if (!device_done || e < 0 || e >= pmpi_ev()->nevents)
        return 0;
    return device_ranks[e];
}

void pmpi_socket_layout_free(void)
{
    if (socket_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&socket_comm);
    if (node_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&node_comm);
}

int pmpi_socket_counted_here(const char *event, int rank_row)
{
    if (!pmpi_socket_wide_event(event))
        return 1;
    return rank_row && (!laid_out || share.is_reader);
}
