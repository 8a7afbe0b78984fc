/* counter_note.h: the events that did not open and why, said in the report's counter
 * note with a reason they share said once (counter_note.c). */
#ifndef PAPI_MPI_COUNTER_NOTE_H
#define PAPI_MPI_COUNTER_NOTE_H

#include "state.h"

struct pmpi_failed {
    int n;
    char name[PMPI_MAX_EVENTS][PMPI_NAME_LEN];
    char *why[PMPI_MAX_EVENTS];    /* "error: reason" (heap), NULL when no memory */
    char err[PMPI_MAX_EVENTS][48]; /* PAPI_strerror alone: the short form */
};

/* One more event that did not open: its name, PAPI_strerror and the reason (or NULL). */
void pmpi_failed_add(struct pmpi_failed *f, const char *name, const char *error,
                     const char *reason);
/* "<before>NAME (why), NAME (why)<after>" (heap), the longest closing sentences that two
 * or more reasons share said once at the end ("; note 1: ...") and referred to; NULL when
 * out of memory. */
char *pmpi_failed_note(const struct pmpi_failed *f, const char *before, const char *after);
/* The banner's one line (heap, NULL when out of memory): "not counted: NAME, NAME
 * (<cause>), NAME (<error>)<after>": the events sharing a reason grouped under its first
 * sentence, the others with their PAPI_strerror alone; the whole reasons stay in the
 * note. */
char *pmpi_failed_banner(const struct pmpi_failed *f, const char *after);
void pmpi_failed_free(struct pmpi_failed *f);

#endif
