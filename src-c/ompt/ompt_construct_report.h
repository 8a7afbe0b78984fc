/* ompt_construct_report.h: the constructs' member of the tool's file
 * (ompt_construct_report.c, schema/ompt.schema.json's constructs): the threads' pairs
 * summed per construct and thread number at finalize, each construct named as regions
 * are, with the parallel region it lies in. */
#ifndef PAPI_OMPT_CONSTRUCT_REPORT_H
#define PAPI_OMPT_CONSTRUCT_REPORT_H

#include "ompt_merge.h"
#include "ompt_names.h"
#include "symbolizer.h"

struct jw;
/* "constructs" (an array, longest time and wait first) into the object w writes; names
 * are the merged regions' (m's order) for the region each construct lies in. 0, or -1
 * when out of memory (the member is then null). */
OMPT_HIDDEN int ompt_constructs_put(struct jw *w, struct symbolizer *sym,
                                    const struct ompt_merged *m, const struct ompt_name *names);
/* Pairs that found no room in a thread's table (not measured). */
OMPT_HIDDEN uint64_t ompt_constructs_pair_drops(void);

#endif
