/* trace_json.h: the Chrome trace-event JSON back end of the trace writer (trace_json.c).
 * Not installed. */
#ifndef TRACE_JSON_H
#define TRACE_JSON_H

#include "trace_records.h"

/* Writes the ranks as dir/<base>.json (trace_write's contract, meta not NULL). */
TW_HIDDEN int trace_json_write(const char *dir, const char *base, const struct trace_meta *meta,
                               const struct trace_rank *ranks, int n, char *why, size_t whylen);

#endif
