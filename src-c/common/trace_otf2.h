/* trace_otf2.h: the OTF2 back end of the trace writer (trace_otf2.c). Not installed. */
#ifndef TRACE_OTF2_H
#define TRACE_OTF2_H

#include "trace_records.h"

/* Whether OTF2 can be written now: 1, or 0 with why ("built without libotf2", or why the
 * library did not load). */
TW_HIDDEN int trace_otf2_available(char *why, size_t whylen);
/* Writes the ranks as the archive dir/<base>/ (trace_write's contract, meta not NULL). */
TW_HIDDEN int trace_otf2_write(const char *dir, const char *base, const struct trace_meta *meta,
                               const struct trace_rank *ranks, int n, char *why, size_t whylen);
/* An archive written in the directory tmp renamed to final (dir/base); one already there
 * (the same job's earlier trace) is replaced: renamed over an empty directory of ours,
 * then removed. 0, or -1 with errno. */
TW_HIDDEN int trace_otf2_publish(const char *tmp, const char *final, const char *dir,
                                 const char *base);
/* Removes the directory tree path (an archive not published). */
TW_HIDDEN void trace_otf2_discard(const char *path);

#endif
