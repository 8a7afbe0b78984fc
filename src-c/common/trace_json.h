/* trace_json.h: the Chrome trace-event JSON back end of the trace writer (trace_json.c).
 * Not installed. */
#ifndef TRACE_JSON_H
#define TRACE_JSON_H

#include "trace_records.h"

/* Writes the ranks as dir/<base>.json (trace_write's contract, meta not NULL). */
TW_HIDDEN int trace_json_write(const char *dir, const char *base, const struct trace_meta *meta,
                               const struct trace_rank *ranks, int n, char *why, size_t whylen);
/* The trace files at paths (each one trace_json_write wrote, all with meta->base_ns as
 * their base) as one: dir/<base>.json, their events in the order given, read one line at
 * a time (memory: the longest line), otherData from meta, n ranks and dropped. Published
 * only whole. 0, or -1 with why. */
TW_HIDDEN int trace_json_concat(const char *dir, const char *base, const char *const *paths, int n,
                                const struct trace_meta *meta, uint64_t dropped, char *why,
                                size_t whylen);

#endif
