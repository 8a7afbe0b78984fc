/* run_options.h: the command line parsed and checked, the events chosen (run_options.c). */
#ifndef RUN_OPTIONS_H
#define RUN_OPTIONS_H

#include "run.h"

/* run_options.c: parse and check the command line; exits 2 on bad usage. */
void run_parse_options(int argc, char **argv, struct run_options *o);
/* --call-graph's word for a RUN_CG_ value: "fp", "dwarf", "none" or "auto". */
const char *run_call_graph_name(int call_graph);
/* The events to count: -e's, the metrics' and the defaults, each checked on this
 * process (exits 2 with why when one named cannot be counted). */
void run_choose_events(struct run_options *o);

#endif
