/* run_sample_opts.h: papi_run's side of --sample before the program (run_sample_opts.c:
 * the event, checked and handed to the preloaded library; the merge after it:
 * run_sample_merge.h). */
#ifndef RUN_SAMPLE_OPTS_H
#define RUN_SAMPLE_OPTS_H

#include "run.h"
#include "run_sample.h"

/* Before the fork: checks the sampled event and the -e events read with it on papi_run
 * itself and sets the program's PAPI_RUN_SAMPLE* variables. An event papi_run cannot
 * encode, a period of 0: one line, exit 2. One the kernel refuses to sample: one line,
 * s->opt.sampling cleared (the program runs counted only) and said in s->note. */
void run_sample_setup(struct run_state *s);

#endif
