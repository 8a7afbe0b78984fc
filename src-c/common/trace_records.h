/* trace_records.h: the trace's data, what every part of the writer shares: one record,
 * one rank's names and records, what a file says about the run, and the orders the back
 * ends write in (trace_records.c). A leaf: it calls nothing of the writer. The meaning of
 * the records is trace_writer.h's opening comment. Not installed. */
#ifndef TRACE_RECORDS_H
#define TRACE_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define TW_HIDDEN __attribute__((visibility("hidden")))

enum trace_kind {
    TR_ENTER = 1,  /* id: region */
    TR_LEAVE,      /* id: region */
    TR_COUNTER,    /* id: counter, value */
    TR_SEND,       /* peer: destination, tag, comm, bytes */
    TR_RECV,       /* peer: source, tag, comm, bytes (at the receive's completion) */
    TR_COLL_BEGIN, /* a collective's start */
    TR_COLL_END,   /* collop, comm, peer: root (-1: none), bytes sent, value: received */
};

/* Numbered as OTF2_CollectiveOp (OTF2_Events.h), so OTF2 takes them as they are. */
enum trace_collop {
    TC_BARRIER = 0,
    TC_BCAST,
    TC_GATHER,
    TC_GATHERV,
    TC_SCATTER,
    TC_SCATTERV,
    TC_ALLGATHER,
    TC_ALLGATHERV,
    TC_ALLTOALL,
    TC_ALLTOALLV,
    TC_ALLTOALLW,
    TC_ALLREDUCE,
    TC_REDUCE,
    TC_REDUCE_SCATTER,
    TC_SCAN,
    TC_EXSCAN,
    TC_REDUCE_SCATTER_BLOCK,
    TC_COUNT
};

/* A counter's value: an int64 count, or a double's bits (trace_value_double) for a
 * named metric (IPC, a rate): one counter name keeps one type in a file. OTF2 writes a
 * double member, JSON a number with a fraction. */
enum trace_value_type { TR_VALUE_INT = 0, TR_VALUE_DOUBLE = 1 };

/* One record (48 bytes). Records of one rank are given in time order per thread. */
struct trace_record {
    uint64_t ts;     /* ns */
    uint32_t thread; /* the thread's label (its OS id) */
    uint8_t kind;    /* enum trace_kind */
    uint8_t collop;  /* TR_COLL_END: enum trace_collop */
    uint16_t vtype;  /* TR_COUNTER: TR_VALUE_INT (0) or TR_VALUE_DOUBLE (a named metric) */
    uint32_t id;  /* TR_ENTER/TR_LEAVE: region, TR_COUNTER: counter (indices of the rank's names) */
    int32_t peer; /* TR_SEND: destination, TR_RECV: source, TR_COLL_END: root or -1 */
    int32_t tag;
    uint32_t comm;
    uint64_t bytes; /* TR_SEND/TR_RECV: the message, TR_COLL_END: sent */
    int64_t value;  /* TR_COUNTER: the value, TR_COLL_END: bytes received, TR_ENTER: the
                     * calls a slice of folded polls stands for (JSON args.calls), 0: one */
};

/* A double kept in a record's value (vtype TR_VALUE_DOUBLE), and read back. */
static inline int64_t trace_value_of_double(double d)
{
    int64_t v;
    __builtin_memcpy(&v, &d, sizeof v);
    return v;
}
static inline double trace_value_double(const struct trace_record *r)
{
    double d;
    __builtin_memcpy(&d, &r->value, sizeof d);
    return d;
}

/* A GPU track of another process than the rank's own (papi_run --trace: each of the
 * program's processes that used a GPU): its label in the rank's records is
 * TRACE_GPU_TRACK_OF(i) for the rank's track[i], which says the process's own label
 * (TRACE_GPU_TRACK(device, stream)) and its pid. */
struct trace_track {
    uint32_t gpu;
    long pid;
};

/* One rank's part of a file: its names (a record's id indexes them) and its records. */
struct trace_rank {
    int rank; /* 0.. in an MPI job; 0 for a serial program */
    long pid;
    const char *host; /* NULL: unknown */
    const char *const *region;
    int nregions;
    const char *const *counter; /* named events or metrics */
    int ncounters;
    const struct trace_record *rec;
    size_t nrec;
    uint64_t dropped;                /* records the recorder could not keep (said in the file) */
    const struct trace_track *track; /* other processes' GPU tracks (none: NULL, 0) */
    int ntracks;
};

/* What the file says about the run (every field may be NULL). base_ns: the time the
 * file's times count from (0: its earliest record's; a job's files written rank by rank
 * share one, so their events concatenate as they are). */
struct trace_meta {
    const char *program, *run_id, *creator;
    uint64_t base_ns;
};

/* The name of a collective (its MPI call's, "MPI_Allreduce"), or "collective". */
TW_HIDDEN const char *trace_collop_name(unsigned op);

/* One rank's records in time order (ties in the order given): indices into rec. NULL
 * when out of memory. The caller frees it. */
TW_HIDDEN size_t *trace_order(const struct trace_rank *r);
/* Each distinct thread label of a rank, in order of first appearance (GPU tracks after
 * the threads): the count, and
 * (when labels is not NULL) the labels (the caller frees *labels). -1: out of memory. */
TW_HIDDEN int trace_threads(const struct trace_rank *r, uint32_t **labels);
/* A GPU's track (a device's stream: its kernels and copies as regions) among a rank's
 * threads: a label no OS thread id takes (they stay below 2^22 on Linux); another
 * process's GPU track (struct trace_track) is labelled by its index among the rank's. */
#define TRACE_GPU_TRACK(device, stream) \
    (0xF0000000u | (((uint32_t)(device)&0xFFu) << 20) | ((uint32_t)(stream)&0xFFFFFu))
#define TRACE_GPU_TRACK_OF(i)     (0xE0000000u | ((uint32_t)(i)&0x0FFFFFFFu))
#define TRACE_IS_GPU_TRACK(label) (((label)&0xE0000000u) == 0xE0000000u)
/* A track's name: "thread N", "GPU D stream S" for a GPU's track, "GPU D stream S (pid
 * P)" for another process's (track: the rank's ntracks of them). */
TW_HIDDEN void trace_track_name(uint32_t label, const struct trace_track *track, int ntracks,
                                char *buf, size_t len);
/* The earliest and latest time of all ranks' records (0, 0 when there is none). */
TW_HIDDEN void trace_span(const struct trace_rank *ranks, int n, uint64_t *first, uint64_t *last);

#endif
