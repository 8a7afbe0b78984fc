/* hl_openmp.h: the region file's "openmp" section (hl_openmp.c): per thread and named
 * region, the OpenMP parallel regions forked in it, as the project's OMPT tool measured
 * them (src-c/common/ompt_query.h), with the named region's OpenMP efficiencies. Written
 * only where the tool ran in the process. */
#ifndef HL_OPENMP_H
#define HL_OPENMP_H

#include "hl_state.h"
#include "json_writer.h"
#include "ompt_query.h"

/* Thread t's named regions' tables, keyed by region name (t locked by the caller), from
 * the tool's table (ompt_query_load, at the report, under g_hlr_lock). */
PAPI_INTERNAL void hl_openmp_write_thread(struct jw *w, const struct ompt_query *o,
                                          const struct hlr_thread *t);

#endif
