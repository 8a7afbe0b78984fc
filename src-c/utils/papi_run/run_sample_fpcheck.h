/* run_sample_fpcheck.h: --call-graph auto: frame pointers or DWARF, from the executable (run_sample_fpcheck.c). */
#ifndef RUN_SAMPLE_FPCHECK_H
#define RUN_SAMPLE_FPCHECK_H

#include "run_sample.h"

/* The unwinder (dwarf) and the names of the frames: src-c/sampling/stack_unwind.h and
 * frame_names.h. */

/* run_sample_fpcheck.c (--call-graph auto): RS_CG_DWARF when the executable at path
 * (/proc/self/exe) was built without frame pointers, else RS_CG_FP; reason says which
 * facts decided ("auto: PROG built without frame pointers (...)"). */
RS_HIDDEN int rs_fp_decide(const char *path, char *reason, size_t len);

#endif
