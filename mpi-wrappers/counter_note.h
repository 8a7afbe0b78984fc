/* counter_note.h: the events that did not open and why, said in the report's counter
 * note with a reason they share said once (counter_note.c). */
#ifndef PAPI_MPI_COUNTER_NOTE_H
#define PAPI_MPI_COUNTER_NOTE_H

#include "state.h"

struct pmpi_failed {
    int n;
    char name[PMPI_MAX_EVENTS][PMPI_NAME_LEN];
    char *why[PMPI_MAX_EVENTS]; /* "error: reason" (heap), NULL when no memory */
};

/* One more event that did not open: its name, PAPI_strerror and the reason (or NULL). */
void pmpi_failed_add(struct pmpi_failed *f, const char *name, const char *error,
                     const char *reason);
/* "<before>NAME (why), NAME (why)<after>" (heap), the longest closing sentences that two
 * or more reasons share said once at the end ("; note 1: ...") and referred to; NULL when
 * out of memory. */
char *pmpi_failed_note(const struct pmpi_failed *f, const char *before, const char *after);
void pmpi_failed_free(struct pmpi_failed *f);

#endif
