/* component_counters.c: the rank's events of other components than the CPU's, one event
 * set per component (PAPI 7 makes one per component, so PAPI_MPI_EVENTS may mix them:
 * perf::PAGE-FAULTS with net:::lo:rx:bytes). They count the node (a network interface,
 * steal time, energy) or the process (procio), not a thread: one set each for the rank,
 * attached to the process (so the program's own running set stays free), started at
 * MPI_Init and read where the rank's counts are read (checkpoints, samples, finalize),
 * never in an MPI call. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "component_counters.h"
#include "papi.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "socket_share.h"
#include "state.h"

#define MAX_SETS PMPI_MAX_EVENTS

static struct {
    int es, cidx, n;
    int idx[PMPI_MAX_EVENTS]; /* its events, as indices of pmpi_ev()->event_names */
} set[MAX_SETS];
static int nsets, ours[PMPI_MAX_EVENTS];
/* Each set's last good reading: a set whose read fails (a GPU lost, a file gone) is
 * stopped, its reason said once, and counts that reading from then on, so no count and
 * no region's difference goes back. Under pmpi_state_lock, as the reads. */
static long long last[MAX_SETS][PMPI_MAX_EVENTS];
static int failed[MAX_SETS];

int pmpi_event_component(const char *name)
{
    int code, ret = PAPI_event_name_to_code(name, &code);
    return ret == PAPI_OK ? PAPI_get_event_component(code) : ret;
}

int pmpi_component_event(int e)
{
    return e >= 0 && e < PMPI_MAX_EVENTS && ours[e];
}

int pmpi_component_counting(int e)
{
    for (int k = 0; pmpi_component_event(e) && k < nsets; k++)
        for (int i = 0; set[k].es >= 0 && i < set[k].n; i++)
            if (set[k].idx[i] == e)
                return 1;
    return 0;
}

static void drop(int k)
{
    PAPI_cleanup_eventset(set[k].es);
    PAPI_destroy_eventset(&set[k].es);
    set[k].es = -1;
}

void pmpi_component_counters_init(int papi_ok)
{
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        const char *name = pmpi_ev()->event_names[e];
        int c = pmpi_socket_wide_event(name) ? 0 : pmpi_event_component(name), k = 0;
        if (c <= 0)
            continue; /* the CPU component's: per thread (or the socket's reader) */
        ours[e] = 1;
        while (k < nsets && set[k].cidx != c)
            k++;
        if (k == nsets) {
            set[k].cidx = c;
            set[k].n = 0;
            set[k].es = -1;
            nsets++;
        }
        set[k].idx[set[k].n++] = e;
    }
    for (int k = 0; papi_ok && k < nsets; k++) {
        int es = PAPI_NULL, ret = PAPI_create_eventset(&es);
        if (ret != PAPI_OK)
            continue;
        set[k].es = es;
        ret = PAPI_assign_eventset_component(es, set[k].cidx);
        if (ret == PAPI_OK)
            ret = PAPI_attach(es, (unsigned long)getpid());
        for (int i = 0; ret == PAPI_OK && i < set[k].n; i++)
            ret = PAPI_add_named_event(es, pmpi_ev()->event_counted[set[k].idx[i]]);
        if (ret == PAPI_OK)
            ret = PAPI_start(es);
        if (ret != PAPI_OK) {
            if (pmpi_id()->rank == 0)
                fprintf(stderr, "papi_mpi: the events of component %d are not counted: %s\n",
                        set[k].cidx, PAPI_strerror_detail());
            drop(k);
        }
    }
}

void pmpi_component_counters_read(long long *sum)
{
    long long v[PMPI_MAX_EVENTS];
    for (int k = 0; k < nsets; k++) {
        if (set[k].es < 0)
            continue;
        int ret = failed[k] ? PAPI_OK : PAPI_read(set[k].es, v);
        if (ret != PAPI_OK)
            failed[k] = pmpi_read_failed(set[k].es, set[k].idx[0], ret);
        else if (!failed[k])
            memcpy(last[k], v, sizeof v);
        for (int i = 0; i < set[k].n; i++)
            sum[set[k].idx[i]] += last[k][i];
    }
}

int pmpi_read_failed(int es, int e, int ret)
{
    long long v[PMPI_MAX_EVENTS];
    /* A component gives a failed read's reason at the next call outside the read path:
     * the stop (a lost GPU's set is stopped by it; the second stop agrees). */
    int stopped = PAPI_stop(es, v);
    const char *why = stopped != PAPI_OK ? PAPI_strerror_detail() : NULL;
    if (stopped != PAPI_OK)
        PAPI_stop(es, v);
    fprintf(stderr,
            "papi_mpi: rank %d: the set of %s no longer reads (%s%s%s): its counts stay at "
            "their last reading\n",
            pmpi_id()->rank, pmpi_ev()->event_names[e], PAPI_strerror(ret), why && *why ? ": " : "",
            why && *why ? why : "");
    return 1;
}

void pmpi_component_counters_stop(long long *into)
{
    long long v[PMPI_MAX_EVENTS];
    for (int k = 0; k < nsets; k++) {
        if (set[k].es < 0)
            continue;
        if (!failed[k] && PAPI_stop(set[k].es, v) == PAPI_OK)
            memcpy(last[k], v, sizeof v);
        else if (!failed[k])
            failed[k] = pmpi_read_failed(set[k].es, set[k].idx[0], PAPI_ESYS);
        for (int i = 0; i < set[k].n; i++)
            into[set[k].idx[i]] += last[k][i];
        drop(k);
    }
}
