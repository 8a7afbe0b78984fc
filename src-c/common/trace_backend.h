/* trace_backend.h: what trace_writer.c, trace_json.c and trace_otf2.c share: the two back
 * ends and the order records are written in. Not installed. */
#ifndef TRACE_BACKEND_H
#define TRACE_BACKEND_H

#include "trace_writer.h"

/* One rank's records in time order (ties in the order given): indices into rec. NULL
 * when out of memory. The caller frees it. */
TW_HIDDEN size_t *trace_order(const struct trace_rank *r);
/* Each distinct thread label of a rank, in order of first appearance: the count, and
 * (when labels is not NULL) the labels (the caller frees *labels). -1: out of memory. */
TW_HIDDEN int trace_threads(const struct trace_rank *r, uint32_t **labels);
/* The earliest and latest time of all ranks' records (0, 0 when there is none). */
TW_HIDDEN void trace_span(const struct trace_rank *ranks, int n, uint64_t *first, uint64_t *last);

TW_HIDDEN int trace_json_write(const char *dir, const char *base, const struct trace_meta *meta,
                               const struct trace_rank *ranks, int n, char *why, size_t whylen);
TW_HIDDEN int trace_otf2_write(const char *dir, const char *base, const struct trace_meta *meta,
                               const struct trace_rank *ranks, int n, char *why, size_t whylen);

#endif
