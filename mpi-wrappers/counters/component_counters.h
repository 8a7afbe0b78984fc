/* component_counters.h: the events of PAPI_MPI_EVENTS of another component than the
 * CPU's (net, stealtime, powercap, procio ...): one event set per component for the rank
 * (component_counters.c), as PAPI 7 makes them; the CPU component's events stay in the
 * per-thread sets (counters.c). */
#ifndef PMPI_COMPONENT_COUNTERS_H
#define PMPI_COMPONENT_COUNTERS_H

/* The component of event name, or a negative PAPI error. */
int pmpi_event_component(const char *name);
/* Whether event e of pmpi_ev()->event_names is counted here (not per thread). Valid after
 * pmpi_component_counters_init. */
int pmpi_component_event(int e);
/* 1 when event e is counted here and its component's set opened. */
int pmpi_component_counting(int e);
/* At MPI_Init, after the events are chosen: the sets made, attached to the process,
 * started. papi_ok: the library initialised. */
void pmpi_component_counters_init(int papi_ok);
/* Adds the sets' counts into sum, in pmpi_ev()->event_names' order (a set that no longer
 * reads: its last reading, said once). */
void pmpi_component_counters_read(long long *sum);
/* Set es (holding event e first) failed a read with PAPI error ret: stopped, and one
 * stderr line with the component's reason. Returns 1 (the caller's "failed" flag). */
int pmpi_read_failed(int es, int e, int ret);
/* Stops the sets, their final counts added into into (once). */
void pmpi_component_counters_stop(long long *into);

#endif
