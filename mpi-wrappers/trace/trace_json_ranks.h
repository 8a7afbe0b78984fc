/* trace_json_ranks.h: PAPI_MPI_TRACE=json written by every rank for itself
 * (trace_json_ranks.c): each rank its own Chrome trace-event file,
 * dir/<base>.ranks/rank_NNNNNN.json (all with the job's earliest record as their base, so
 * their events concatenate as they are), and rank 0 a small index, dir/<base>.index.json
 * (schema/trace_index.schema.json: the files' pattern, ranks, records, drops), read by
 * `papi_report --merge-trace OUT dir/<base>.index.json` to make one file. A job of at
 * most TRACE_ONE_FILE_RANKS ranks also gets that one file, dir/<base>.json, from rank 0
 * reading the ranks' files back (a line at a time): no rank receives another's records
 * over MPI. */
#ifndef PAPI_MPI_TRACE_JSON_RANKS_H
#define PAPI_MPI_TRACE_JSON_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "trace_records.h"

#define TRACE_ONE_FILE_RANKS 64

/* Collective over MPI_COMM_WORLD (pmpi_trace_otf2_job's contract): on rank 0, 0 or -1
 * with why; *dropped the job's records not kept. A rank that could not write its file:
 * none of the files is kept, no index, said. */
int pmpi_trace_json_ranks(const struct trace_rank *mine, const struct trace_meta *meta,
                          const char *dir, const char *base, uint64_t *dropped, char *why,
                          size_t whylen);

#endif
