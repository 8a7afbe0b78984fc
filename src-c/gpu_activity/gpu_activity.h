/* gpu_activity.h: a process's GPU activity through CUPTI's activity API (gpu_activity.c):
 * libcupti loaded at run time (cupti_loader.c), kernels, copies, memsets and
 * synchronisation recorded into buffers of a bounded pool, the filled buffers parsed on a
 * drain thread of this layer (never the application's) into one table per process
 * (gpu_table.h), flushed at exit and on request, CUPTI's times on the traces' clock
 * (CLOCK_MONOTONIC, mono_clock.h). Callers: later, papi_run's preloaded library, the
 * region API and the MPI wrapper (flush at MPI_Finalize and at checkpoints). */
#ifndef PAPI_GPU_ACTIVITY_H
#define PAPI_GPU_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "cupti_loader.h"
#include "gpu_table.h"
#include "gpu_tracelog.h"

/* The bounded pool: at most this many buffers of this size exist at once (8 MiB); a
 * request when all are filled or being parsed is refused (CUPTI then drops records, which
 * it counts and the table says). */
#define GPU_ACTIVITY_BUFFERS     8
#define GPU_ACTIVITY_BUFFER_SIZE (1u << 20)

/* Loads libcupti, checks that no other tool subscribed, registers the buffer callbacks,
 * sets the clock and enables kernels (concurrent), memcpy, memset and synchronisation,
 * starts the drain thread and registers the flush at exit. CUPTI_LOAD_OK, or why not with
 * one line in reason[len] (also gpu_activity_reason()): the loader's reasons, "no NVIDIA
 * device: cuptiActivityEnable(...) of <path> failed: <CUPTI's words>", "another tool
 * already subscribed to CUPTI (<path>: ...)", "CUPTI refused to record here: <call> of
 * <path> (CUPTI N) failed: <CUPTI's words>". sonames: NULL but in tests (cupti_load).
 * A second call while started returns CUPTI_LOAD_OK. */
__attribute__((visibility("hidden"))) enum cupti_status gpu_activity_start(
    const char *const *sonames, int n, char *reason, size_t len);
/* Every record CUPTI holds delivered and filed: cuptiActivityFlushAll (forced), then the
 * drain thread's queue emptied. Returns at once when not started, and in a forked child
 * (which has no drain thread: its exit must not wait for one; CUPTI does not follow a
 * fork either). */
__attribute__((visibility("hidden"))) void gpu_activity_flush(void);
/* Flushes, disables the kinds, unsubscribes, stops the drain thread and unloads CUPTI
 * (nothing in a forked child). The table keeps its sums until the next start. */
__attribute__((visibility("hidden"))) void gpu_activity_stop(void);
/* The calling thread's launches from now on linked to tag (a region: gpu_attrib.h) until
 * the matching pop: 1, or 0 where CUPTI cannot link launches (no external correlation in
 * this CUPTI, the layer not started, a forked child). Pops only after a push that
 * returned 1. */
__attribute__((visibility("hidden"))) int gpu_activity_tag_push(uint64_t tag);
__attribute__((visibility("hidden"))) void gpu_activity_tag_pop(void);
/* Tells watcher of every CUDA context made (created 1: on the thread making it, before the
 * program uses it) and of every one about to be destroyed (created 0), with its device
 * (-1 unknown), through the layer's CUPTI subscription: 0, or -1 with why[len] (the layer
 * holds no subscription: not started, another tool subscribed; a CUPTI without the
 * resource callbacks). For a session that needs the program's context (papi_run
 * --gpu-counters, cuda_kernels.c) when none exists yet at its start. */
__attribute__((visibility("hidden"))) int gpu_activity_watch_contexts(
    void (*watcher)(CUcontext ctx, int device, int created), char *why, size_t len);
/* Whether the last start linked launches to their regions (CUPTI has external
 * correlation), also after a stop: the table's links are that run's. */
__attribute__((visibility("hidden"))) int gpu_activity_linking(void);
/* From now on each kernel, copy and memset is also kept with its times for a trace's GPU
 * tracks (gpu_tracelog.h): 1, or 0 without memory for the log. The log, read under
 * gpu_activity_lock: NULL until asked. */
__attribute__((visibility("hidden"))) int gpu_activity_trace_keep(void);
__attribute__((visibility("hidden"))) const struct gpu_tracelog *gpu_activity_tracelog(void);
/* The operations filed for the traces so far, kept or dropped (-1: none are kept): a
 * writer sees whether there are more since its last look without taking them. */
__attribute__((visibility("hidden"))) long long gpu_activity_trace_kept(void);
/* When the layer first started (CLOCK_MONOTONIC ns: the run's start for its run-level POP
 * factors), 0 before. */
__attribute__((visibility("hidden"))) uint64_t gpu_activity_run_start_ns(void);
/* The kept operations after since for a trace's GPU tracks (gpu_tracelog_ops), CUPTI
 * flushed first, ordered (trace_gpu_ops_order): 0; 1 when nothing was kept (no trace
 * asked, or the layer never started); -1 when out of memory (said by the caller). */
__attribute__((visibility("hidden"))) int gpu_activity_trace_ops(struct trace_gpu_ops *g,
                                                                 struct trace_gpu_since *since);
/* The table, locked against the drain thread until gpu_activity_unlock. */
__attribute__((visibility("hidden"))) const struct gpu_table *gpu_activity_lock(void);
__attribute__((visibility("hidden"))) void gpu_activity_unlock(void);
/* The last start's reason ("" when started), CUPTI's version and path, and how CUPTI's
 * times reach the traces' clock: "CLOCK_MONOTONIC (timestamp callback)" or
 * "offset <ns>" (CUPTI's clock minus CLOCK_MONOTONIC, measured at start). */
__attribute__((visibility("hidden"))) const char *gpu_activity_reason(void);
__attribute__((visibility("hidden"))) const struct cupti_lib *gpu_activity_library(void);
__attribute__((visibility("hidden"))) int64_t gpu_activity_clock_offset(int *by_callback);

#endif
