/* hl_openmp.h: the region file's "openmp" section (hl_openmp.c): per thread and named
 * region, the OpenMP parallel regions forked in it, as the project's OMPT tool measured
 * them (src-c/common/ompt_query.h), with the named region's OpenMP efficiencies. Written
 * only where the tool ran in the process. */
#ifndef HL_OPENMP_H
#define HL_OPENMP_H

#include "hl_state.h"
#include "json_writer.h"
#include "ompt_query.h"

struct hl_openmp {
    int have; /* the tool answered */
    struct papi_ompt_table table;
    papi_ompt_query_free_fn release;
};

/* The tool's table now (at the report, under g_hlr_lock); have 0 without the tool. */
PAPI_INTERNAL void hl_openmp_load(struct hl_openmp *o);
PAPI_INTERNAL void hl_openmp_free(struct hl_openmp *o);
/* Thread t's named regions' tables, keyed by region name (t locked by the caller). */
PAPI_INTERNAL void hl_openmp_write_thread(struct jw *w, const struct hl_openmp *o,
                                          const struct hlr_thread *t);

#endif
