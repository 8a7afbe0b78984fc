/* profile_writer.h: the one writer of what the producers of samples share (issue 57),
 * through the common JSON writer and schema/profile.schema.json's $defs: a frame
 * named (function, module, file, line), a function's samples in a region, a stack's
 * counts per event. Each producer writes around them only its own fields: papi_run its
 * run header and threads' stacks (run_sample_profile.c), the region API its threads
 * (region_sample.c), the MPI wrapper its job-wide sampling (sample_report.c: written
 * with a jw, then added to the report's text buffer). */
#ifndef PAPI_SAMPLING_PROFILE_WRITER_H
#define PAPI_SAMPLING_PROFILE_WRITER_H

#include <stdint.h>

struct jw; /* json_writer.h */

struct profile_frame {
    const char *name;   /* the function (demangled, module::procedure), or module+0xOFFSET */
    const char *module; /* the file's base name */
    const char *file;   /* source file, NULL when unknown: file and line left out */
    int line;
};

/* {"name", "module"[, "file", "line"]}: an element of an array of frames. */
void profile_frame_write(struct jw *w, const struct profile_frame *f);

/* {"function", "region" (null when NULL: outside every region), "samples"}: an element;
 * _fields writes the three into an open object, whose producer adds its own after. */
void profile_function_write(struct jw *w, const char *function, const char *region,
                            unsigned long long samples);
void profile_function_fields(struct jw *w, const char *function, const char *region,
                             unsigned long long samples);

/* "function", "file", "line" of a call site into an open object (the MPI wrapper's MPI
 * time by calling function). */
void profile_site_fields(struct jw *w, const char *function, const char *file, int line);

/* "metrics": the -m metrics papi_run computes per function, from text (a line per metric:
 * NAME, UNIT, FORMULA, then EVENT, PLACE pairs, tab separated; PAPI_RUN_SAMPLE_METRICS):
 * each with its formula and the place of each of its events among the nw events, so that
 * a reader evaluates it from any sum of the counts (a function's, a rank's). Lines that
 * are not papi_run's, or name a place past nw, are left out. */
void profile_metrics_write(struct jw *w, const char *text, int nw);

/* key: [n counts], one per event. */
void profile_counts_write(struct jw *w, const char *key, const uint64_t *counts, int n);

#endif
