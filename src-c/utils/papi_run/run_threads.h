/* run_threads.h: the per-thread split of --per-thread. The preloaded library
 * (libpapi_run_threads.so, run_threads_preload.c) counts each thread of the program with
 * an event set of its own and, when the thread ends, appends its row to the hand-over file
 * PAPI_RUN_THREADS_FILE names: a block of kind "threads" (run_threads_block.h: its tid,
 * real time and the values of PAPI_RUN_EVENTS, in order). One write(2) of O_APPEND per
 * block, so the rows of threads and processes never mix. */
#ifndef PAPI_RUN_THREADS_H
#define PAPI_RUN_THREADS_H

#include <sys/types.h>

#include "run.h"

#define RUN_MAX_THREADS 4096

struct run_thread_row {
    pid_t tid;
    long long real_ns;
    long long value[RUN_MAX_EVENTS];
};

struct run_threads {
    int n;
    int dropped; /* rows past RUN_MAX_THREADS */
    struct run_thread_row row[RUN_MAX_THREADS];
};

/* Reads the rows of path (the first nevents values of each), then removes the file; a
 * fault in it is said in one line on stderr, the rows before it kept. NULL when there is
 * no file (or out of memory); the caller frees the result. */
struct run_threads *run_threads_read(const char *path, int nevents);

#endif
