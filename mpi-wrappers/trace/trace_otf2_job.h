/* trace_otf2_job.h: PAPI_MPI_TRACE=otf2 written by every rank for itself
 * (trace_otf2_job.c): one OTF2 archive (dir/base/traces.otf2) whose event files each
 * rank writes for its own locations (a location per rank and thread) through OTF2's MPI
 * collective callbacks (otf2/OTF2_MPI_Collectives.h); the names defined once from the
 * job's table (trace_names_tree.h), the global definitions written by rank 0 from a
 * gather of each rank's process and threads (pid, host, thread ids, events per thread:
 * never a record). Published (renamed into place) only whole. */
#ifndef PAPI_MPI_TRACE_OTF2_JOB_H
#define PAPI_MPI_TRACE_OTF2_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "trace_records.h"

/* Collective over MPI_COMM_WORLD; mine: this rank's names and records (rank = its world
 * rank, records in time order per thread); failed: this rank has nothing to give (no
 * memory): no archive, said. On rank 0: 0, or -1 with why (one line); *dropped: the
 * records the job's ranks did not keep (their own counts). Other ranks: -1 or 0, to be
 * ignored. */
int pmpi_trace_otf2_job(const struct trace_rank *mine, int failed, const struct trace_meta *meta,
                        const char *dir, const char *base, uint64_t *dropped, char *why,
                        size_t whylen);

#endif
