/* run_events.h: the rank's events and metrics, chosen at MPI_Init by the counters
 * (counters.c: names, what is counted, the metrics; counter_note.c: why events were
 * left out), read by the rows, the report, the regions and the trace through pmpi_ev(),
 * const. */
#ifndef PAPI_MPI_RUN_EVENTS_H
#define PAPI_MPI_RUN_EVENTS_H

#include "state.h"

struct pmpi_events {
    int nevents;
    char event_names[PMPI_MAX_EVENTS][PMPI_NAME_LEN];
    /* what is added for each (counters.c): the name, or a kernel-only software event
     * with the modifiers that count it in kernel mode too (software_event.h) */
    char event_counted[PMPI_MAX_EVENTS][PMPI_NAME_LEN];
    int nmetrics; /* PAPI_MPI_METRICS computed from those events (counters.c) */
    char metric_names[PMPI_MAX_METRICS][PMPI_NAME_LEN],
        metric_units[PMPI_MAX_METRICS][PMPI_NAME_LEN];
    int metric_socket[PMPI_MAX_METRICS]; /* 1: counts a socket's events (socket_share.h) */
    int metric_device[PMPI_MAX_METRICS]; /* 1: counts a node device's (a GPU's) events */
    char *counter_note;                  /* why events were left out, whole (heap), or NULL */
    char *counter_banner; /* the same in one short line for the banner (heap), or NULL */
};

/* The rank's events and metrics, read-only. */
const struct pmpi_events *pmpi_ev(void);
/* The counters only (counters.c, counter_note.c): the events to fill at MPI_Init and
 * the note to free at their shutdown. */
struct pmpi_events *pmpi_events_edit(void);

#endif
