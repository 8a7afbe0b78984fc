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

/* The CRC-32 (IEEE 802.3, as zlib's crc32() and Python's zlib.crc32 compute it) of n bytes
 * after crc (0 to start): the job file records each folded file's, so papi_report can tell
 * the file is still its run's. Here, not zlib's: the arm64 sysroot of the PMU lane has no
 * zlib, and papi_run builds there. */
__attribute__((visibility("hidden"))) uint32_t folded_crc32(uint32_t crc, const void *p, size_t n);

#endif
