/* trace_writer.h: timelines of one process or of a whole job, written as Chrome
 * trace-event JSON (trace_json.c: Perfetto's UI, chrome://tracing) or as an OTF2 archive
 * (trace_otf2.c: otf2-print, Vampir; libotf2 loaded at run time, so libpapi never needs
 * it to link).
 *
 * Two ways in, one data form:
 * - a job's (or one rank's) records as plain arrays, written at once by trace_write: what
 *   the MPI wrapper hands over at finalize (each rank's array, gathered or not);
 * - a builder (trace_open ... trace_close) for one process that records as it runs (the
 *   region API, papi_run); it keeps the records in memory, bounded, and ends in
 *   trace_write. Not thread-safe: its caller serialises.
 *
 * Times are nanoseconds of one clock for the whole file (CLOCK_MONOTONIC within a host,
 * CLOCK_REALTIME across hosts); a file's times are written relative to its earliest. A
 * thread is any 32-bit label (the OS thread id): each distinct one is a track (JSON) or a
 * location (OTF2) of its rank. Peers and roots are ranks of MPI_COMM_WORLD; comm is a
 * number naming the communicator job-wide (0: MPI_COMM_WORLD).
 *
 * From an MPI event log: each MPI call is a region named as the call ("MPI_Send":
 * TR_ENTER at its start, TR_LEAVE at its end), a send a TR_SEND inside it, a receive a
 * TR_RECV at its completion (the call's or the MPI_Wait's end, with the status's source
 * and tag), a collective TR_COLL_BEGIN and TR_COLL_END inside its call's region. Flows
 * pair the n-th send from a to b with tag t on comm c with the n-th such receive. */
#ifndef TRACE_WRITER_H
#define TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define TW_HIDDEN __attribute__((visibility("hidden")))

enum trace_format { TRACE_JSON = 1, TRACE_OTF2 = 2 };

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
    uint64_t dropped; /* records the recorder could not keep (said in the file) */
};

/* What the file says about the run (every field may be NULL). */
struct trace_meta {
    const char *program, *run_id, *creator;
};

/* "json" or "otf2" (any case): 0 and *out, or -1 with why (the names it takes). */
TW_HIDDEN int trace_format_parse(const char *s, enum trace_format *out, char *why, size_t whylen);
TW_HIDDEN const char *trace_format_name(enum trace_format f);
/* Whether OTF2 can be written now: 1, or 0 with why ("built without libotf2", or why the
 * library did not load). */
TW_HIDDEN int trace_otf2_available(char *why, size_t whylen);
/* The name of a collective (its MPI call's, "MPI_Allreduce"), or "collective". */
TW_HIDDEN const char *trace_collop_name(unsigned op);

/* Writes nranks ranks' records into dir (which must exist) as one file: JSON
 * dir/<base>.json, OTF2 the archive dir/<base>/ (anchor <base>/traces.otf2). The
 * file is published only whole. 0, or -1 with why (one line) and nothing left behind. */
TW_HIDDEN int trace_write(const char *dir, const char *base, enum trace_format f,
                          const struct trace_meta *meta, const struct trace_rank *ranks, int nranks,
                          char *why, size_t whylen);

/* The builder. max_records bounds its memory (0: 4M records, 192 MiB); past it records
 * are dropped and counted. NULL only when out of memory. */
struct trace_writer;
TW_HIDDEN struct trace_writer *trace_open(enum trace_format f, int rank, long pid, const char *host,
                                          size_t max_records);
/* A name's id (the same name, the same id); -1 when out of memory. */
TW_HIDDEN int trace_define_region(struct trace_writer *w, const char *name);
TW_HIDDEN int trace_define_counter(struct trace_writer *w, const char *name);
/* Append one record (0, or -1 when it was dropped). */
TW_HIDDEN int trace_add(struct trace_writer *w, const struct trace_record *r);
TW_HIDDEN int trace_enter(struct trace_writer *w, uint64_t ts, uint32_t thread, int region);
TW_HIDDEN int trace_leave(struct trace_writer *w, uint64_t ts, uint32_t thread, int region);
TW_HIDDEN int trace_counter(struct trace_writer *w, uint64_t ts, uint32_t thread, int counter,
                            int64_t value);
TW_HIDDEN int trace_send(struct trace_writer *w, uint64_t ts, uint32_t thread, int peer, int tag,
                         uint32_t comm, uint64_t bytes);
TW_HIDDEN int trace_recv(struct trace_writer *w, uint64_t ts, uint32_t thread, int peer, int tag,
                         uint32_t comm, uint64_t bytes);
TW_HIDDEN int trace_coll_begin(struct trace_writer *w, uint64_t ts, uint32_t thread);
TW_HIDDEN int trace_coll_end(struct trace_writer *w, uint64_t ts, uint32_t thread,
                             enum trace_collop op, uint32_t comm, int root, uint64_t sent,
                             uint64_t received);
/* This rank's view of the builder's data (valid until the next change or trace_close). */
TW_HIDDEN void trace_view(const struct trace_writer *w, struct trace_rank *out);
TW_HIDDEN enum trace_format trace_writer_format(const struct trace_writer *w);
/* Frees the builder. */
TW_HIDDEN void trace_close(struct trace_writer *w);

#endif
