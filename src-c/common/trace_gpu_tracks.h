/* trace_gpu_tracks.h: a process's GPU operations (its kernels, copies and memsets, as
 * src-c/gpu_activity keeps them for traces) as regions on GPU tracks, the one home of
 * what the three trace writers share (the region API's PAPI_TRACE, the MPI wrapper's
 * PAPI_MPI_TRACE, papi_run --trace): the operations in time order per track, an
 * operation that starts before the previous one on its stream ends cut there (a stream
 * runs one at a time), and their names; added to a trace builder; and their file form,
 * by which papi_run's preloaded library hands a program's operations to papi_run
 * (trace_gpu_tracks.c). Not installed. */
#ifndef TRACE_GPU_TRACKS_H
#define TRACE_GPU_TRACKS_H

#include <stddef.h>
#include <stdint.h>

#include "trace_writer.h"

#define TRACE_GPU_NAME_LEN 256 /* a demangled kernel name, cut to fit */
/* The most names one process's operations take: its kernel rows (gpu_table.h's 1024),
 * a name per copy kind and "memset". */
#define TRACE_GPU_MAX_NAMES (1024 + 32)

/* One operation: on track label (TRACE_GPU_TRACK(device, stream)), start .. end in ns of
 * the traces' clock (CLOCK_MONOTONIC), named name[name], of process pid (a loaded block's;
 * 0: the process's own). */
struct trace_gpu_op {
    uint64_t start, end;
    uint32_t label;
    int32_t name;
    int32_t pid;
};

/* A counter's point on a GPU track: at t (ns, the traces' clock) the counter named
 * name[name] has value (a double: a metric of one kernel launch, papi_run --gpu-counters)
 * on track label, of process pid (as an operation's). */
struct trace_gpu_point {
    uint64_t t;
    uint32_t label;
    int32_t name;
    int32_t pid;
    double value;
};

/* A process's operations (several processes' after a load of their file), and its
 * counters' points. */
struct trace_gpu_ops {
    struct trace_gpu_op *op;
    size_t n, cap;
    struct trace_gpu_point *pt;
    size_t npt, ptcap;
    char (*name)[TRACE_GPU_NAME_LEN];
    int nnames, names_cap;
    uint64_t dropped; /* operations past the process's log: not in op, said */
};

/* What a writer took of a process's log already: a later write of the same trace takes
 * only the rest. */
struct trace_gpu_since {
    size_t n;
    uint64_t dropped;
};

/* A name's index in g (appended, cut to fit; a newline becomes a space), or -1 when out
 * of memory. */
TW_HIDDEN int trace_gpu_ops_name(struct trace_gpu_ops *g, const char *name);
/* One operation appended: 0, or -1 when out of memory. */
TW_HIDDEN int trace_gpu_ops_push(struct trace_gpu_ops *g, uint32_t label, uint64_t start,
                                 uint64_t end, int32_t name);
/* One counter point appended (name: an index of trace_gpu_ops_name): 0, or -1 when out of
 * memory. */
TW_HIDDEN int trace_gpu_ops_point(struct trace_gpu_ops *g, uint32_t label, uint64_t t, int32_t name,
                                  double value);
/* The operations in time order per process and track (ties: the shorter first, as
 * filed), each one that starts before the previous one on its process's track ends cut to
 * start there (a stream runs one at a time; two processes' streams are not one). */
TW_HIDDEN void trace_gpu_ops_order(struct trace_gpu_ops *g);
/* Each operation a region entered at its start and left at its end on its track of w
 * (in the order of g: trace_gpu_ops_order first), another process's than w's on that
 * process's own track (trace_gpu_track_of), and g's dropped operations counted as w's
 * dropped records (two each); each counter point a counter record (a double) on its
 * track, in the points' time order per track. 0, or -1 when a name found no memory (its
 * operations and points are then counted as dropped too). */
TW_HIDDEN int trace_gpu_ops_add(struct trace_writer *w, const struct trace_gpu_ops *g);
TW_HIDDEN void trace_gpu_ops_free(struct trace_gpu_ops *g);

/* The file form: a block per process appended with one write to fd (opened O_APPEND, so
 * several processes may share the file): "gpu_ops PID NAMES ITEMS DROPPED", then a line
 * "n NAME" per name, "o LABEL START END NAME" per operation and "p LABEL T NAME VALUE" per
 * counter point (VALUE exact: a C99 hexadecimal float). 0, or -1 (errno). */
TW_HIDDEN int trace_gpu_ops_save(int fd, long pid, const struct trace_gpu_ops *g);
/* Every block of the file at path appended to g (names renumbered), then ordered. 0, 1
 * when the file does not exist (no process wrote one), or -1 with why (the file, the
 * line and what is wrong with it; g then holds the blocks before it). */
TW_HIDDEN int trace_gpu_ops_load(const char *path, struct trace_gpu_ops *g, char *why,
                                 size_t whylen);

#endif
