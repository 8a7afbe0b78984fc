/* run_sample_header.h: the run and metric items of a stacks block (run_sample_header.c). */
#ifndef RUN_SAMPLE_HEADER_H
#define RUN_SAMPLE_HEADER_H

#include <stdio.h>
#include "run_sample.h"

/* The item lines of run (PAPI_RUN_SAMPLE_RUN: "START\tHOST\tCOMMAND"; none when NULL or not so)
 * and of metrics (PAPI_RUN_SAMPLE_METRICS; may be NULL). */
RS_HIDDEN void rs_header_write(FILE *f, const char *run, const char *metrics);
/* 1 when line is one of those items (its value read into h), else 0. */
RS_HIDDEN int rs_header_read(const char *line, struct rs_header *h);

#endif
