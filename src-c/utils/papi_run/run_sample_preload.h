/* run_sample_preload.h: the sampling library's exec path (run_sample_preload.c). */
#ifndef RUN_SAMPLE_PRELOAD_H
#define RUN_SAMPLE_PRELOAD_H

#include "run_sample.h"

/* run_sample_preload.c, for run_sample_exec.c: before an exec, the image's samples drained
 * and written; 1 when this process was sampled (then rs_exec_failed when the exec returns). */
RS_HIDDEN int rs_before_exec(void);
RS_HIDDEN void rs_exec_failed(void);

#endif
