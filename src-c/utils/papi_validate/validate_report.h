/* validate_report.h: papi_validate's output: the table on stdout and the --json file,
 * written under a temporary name and renamed into place (whole or not at all). */
#ifndef VALIDATE_REPORT_H
#define VALIDATE_REPORT_H

#include <stdio.h>

#include "validate_run.h"

struct vo_file {
    FILE *f;
    char tmp[4096];
    char path[4096];
};

/* Creates the temporary beside path; 0, or -1 with why (directory missing, not
 * writable ...). Called before counting, so a bad path costs nothing. */
int vo_open(struct vo_file *o, const char *path, char *why, size_t len);
/* Writes the document and renames it over path; 0, or -1 with why (nothing left). */
int vo_commit(struct vo_file *o, const struct vr_run *run, int status, char *why, size_t len);
void vo_abort(struct vo_file *o);

/* The table; a reason that holds for the whole machine (no hardware counters) is said
 * once above it and each row refers to it: 1 when it was said, else 0. */
int vo_print_table(FILE *f, const struct vr_run *run);

#endif
