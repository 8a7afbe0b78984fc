/* node_read.h: a node event (where its number is in a /proc or /sys file, and how it
 * counts) and the reading of those files for the node components (node_events.h): the
 * leaf below them, which knows no component. */
#ifndef PAPI_NODE_READ_H
#define PAPI_NODE_READ_H

#include <stdint.h>

#include "event_table.h"

/* One event: where its number is and how it counts (path: its file, read under the
 * root). */
struct node_event {
    union {
        struct table_event common;
        struct {
            TABLE_EVENT_FIELDS
        };
    };
    char *key;       /* the line that starts with it ("eth0", "cpu3"); NULL: the first line */
    int column;      /* which whitespace-separated number after the key (0 = first) */
    int width;       /* 32: a counter that wraps at 2^32; 64 otherwise */
    uint64_t scale;  /* the value is the file's number times this (1: as is) */
    int absent_zero; /* a missing key line reads 0 (lustre prints only lines with samples) */
};

/* The numbers of the given events of one file now (async-signal-safe: no stdio, no
 * allocation). 0, an errno, or NODE_MALFORMED with *bad_line (0: the key's line is
 * missing) and *bad_event (the index in evs) telling which, or NODE_TOO_BIG (a number
 * that does not fit in 64 bits: refused, never wrapped) with the same. */
#define NODE_MALFORMED (-1)
#define NODE_TOO_BIG   (-2)
PAPI_INTERNAL int node_read_file(const char *path, const struct node_event *const *evs, int n,
                                 uint64_t *out, int *bad_line, int *bad_event);

/* The entries of the directory abs under the root in force, sorted, without "." and
 * ".." (scandir's list: free each and the list); -1 with errno when it cannot be read. */
struct dirent;
PAPI_INTERNAL int node_list_dir(const char *abs, struct dirent ***list);
PAPI_INTERNAL void node_free_list(struct dirent **list, int n);

#endif
