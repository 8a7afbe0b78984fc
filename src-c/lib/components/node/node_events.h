/* node_events.h: the engine the node components share (net, infiniband, coretemp,
 * stealtime, lustre). Each of them counts numbers the kernel prints in files of /proc
 * and /sys; a component only finds its events (a table: name, file, line key, column,
 * width, unit) and this engine does the rest: names, contexts, the start..read
 * arithmetic, the reading of the files (async-signal-safe) and the errors.
 *
 * Counting is PAPI's: a counter counts what grew since PAPI_start (unwrapped at its
 * width, so a 32-bit counter that wrapped once between start and read still counts
 * right); an instantaneous value (a temperature, a fan speed) reads as it is now.
 * Every path is read through fsroot.h, so PAPI_FSROOT replays a recorded tree. */
#ifndef PAPI_NODE_EVENTS_H
#define PAPI_NODE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "component.h"

/* One event: where its number is and how it counts. */
struct node_event {
    char *name;        /* after the component's "prefix:::" */
    char *descr;       /* long description */
    const char *units; /* PAPI's unit string (static) */
    char *path;        /* the live absolute path of its file (read under the root) */
    char *key;         /* the line that starts with it ("eth0", "cpu3"); NULL: the first line */
    int column;        /* which whitespace-separated number after the key (0 = first) */
    int width;         /* 32: a counter that wraps at 2^32; 64 otherwise */
    int instant;       /* an instantaneous value, not a counter */
    uint64_t scale;    /* the value is the file's number times this (1: as is) */
    int absent_zero;   /* a missing key line reads 0 (lustre prints only lines with samples) */
};

struct node_table {
    struct node_event *ev;
    int n, cap;
};

/* A node component: its prefix, description and how it finds its events. */
struct node_source {
    const char *prefix;      /* "net:::" */
    const char *description; /* for PAPI_get_component_info */
    /* Fill t from the tree under the root in force; PAPI_OK, or the code that disables
     * the component with the reason in reason[len]. */
    int (*discover)(struct node_table *t, char *reason, size_t len);
    struct node_table table;
};

/* Append an event (the strings are copied; name and descr are formatted by the caller):
 * PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int node_table_add(struct node_table *t, const struct node_event *ev);
PAPI_INTERNAL void node_table_free(struct node_table *t);

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
#define NODE_COMPONENT(cname, source)                                                         \
    {                                                                                         \
        .name = cname, .instance = &source, .probe = node_probe, .fill_info = node_fill_info, \
        .name_to_code = node_name_to_code, .code_to_name = node_code_to_name,                 \
        .enumerate = node_enumerate, .event_info = node_event_info, .query = node_query,      \
        .ctx_create = node_ctx_create, .ctx_destroy = node_ctx_destroy, .add = node_add,      \
        .remove = node_remove, .start = node_start, .stop = node_stop, .read = node_read,     \
        .read_reason = node_read_reason,                                                      \
    }

PAPI_INTERNAL int node_probe(struct papi_component *self, struct cmp_status *out);
PAPI_INTERNAL void node_fill_info(const struct papi_component *self, PAPI_component_info_t *info);
PAPI_INTERNAL int node_name_to_code(const struct papi_component *self, const char *name,
                                    int *local);
PAPI_INTERNAL int node_code_to_name(const struct papi_component *self, int local, char *out,
                                    size_t len);
PAPI_INTERNAL int node_enumerate(const struct papi_component *self, int *local, int modifier);
PAPI_INTERNAL int node_event_info(const struct papi_component *self, int local,
                                  PAPI_event_info_t *info);
PAPI_INTERNAL int node_query(const struct papi_component *self, int local, int domain);
PAPI_INTERNAL int node_ctx_create(const struct papi_component *self,
                                  const struct cmp_target *target, struct cmp_context **ctx);
PAPI_INTERNAL void node_ctx_destroy(struct cmp_context *ctx);
PAPI_INTERNAL int node_add(struct cmp_context *ctx, int local, int *slot);
PAPI_INTERNAL int node_remove(struct cmp_context *ctx, int slot);
PAPI_INTERNAL int node_start(struct cmp_context *ctx);
PAPI_INTERNAL int node_stop(struct cmp_context *ctx);
PAPI_INTERNAL int node_read(struct cmp_context *ctx, struct cmp_count *out);
PAPI_INTERNAL void node_read_reason(struct cmp_context *ctx);

#endif
