/* run_threads.h: the per-thread split of --per-thread. The preloaded library
 * (libpapi_run_threads.so, run_threads_preload.c) counts each thread of the program with
 * an event set of its own and, when the thread ends, appends one line to the file
 * PAPI_RUN_THREADS_FILE names: "tid real_ns value..." (the events of PAPI_RUN_EVENTS, in
 * order). One write(2) of O_APPEND per line, so lines of threads and processes never mix. */
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
    int dropped; /* lines past RUN_MAX_THREADS or malformed */
    struct run_thread_row row[RUN_MAX_THREADS];
};

/* Reads the rows of path (nevents values each), then removes the file. NULL when there
 * is none (or out of memory); the caller frees the result. */
struct run_threads *run_threads_read(const char *path, int nevents);

#endif
