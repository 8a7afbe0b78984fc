/* folded.h: flamegraph.pl's folded lines, "root;...;leaf W", written in one place
 * (folded.c): papi_run's merge writes the job's profile.folded and profile.EVENT.folded
 * with one weight each (its processes hand their stacks over as stacks blocks,
 * src-c/utils/papi_run/run_sample_stacks.h, not as folded lines). */
#ifndef PAPI_FOLDED_H
#define PAPI_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One line: the n frames (root first) joined by ';', then the nw weights. */
__attribute__((visibility("hidden"))) void folded_line(FILE *f, const char *const *frame, size_t n,
                                                       const uint64_t *w, int nw);
/* The file of the first (sampled) event, profile.folded, or profile.EVENT.folded with
 * characters other than letters, digits, '.', '-' and '_' as '_'. */
__attribute__((visibility("hidden"))) void folded_file_name(char *out, size_t len,
                                                            const char *event, int first);

#endif
