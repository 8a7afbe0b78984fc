/* socket_counters.c: one reader per socket for the socket-wide events (socket_share.h):
 * the lowest rank of each package opens them in a set of its own, not attached to a
 * thread (a memory controller counts for its socket, not for a thread); the other ranks
 * of the socket count none of them, and at MPI_Finalize take the reader's metric values
 * (socket_layout.c), marked "shared by N ranks" in their rows. A socket's energy
 * (powercap sums: a file read, no scarce counter) is read by every rank of the socket,
 * so each rank has its socket's energy over its own regions; the rank totals still
 * take the reader's alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "component_counters.h"
#include "papi.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "socket_counters.h"
#include "socket_layout.h"
#include "state.h"

static int socket_es = -1;
static int socket_ev[PMPI_MAX_EVENTS], nsocket_ev;
static long long last[PMPI_MAX_EVENTS]; /* the last good reading (component_counters.c) */
static int failed;
static int not_counted; /* this rank reads for its socket, and its set did not open */

static int any_socket_metric(void)
{
    for (int k = 0; k < pmpi_ev()->nmetrics; k++)
        if (pmpi_ev()->metric_socket[k])
            return 1;
    return 0;
}

static void open_socket_set(void)
{
    int es = PAPI_NULL, ok = PAPI_create_eventset(&es) == PAPI_OK;
    const struct pmpi_socket_share *sh = pmpi_socket(); /* NULL: not laid out */
    for (int i = 0; ok && i < nsocket_ev; i++) {
        char name[PAPI_2MAX_STR_LEN];
        pmpi_socket_event_name(pmpi_ev()->event_names[socket_ev[i]], sh ? sh->package : -1, name,
                               sizeof name);
        ok = PAPI_add_named_event(es, name) == PAPI_OK;
    }
    if (ok && PAPI_start(es) == PAPI_OK) {
        socket_es = es;
        return;
    }
    not_counted = !sh || sh->is_reader;
    if (not_counted) /* once per socket: the other ranks' regions lack it alone */
        fprintf(stderr,
                "papi_mpi: rank %d, the reader of package %d, cannot count its socket's events "
                "(%s): their metrics have no value on this socket\n",
                pmpi_id()->rank, sh ? sh->package : -1, PAPI_strerror_detail());
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
}

/* Every socket-wide event is a powercap energy sum: any rank may read them. */
static int energy_only(void)
{
    for (int i = 0; i < nsocket_ev; i++)
        if (strncmp(pmpi_ev()->event_names[socket_ev[i]], PMPI_ENERGY_PREFIX,
                    strlen(PMPI_ENERGY_PREFIX)) != 0)
            return 0;
    return 1;
}

void pmpi_socket_counters_init(int papi_ok)
{
    const char *env = env_get("PAPI_MPI_METRICS");
    /* Collective on every rank or none: decided by the environment, the same on all. */
    if (!env || !*env)
        return;
    pmpi_socket_layout(pmpi_id()->rank);
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (pmpi_socket_wide_event(pmpi_ev()->event_names[e]))
            socket_ev[nsocket_ev++] = e;
    const struct pmpi_socket_share *s = pmpi_socket();
    if (papi_ok && nsocket_ev && any_socket_metric() && (!s || s->is_reader || energy_only()))
        open_socket_set();
}

int pmpi_socket_counters_not_counted(void)
{
    return not_counted;
}

int pmpi_socket_counters_open(int e)
{
    for (int i = 0; socket_es >= 0 && i < nsocket_ev; i++)
        if (socket_ev[i] == e)
            return 1;
    return 0;
}

void pmpi_socket_counters_read(long long *sum)
{
    long long v[PMPI_MAX_EVENTS] = {0};
    if (socket_es < 0)
        return;
    int ret = failed ? PAPI_OK : PAPI_read(socket_es, v);
    if (ret != PAPI_OK)
        failed = pmpi_read_failed(socket_es, socket_ev[0], ret);
    else if (!failed)
        memcpy(last, v, sizeof v);
    for (int i = 0; i < nsocket_ev; i++)
        sum[socket_ev[i]] += last[i];
}

void pmpi_socket_counters_stop(long long *into)
{
    long long v[PMPI_MAX_EVENTS] = {0};
    if (socket_es < 0)
        return;
    if (!failed && PAPI_stop(socket_es, v) == PAPI_OK)
        memcpy(last, v, sizeof v);
    else if (!failed)
        failed = pmpi_read_failed(socket_es, socket_ev[0], PAPI_ESYS);
    for (int i = 0; i < nsocket_ev; i++)
        into[socket_ev[i]] += last[i];
    PAPI_cleanup_eventset(socket_es);
    PAPI_destroy_eventset(&socket_es);
    socket_es = -1;
}
