/* thread_slots.h: one recording slot per thread (thread_slots.c), below the hot path.
 * record.h's inline pmpi_leave finds the calling thread's slot in pmpi_tls and, at a
 * thread's first intercepted call only, claims one here: the header's one call, to this
 * lower layer, kept out of line so the hot path stays inline in the generated wrappers
 * (no call per MPI call) and the header calls nothing of record.c. */
#ifndef PAPI_MPI_THREAD_SLOTS_H
#define PAPI_MPI_THREAD_SLOTS_H

#include "state.h"

/* First intercepted call of a thread: claim a private slot, or the shared overflow slot
 * when all are taken; sets pmpi_tls. */
struct pmpi_thread *pmpi_thread_slot_slow(void);

/* Recording starts: slots reset, the shared slot's table made, the calling thread's
 * slot claimed; concurrent (MPI_THREAD_MULTIPLE) keeps the union of the threads' time in
 * MPI (state.h). Each thread that claims a slot calls thread_start(slot) and, when it
 * ends, thread_exit(slot): callbacks of the layer above (the counters), so this file
 * never calls up. */
void pmpi_record_start(int callsites, int concurrent, void (*thread_start)(int slot),
                       void (*thread_exit)(int slot));
/* Slots in use, the shared overflow slot included. */
int pmpi_record_nslots(void);

#endif
