/* handover_file.h: the one form of the files by which the processes of papi_run's program
 * hand what they recorded to papi_run: their GPU operations (trace_gpu_tracks.c) and
 * OpenMP slices (trace_openmp.c) for its trace, their threads' rows of --per-thread
 * (run_threads_block.h) and their OpenMP tables (the OMPT tool's, ompt_report.c); a file
 * per kind. Each process (a thread for its rows) appends one block at its exit, in one
 * write (the file is opened O_APPEND, so blocks never interleave): a head line
 * "KIND PID NAMES ITEMS DROPPED", then NAMES lines "n NAME" and ITEMS lines of the kind's
 * own form. The reader hands each block's head, names and item lines to its kind's
 * callbacks and says where a block is wrong: the file, the line and what was expected.
 * Not installed. */
#ifndef HANDOVER_FILE_H
#define HANDOVER_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_records.h" /* TW_HIDDEN */

/* A hand-over file (or any file papi_run and its program's processes pass by name, the
 * name another process may have put something else at) opened as a regular file only:
 * flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, name relative to dirfd
 * (AT_FDCWD: a path), mode for O_CREAT. A FIFO, a device, a socket or a directory at the
 * name neither blocks the open (a FIFO without a reader refuses a writer: ENXIO; a reader's
 * open returns at once) nor is used: -1 with errno EINVAL; a symbolic link is not followed
 * (ELOOP). Else the descriptor (O_NONBLOCK changes nothing for a regular file), or -1 with
 * errno. */
TW_HIDDEN int handover_open(int dirfd, const char *name, int flags, unsigned mode);
/* What handover_open's errno means: "not a regular file" (EINVAL, ENXIO), "a symbolic
 * link, not followed" (ELOOP), else strerror's. */
TW_HIDDEN const char *handover_strerror(int err);

/* One process's block, written by handover_save: names[0..nnames) and nitems items,
 * item(f, ctx, i) printing item i's line (with its newline). 0, or -1 (errno). */
typedef const char *(*handover_name_fn)(const void *ctx, int k);
typedef void (*handover_item_fn)(FILE *f, const void *ctx, size_t i);
TW_HIDDEN int handover_save(int fd, const char *kind, long pid, int nnames, size_t nitems,
                            uint64_t dropped, handover_name_fn name, handover_item_fn item,
                            const void *ctx);
/* The same block printed into f (handover_save's text), for a kind whose every block is a
 * file of its own, written under a temporary name and renamed whole (--sample's stacks,
 * run_sample_stacks.h): no copy of a large block in memory first. */
TW_HIDDEN void handover_print(FILE *f, const char *kind, long pid, int nnames, size_t nitems,
                              uint64_t dropped, handover_name_fn name, handover_item_fn item,
                              const void *ctx);

/* A kind's reader: its head word, the forms said when a line is wrong, and its callbacks
 * (each 0, or -1 for a value it refuses): block at each head (pid is a process id, 1 to
 * INT32_MAX), name per name line (the text after "n "), item per item line (whole), end
 * when the block's lines are all read. */
struct handover_kind {
    const char *head;      /* "gpu_ops" */
    const char *head_form; /* "gpu_ops PID NAMES OPS DROPPED" */
    const char *item_form; /* "an operation (o LABEL START END NAME)" */
    int (*block)(void *ctx, long pid, int nnames, uint64_t dropped);
    int (*name)(void *ctx, const char *name);
    int (*item)(void *ctx, const char *line);
    int (*end)(void *ctx); /* after a block's last line; NULL: nothing to do */
};
/* Every block of the file at path through k's callbacks: 0, 1 when the file does not
 * exist (no process wrote one), or -1 with why (the file, the line and what is wrong; the
 * blocks before it were read; a FIFO or anything but a regular file at path: not read,
 * handover_open). */
TW_HIDDEN int handover_load(const char *path, const struct handover_kind *k, void *ctx, char *why,
                            size_t whylen);

#endif
