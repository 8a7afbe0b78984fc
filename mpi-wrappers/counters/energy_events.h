/* energy_events.h: which of the rank's events count energy, their joules, and what the
 * figure is shared by: a CPU socket's powercap sums (the ranks on the socket, as the
 * rank totals) or a node device's (a GPU of nvml, rocm_smi, amdgpu; a powercap zone: the
 * ranks on the node). Used for the energy of each MPI_Pcontrol region (energy_events.c). */
#ifndef PMPI_ENERGY_EVENTS_H
#define PMPI_ENERGY_EVENTS_H

struct jw;

enum pmpi_energy_scope { PMPI_ENERGY_NONE, PMPI_ENERGY_SOCKET, PMPI_ENERGY_NODE };

/* Joules per count of an event of unit ("J", "mJ", "uJ", "nJ"); 0: not an energy unit. */
double pmpi_energy_unit_joules(const char *unit);
/* At MPI_Init, after the counters are set up: each event's scope and joules per count. */
void pmpi_energy_events_init(void);
/* Event e's scope (NONE: not energy), and its joules per count. */
enum pmpi_energy_scope pmpi_energy_scope(int e);
double pmpi_energy_joules_per_count(int e);
/* 1 when this rank has event e's energy over its regions (its set is open here). */
int pmpi_energy_counted(int e);
/* Region marks (under pmpi_state_lock): adds this rank's socket energy to the counts the
 * calling thread read (the per-thread counts leave socket-wide events out). */
void pmpi_energy_region_read(long long *counts);
/* A region's energy in its row: , "energy": {event: {"joules", "watts", "shared_by",
 * "scope"}} (watts: joules over the region's wall_ns, null when 0); nothing when the rank
 * counts no energy. Not in a signal handler (formats doubles). */
void pmpi_energy_region_json(struct jw *w, const long long *counts, long long wall_ns);

#endif
