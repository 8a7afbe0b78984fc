/* hl_switches.h: the region API's environment switches (hl_switches.c). Not installed. */
#ifndef HL_SWITCHES_H
#define HL_SWITCHES_H

#include "papi_globals.h"

struct hlr_thread;

/* A new event set of the region API for component cidx, multiplexed when PAPI_MULTIPLEX is
 * set and cidx is the CPU component (0). */
PAPI_INTERNAL int hl_region_eventset(int *es, int cidx);
/* A PAPI_EVENTS entry's trailing "=instant" or "=delta" (PAPI 7) cut off in place: 1 for
 * instant, 0 for delta, -1 for none (the event's own kind then: hl_regions_config.c).
 * Other '=' (raw fields "event=0x76,umask=0x1") stay. */
PAPI_INTERNAL int hl_event_suffix(char *entry);
/* PAPI_HL_THREAD_MULTIPLE=0 (PAPI 7.0): the region API keeps one record for the whole
 * process, not one per thread. slot is the calling thread's own; the process-wide one
 * is returned instead under that switch. */
PAPI_INTERNAL struct hlr_thread **hl_record_slot(struct hlr_thread **slot);
PAPI_INTERNAL int hl_thread_multiple(void);

#endif
