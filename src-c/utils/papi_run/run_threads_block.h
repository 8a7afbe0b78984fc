/* run_threads_block.h: a thread's row of --per-thread as a hand-over block
 * (handover_file.h), kind "threads": the head "threads PID EVENTS 1 0", the events' names
 * ("n NAME", PAPI_RUN_EVENTS in order), then the row "t TID REAL_NS VALUE..." (a value per
 * event). The preloaded library (run_threads_preload.c) appends one block per thread as it
 * ends; papi_run reads them back (run_threads.c). */
#ifndef PAPI_RUN_THREADS_BLOCK_H
#define PAPI_RUN_THREADS_BLOCK_H

#include "handover_file.h"

#define RUN_THREADS_KIND      "threads"
#define RUN_THREADS_HEAD_FORM "threads PID EVENTS ROWS DROPPED"
#define RUN_THREADS_ROW_FORM  "a thread's row (t TID REAL_NS VALUE...)"

/* Thread tid's block (process pid): its real time and a value per event (nevents of each,
 * names[k] naming value[k]), appended to fd in one write. 0, or -1 (errno). */
TW_HIDDEN int run_threads_block_save(int fd, long pid, long tid, long long real_ns,
                                     const long long *value, int nevents, const char *const *names);

#endif
