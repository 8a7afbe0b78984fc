/* callsites.h: the per-(call, caller) statistics merged across ranks at MPI_Finalize,
 * the top ones resolved to function, file and line (callsites.c). */
#ifndef PAPI_MPI_CALLSITES_H
#define PAPI_MPI_CALLSITES_H

#include <stddef.h>
#include <stdio.h>

struct jw;
struct pmpi_site_report;
struct pmpi_wait_result;

/* Collective: every rank calls it; rank 0 gets the report, the others NULL. Each site
 * carries its waits of w (pmpi_waits_compute), listed when w is done on every rank. */
struct pmpi_site_report *pmpi_callsites_merge(double ns_per_tick, const struct pmpi_wait_result *w);
size_t pmpi_callsites_count(const struct pmpi_site_report *r);
void pmpi_callsites_json(const struct pmpi_site_report *r, struct jw *w);
void pmpi_callsites_print(FILE *out, const struct pmpi_site_report *r, int top);
void pmpi_callsites_free(struct pmpi_site_report *r);

#endif
