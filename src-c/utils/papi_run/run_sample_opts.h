/* run_sample_opts.h: papi_run's side of --sample (run_sample_opts.c: the event, checked
 * and handed to the preloaded library; run_sample_merge.c: the processes' profiles
 * merged into the folded files and the banner's top functions). */
#ifndef RUN_SAMPLE_OPTS_H
#define RUN_SAMPLE_OPTS_H

#include "run.h"
#include "run_sample.h"

/* Before the fork: checks the sampled event and the -e events read with it on papi_run
 * itself and sets the program's PAPI_RUN_SAMPLE* variables. An event papi_run cannot
 * encode, a period of 0: one line, exit 2. One the kernel refuses to sample: one line,
 * s->opt.sampling cleared (the program runs counted only) and said in s->note. */
void run_sample_setup(struct run_state *s);

/* A -m metric evaluated per function: its events' places among the sampled event and
 * the events read with it (rs_config.name), in the order of PAPIM_metric_info_t's
 * event_names. */
struct run_sample_metric {
    char name[PAPI_MIN_STR_LEN], unit[PAPI_MIN_STR_LEN];
    int nev;
    char ev[1 + RS_MAX_READ][RS_NAME_LEN];
    int slot[1 + RS_MAX_READ];
};
/* The metrics computed per function (those of -m that fit), n of them. */
const struct run_sample_metric *run_sample_metrics(int *n);
/* Appends text to the run's note (said in the banner). */
void run_sample_note(struct run_state *s, const char *text);

/* After the program: every process's .sample_RUNID_PID.txt of this run (all ranks of a
 * job share the run id) merged under a lock into profile.folded (weighted by the sampled
 * event), profile.EVENT.folded per -e event and job_profile_RUNID.json (the job's
 * profile papi_report reads); the last rank to end writes the whole job's. 0, or -1 with
 * why on stderr. */
int run_sample_merge(struct run_state *s);
/* papi_run --merge DIR [--run ID] (run_merge_dir.c): run_sample_merge on the processes'
 * files of an existing output folder, no program run. 0; 2 (one line said why: no such
 * folder, no profiles, no profiles of run ID) with nothing written; 1 when the merge
 * could not be written. */
int run_merge_dir(struct run_state *s);
/* The banner's call-graph line(s): the mode, and with auto what each process took and why. */
void run_sample_call_graph(const struct run_state *s);
/* The banner's last lines: the top functions by their self share. */
void run_sample_banner(const struct run_state *s);

#endif
