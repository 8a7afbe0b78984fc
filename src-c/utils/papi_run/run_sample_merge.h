/* run_sample_merge.h: the processes' profiles merged after the program, the banner's lines (run_sample_merge.c). */
#ifndef RUN_SAMPLE_MERGE_H
#define RUN_SAMPLE_MERGE_H

#include "run.h"

/* Appends text to the run's note (said in the banner). */
void run_sample_note(struct run_state *s, const char *text);
/* After the program: every process's .sample_RUNID_PID.txt of this run (all ranks of a
 * job share the run id) merged under a lock into profile.folded (weighted by the sampled
 * event), profile.EVENT.folded per -e event and job_profile_RUNID.json (the job's
 * profile papi_report reads); the last rank to end writes the whole job's. 0, or -1 with
 * why on stderr. */
int run_sample_merge(struct run_state *s);
/* The banner's call-graph line(s): the mode, and with auto what each process took and why. */
void run_sample_call_graph(const struct run_state *s);
/* The banner's last lines: the top functions by their self share. */
void run_sample_banner(const struct run_state *s);

#endif
