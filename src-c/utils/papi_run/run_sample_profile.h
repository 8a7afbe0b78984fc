/* run_sample_profile.h: a process's profile files at exit or before an exec (run_sample_profile.c). */
#ifndef RUN_SAMPLE_PROFILE_H
#define RUN_SAMPLE_PROFILE_H

#include "run_sample.h"

/* run_sample_profile.c: the process's files at exit (profile_RUNID_PID.json), or before
 * an exec replaces its image (_exec: profile_RUNID_PID_execN.json, the first N free);
 * 0 or -1. */
RS_HIDDEN int rs_profile_write(const struct rs_config *c, struct stack_table *t, const char *note);
RS_HIDDEN int rs_profile_write_exec(const struct rs_config *c, struct stack_table *t,
                                    const char *note);

#endif
