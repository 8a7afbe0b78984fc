/* node_events.h: what the node components share (net, infiniband, coretemp, stealtime,
 * lustre). Each of them counts numbers the kernel prints in files of /proc and /sys; a
 * component only finds its events (a table: name, file, line key, column, width, unit);
 * node_events.c reads the files (async-signal-safe) and explains a failure; the
 * contexts and the counting are the slot engine's (../slot_engine.h), the names and the
 * table the table components' (../event_table.h), shared with the GPU components.
 *
 * Counting is PAPI's: a counter counts what grew since PAPI_start (unwrapped at its
 * width, so a 32-bit counter that wrapped once between start and read still counts
 * right); an instantaneous value (a temperature, a fan speed) reads as it is now.
 * Every path is read through fsroot.h, so PAPI_FSROOT replays a recorded tree. */
#ifndef PAPI_NODE_EVENTS_H
#define PAPI_NODE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "event_table.h"
#include "slot_engine.h"

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

/* A node component: its prefix, description (common) and how it finds its events. */
struct node_source {
    struct table_source common;
    /* Fill t from the tree under the root in force; PAPI_OK, or the code that disables
     * the component with the reason in reason[len]. */
    int (*discover)(struct event_table *t, char *reason, size_t len);
};

/* Append an event (the strings are copied; name and descr are formatted by the caller):
 * PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int node_table_add(struct event_table *t, const struct node_event *ev);

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

/* The callbacks of every node component; the instance is its struct node_source. */
#define NODE_COMPONENT(cname, source)                                                    \
    {                                                                                    \
        .name = cname, .instance = &source, .probe = node_probe, TABLE_NAMING_CALLBACKS, \
        .ctx_create = node_ctx_create, SLOT_ENGINE_CALLBACKS,                            \
    }

PAPI_INTERNAL int node_probe(struct papi_component *self, struct cmp_status *out);
PAPI_INTERNAL int node_ctx_create(const struct papi_component *self,
                                  const struct cmp_target *target, struct cmp_context **ctx);

#endif
