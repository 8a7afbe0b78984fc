/* stdout_lines.h: rank 0's banner written to stdout in whole lines. Under mpirun stdout
 * is a pipe the launcher reads and forwards with the other ranks' output; printf's to a
 * block-buffered stdout flush in 4 KiB pieces that end mid-line, and another rank's line
 * then lands inside a banner line. So the banner is printed into a memory stream and
 * written after fflush(stdout) in pieces that end at a newline, each one write(2) of at
 * most PIPE_BUF bytes (a pipe never splits those) into an empty pipe (Open MPI's launcher
 * reads 4 KiB at a time: two pieces queued would be read cut). A terminal (Open MPI's
 * pseudo-terminals) passes any write on in parts, another rank's too: one line per
 * write there, nothing more can be promised. Without the memory stream (no memory) the
 * banner is printed to stdout as before. */
#ifndef PAPI_MPI_STDOUT_LINES_H
#define PAPI_MPI_STDOUT_LINES_H

#include <stddef.h>
#include <stdio.h>

struct pmpi_lines {
    FILE *f;   /* where to print: the memory stream, or stdout */
    char *buf; /* the memory stream's text (open_memstream) */
    size_t len;
};

/* The stream to print into (never NULL). */
FILE *pmpi_lines_open(struct pmpi_lines *l);
/* What was printed, written to stdout in whole lines; the stream closed. */
void pmpi_lines_write(struct pmpi_lines *l);

#endif
