/* ompt_construct_report.h: the constructs merged (the threads' pairs summed per
 * construct and thread number, at a report, after the runtime's joins), named as regions
 * are, and their member of the tool's file (ompt_construct_report.c,
 * schema/ompt.schema.json's constructs). */
#ifndef PAPI_OMPT_CONSTRUCT_REPORT_H
#define PAPI_OMPT_CONSTRUCT_REPORT_H

#include "ompt_merge.h"
#include "ompt_names.h"
#include "symbolizer.h"

struct ompt_construct_row {
    int index, kind;   /* its place in the constructs' table, its kind (ompt_constructs.h) */
    int region;        /* its parallel region's index in the regions' table, -1: none */
    int row;           /* that region's row in the merged regions, -1: none */
    unsigned nthreads; /* thread numbers, the rows of threads */
    struct ompt_cacc *threads; /* by thread number: the OS threads' pairs summed */
    uint64_t entries, time_ns, wait_ns, created, trip; /* summed; trip: the most a thread saw */
    struct ompt_name name; /* named by the function the source wrote it in */
};

struct ompt_construct_rows {
    struct ompt_construct_row *rows; /* the longest time plus wait first */
    int n;
};

/* The constructs merged into out, named with sym (NULL: by address), each with its
 * region's row in m: 0, or -1 when out of memory (out empty). */
OMPT_HIDDEN int ompt_constructs_merge(struct ompt_construct_rows *out, struct symbolizer *sym,
                                      const struct ompt_merged *m, const struct ompt_name *names);
OMPT_HIDDEN void ompt_construct_rows_free(struct ompt_construct_rows *c);

/* Construct i named (as the file names it: by the function the source wrote it in). */
OMPT_HIDDEN void ompt_construct_name(struct symbolizer *sym, int i, struct ompt_name *n);

struct jw;
/* "constructs" (an array) into the object w writes (null when out of memory); names are
 * the merged regions' (m's order). */
OMPT_HIDDEN void ompt_constructs_put(struct jw *w, struct symbolizer *sym,
                                     const struct ompt_merged *m, const struct ompt_name *names);
/* Pairs that found no room in a thread's table (not measured). */
OMPT_HIDDEN uint64_t ompt_constructs_pair_drops(void);

#endif
