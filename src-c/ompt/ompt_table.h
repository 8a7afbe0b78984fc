/* ompt_table.h: the tool's parallel regions by context (the named and MPI_Pcontrol
 * regions they were forked in) for the region API's report and the MPI wrapper
 * (src-c/common/ompt_query.h; ompt_table.c): merged, named and with their efficiencies. */
#ifndef PAPI_OMPT_TABLE_H
#define PAPI_OMPT_TABLE_H

#include "ompt_query.h"
#include "ompt_regions.h"

/* 0, or -1 when out of memory (out then empty). Between parallel regions. */
OMPT_HIDDEN int ompt_table_build(struct papi_ompt_table *out);
OMPT_HIDDEN void ompt_table_free(struct papi_ompt_table *t);

#endif
