/* run_sample_stacks.h: a sampled process's hand-over to papi_run's merge, the "stacks"
 * kind of hand-over file (handover_file.h). Each image of each process of the program
 * (run_sample_profile.c) leaves one file with one block, .sample_RUNID_PID.txt
 * (.sample_RUNID_PID_execN.txt for an image it exec'd from), written under a temporary
 * name and renamed whole; papi_run merges every one of its run (run_sample_merge.c):
 *   stacks PID NAMES ITEMS DROPPED      DROPPED: its samples past its cap of distinct stacks
 *   n NAME                              a name per distinct frame (an inlined chain: a;b)
 *   events\tEVENT[\tEVENT]...           the first item: the sampled event, the -e ones
 *   counts SAMPLES LOST CAP DROPPED_WEIGHT   samples, records lost, the cap, the dropped weight
 *   call_graph MODE\tREASON             fp, dwarf or none, and why
 *   note TEXT                           (when the process has one)
 *   rank RANK                           its launcher's rank, -1: none
 *   run_command, run_start, run_host, metric   papi_run's run and -m metrics (run_sample_header.c)
 *   stack TID SAMPLES PARTS DEPTH W.. F..\tWHERE   per distinct stack of a thread: its
 *       samples, how many of its leaf name's parts its leaf frame holds (code inlined into
 *       it), its DEPTH frames, one weight per event, the frames' names (indices of the n
 *       lines, root first), and each name's place, ';' between them as between the names'
 *       parts ("" where none, else file:line). */
#ifndef RUN_SAMPLE_STACKS_H
#define RUN_SAMPLE_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "run_sample.h"

#define RS_STACKS_KIND "stacks"

/* One stack of a block as read: its names joined by ';' (as a folded line has them). */
struct rs_stacks_stack {
    char *names, *where;
    int tid, parts;
    unsigned long long samples;
    uint64_t w[1 + RS_MAX_READ];
};

/* One process's block as read (the strings are the reader's until take returns). */
struct rs_stacks {
    long pid;
    int rank, nw;
    char events[1 + RS_MAX_READ][RS_NAME_LEN];
    unsigned long long samples, lost, dropped, dropped_weight;
    size_t cap;
    char *call_graph, *note; /* "MODE\tREASON", the note: NULL when none */
    struct rs_header head;   /* run_sample_header.c */
    struct rs_stacks_stack *stack;
    size_t nstacks;
};

/* Every block of the file at path handed to take (0, or -1 when out of memory), a block
 * without events taken not; as handover_load: 0, 1 (no such file) or -1 with why (the file,
 * the line, what was expected; anything but a regular file at path is not read). */
RS_HIDDEN int rs_stacks_load(const char *path, int (*take)(void *ctx, const struct rs_stacks *b),
                             void *ctx, char *why, size_t whylen);

#endif
