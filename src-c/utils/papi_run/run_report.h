/* run_report.h: papi_run's region file (run_report.c). */
#ifndef RUN_REPORT_H
#define RUN_REPORT_H

#include "run.h"

/* The region file under -o: 0, or 1 on a write error (said on stderr). */
int run_write_file(const struct run_state *s, const struct run_threads *t);

#endif
