/* cause_report.h: the report's root causes and critical path (cause_report.c). */
#ifndef PAPI_MPI_CAUSE_REPORT_H
#define PAPI_MPI_CAUSE_REPORT_H

#include <stdio.h>

struct jw;
struct pmpi_cause_result;

/* Rank 0: the "root_causes" and "critical_path" members (c NULL: "root_causes" alone,
 * not computed, why: off). */
void pmpi_cause_report_json(struct jw *w, const struct pmpi_cause_result *c, const char *off);
/* Rank 0: the banner's lines (the totals, the largest causes, the path's longest parts). */
void pmpi_cause_report_print(FILE *out, const struct pmpi_cause_result *c);

#endif
