/* papi_gpu_activity.h: the process's GPU activity (CUPTI's kernels, copies, memsets and
 * synchronisation: src-c/gpu_activity) for the layers above libpapi that write their own
 * reports: the MPI wrapper library and papi_run's preloaded libraries. One layer per
 * process lives in libpapi (CUPTI takes one subscriber), so they ask it here. Not
 * installed: an internal contract between libpapi and its own tools. */
#ifndef PAPI_GPU_ACTIVITY_EXPORT_H
#define PAPI_GPU_ACTIVITY_EXPORT_H

#include <stddef.h>

#include "papi_api_begin.h"

/* Starts the layer as PAPI_GPU_ACTIVITY says (by default where the program loaded CUDA),
 * once; who names the caller in the one line said when it cannot start (NULL: nothing is
 * said, another process of the job says it). 1: recording. */
int papi_gpu_activity_start(const char *who);
/* Every record CUPTI holds filed (MPI_Finalize, a checkpoint, exit). */
void papi_gpu_activity_flush(void);
/* The process's GPU activity since the start as one JSON object into buf[len]
 * (gpu_activity.schema.json's $defs/process: "activity" the status, "total" a section),
 * NUL-ended. Returns its length; 0 when the layer was never asked (nothing written);
 * -1 when it does not fit. Not async-signal-safe (locks). */
long papi_gpu_activity_json(char *buf, size_t len);
/* A span of time opened and closed again and again (an MPI_Pcontrol region): what the
 * process's GPUs did during its instances, summed. new: NULL without memory. begin and
 * end flush CUPTI (nothing while the layer is off); any thread may end what another
 * began (its launches are not linked to it: that needs one thread). json: the span's
 * section (gpu_activity.schema.json's $defs/section) into buf[len], NUL-ended: its
 * length, 0 before a completed instance or with the layer off, -1 when it does not fit.
 * Each call takes the span's lock: a checkpoint's row may read it while a thread ends it. */
typedef struct papi_gpu_span papi_gpu_span_t;
papi_gpu_span_t *papi_gpu_span_new(void);
void papi_gpu_span_begin(papi_gpu_span_t *span);
void papi_gpu_span_end(papi_gpu_span_t *span);
long papi_gpu_span_json(papi_gpu_span_t *span, char *buf, size_t len);
/* The process's whole run's host/device POP factors as one JSON object into buf[len]
 * (gpu_activity.schema.json's $defs/run_pop: from the layer's first start to now, CUPTI
 * flushed first), NUL-ended: its length; 0 when the layer never started; -1 when it does
 * not fit. */
long papi_gpu_activity_run_pop_json(char *buf, size_t len);
/* What the host/device POP factors of a rank or region are formed from, in ns
 * (src-c/common/pop_factors.h): the GPUs' useful time (their kernels' busy time), their
 * communication (copies and memsets) and the host's wait in synchronisation. times: the
 * process's since the start (CUPTI flushed first); span_times: the span's instances
 * summed. Each returns 1 with *t filled, or 0 where the layer never recorded (nothing
 * to form them from: *t zeroed). */
struct papi_gpu_pop_times {
    unsigned long long useful_ns, comm_ns, runtime_ns;
};
int papi_gpu_activity_pop_times(struct papi_gpu_pop_times *t);
int papi_gpu_span_pop_times(papi_gpu_span_t *span, struct papi_gpu_pop_times *t);
/* The traces' GPU tracks (src-c/common/trace_gpu_tracks.h). keep: from now on each
 * kernel, copy and memset is kept with its times (the first 65536 of the process, 2.5
 * MiB; later ones counted): 1, or 0 without memory. ops: those kept after since
 * (advanced), CUPTI flushed first, appended to g in time order per track with their
 * names, and the dropped ones since counted in g: 0; 1 when nothing was kept (never
 * asked, or the layer never started); -1 when out of memory. */
struct trace_gpu_ops;
struct trace_gpu_since;
int papi_gpu_activity_trace_keep(void);
/* The operations filed for the traces so far, kept or dropped (-1: none are kept; no
 * flush): whether a trace written before is behind. */
long long papi_gpu_activity_trace_kept(void);
int papi_gpu_activity_trace_ops(struct trace_gpu_ops *g, struct trace_gpu_since *since);
/* One line on stderr, by who, when CUPTI dropped records, a buffer was refused or kernels
 * had no row (the files say the same); nothing when none was lost. */
void papi_gpu_activity_say_losses(const char *who);

#include "papi_api_end.h"

#endif
