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

#include "trace_otf2.h"    /* trace_otf2_available: whether OTF2 can be written now */
#include "trace_records.h" /* the records, ranks and run data written */

enum trace_format { TRACE_JSON = 1, TRACE_OTF2 = 2 };

/* "json" or "otf2" (any case): 0 and *out, or -1 with why (the names it takes). */
TW_HIDDEN int trace_format_parse(const char *s, enum trace_format *out, char *why, size_t whylen);
TW_HIDDEN const char *trace_format_name(enum trace_format f);

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
/* The label of process pid's GPU track gpu (TRACE_GPU_TRACK(device, stream)) in this
 * builder, where pid is another process than the builder's own (papi_run: each of the
 * program's processes keeps its own GPU tracks, "GPU D stream S (pid P)"): the same pair,
 * the same label. 0 and *label, or -1 when out of memory. */
TW_HIDDEN int trace_gpu_track_of(struct trace_writer *w, uint32_t gpu, long pid, uint32_t *label);
/* Records the builder can still take (its bound less those it holds), and n records
 * counted as dropped that never reached it (a log's of its own, past its bound). */
TW_HIDDEN size_t trace_room(const struct trace_writer *w);
TW_HIDDEN void trace_add_dropped(struct trace_writer *w, uint64_t n);
/* Records added for one write only (what a later write asks for anew, whole: the OpenMP
 * slices): the builder's state before them, and back to it after the write. */
struct trace_mark {
    size_t nrec;
    uint64_t dropped;
};
TW_HIDDEN struct trace_mark trace_mark_now(const struct trace_writer *w);
TW_HIDDEN void trace_rewind(struct trace_writer *w, struct trace_mark m);
/* This rank's view of the builder's data (valid until the next change or trace_close). */
TW_HIDDEN void trace_view(const struct trace_writer *w, struct trace_rank *out);
TW_HIDDEN enum trace_format trace_writer_format(const struct trace_writer *w);
/* Frees the builder. */
TW_HIDDEN void trace_close(struct trace_writer *w);

#endif
