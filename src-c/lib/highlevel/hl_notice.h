/* hl_notice.h: what the high-level calls say when something is missing: the one-line
 * notice (once per process unless PAPI_HL_VERBOSE), and why an event does not count
 * here (hl_notice.c). Not installed. */
#ifndef HL_NOTICE_H
#define HL_NOTICE_H

#include "papi_globals.h"

/* PAPI_HL_VERBOSE is set: every notice is said, not only the first. */
PAPI_INTERNAL int hl_verbose(void);

/* Print msg once per process on stderr unless PAPI_QUIET is set in the environment. */
PAPI_INTERNAL void hl_notice_once(const char *msg);
/* Print msg on stderr unless PAPI_QUIET is set: for what happens once by itself. */
PAPI_INTERNAL void hl_notice(const char *msg);

/* Why the event cannot be used, whole: the preset's reason or the last error's detail,
 * and the component's disabled reason. Heap (the caller frees it); NULL out of memory. */
PAPI_INTERNAL char *hl_missing_reason(int code);

#endif
