/* run_merge_dir.h: papi_run --merge DIR: the merge of an older run's processes' profiles (run_merge_dir.c). */
#ifndef RUN_MERGE_DIR_H
#define RUN_MERGE_DIR_H

#include "run.h"

/* papi_run --merge DIR [--run ID] (run_merge_dir.c): run_sample_merge on the processes'
 * files of an existing output folder, no program run. 0; 2 (one line said why: no such
 * folder, no profiles, no profiles of run ID) with nothing written; 1 when the merge
 * could not be written. */
int run_merge_dir(struct run_state *s);

#endif
