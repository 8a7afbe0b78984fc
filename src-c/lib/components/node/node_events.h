/* node_events.h: what the node components share (net, infiniband, coretemp, stealtime,
 * lustre). Each of them counts numbers the kernel prints in files of /proc and /sys; a
 * component only finds its events (a table: name, file, line key, column, width, unit);
 * node_events.c reads the files for the slots (node_read.h: async-signal-safe) and
 * explains a failure; the contexts and the counting are the slot engine's
 * (../slot_engine.h), the names and the table the table components' (../event_table.h),
 * shared with the GPU components.
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
#include "node_read.h"
#include "slot_engine.h"

/* A node component: its prefix, description (common) and how it finds its events. */
struct node_source {
    struct table_source common;
    /* Fill t from the tree under the root in force; PAPI_OK, or the code that disables
     * the component with the reason in reason[len]. */
    int (*discover)(struct event_table *t, char *reason, size_t len);
    /* Why it found no event, said after the root ("/proc/stat has no cpu line"); NULL:
     * "<name> found no events". */
    const char *none_found;
};

/* Each line of the file path (under the root in force) handed to each, with its number
 * (from 1) and arg, until each returns other than PAPI_OK: that, or PAPI_OK. A file that
 * cannot be opened disables the component: PAPI_ECMP with "<path> is not readable
 * (<errno>): <unreadable>" in reason. */
typedef int (*node_line_fn)(struct event_table *t, const char *line, int lineno, void *arg,
                            char *reason, size_t len);
PAPI_INTERNAL int node_scan_lines(const char *path, const char *unreadable, struct event_table *t,
                                  node_line_fn each, void *arg, char *reason, size_t len);

/* Append an event (the strings are copied; name and descr are formatted by the caller):
 * PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int node_table_add(struct event_table *t, const struct node_event *ev);

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
