/* ompt_report.h: the tool's file, written once at finalize (ompt_report.c): the run's
 * OpenMP efficiencies and its parallel regions, each named `function (file:line)`,
 * with its instances, team sizes, wall time, efficiencies and its threads' work and
 * waits (schema/ompt.schema.json). */
#ifndef PAPI_OMPT_REPORT_H
#define PAPI_OMPT_REPORT_H

#include <stdint.h>

#include <stddef.h>

#include "ompt_merge.h"
#include "ompt_names.h"
#include "ompt_regions.h"
#include "pop_factors.h"
#include "symbolizer.h"

#define OMPT_UNSUPPORTED_MAX 16

/* What the tool learnt at its start: the runtime and the callbacks it declined. */
struct ompt_run_info {
    char runtime[160];
    unsigned omp_version;
    const char *unsupported[OMPT_UNSUPPORTED_MAX];
    int nunsupported;
    /* The constructs' callbacks it declined (their detail missing, nothing else). */
    const char *declined_detail[OMPT_UNSUPPORTED_MAX];
    int ndeclined_detail;
    uint64_t wall_ns;     /* the runtime's start to finalize, less excluded_ns */
    uint64_t excluded_ns; /* the MPI wrapper's own work in it (papi_ompt_query_tool_work) */
};

/* Writes ompt_PID.json into PAPI_OMPT_OUTPUT_DIR (default papi_ompt_output, made when
 * missing); under papi_run (PAPI_RUN_OMPT_TABLE_FILE set) appends the same document to that
 * hand-over file instead (handover_file.h, kind "omp_table": a "j LINE" item per line). 0,
 * or -1 with one line on stderr saying which file and why not. */
OMPT_HIDDEN int ompt_report_write(const struct ompt_run_info *info);
/* The run's efficiency sums so far, its outermost parallel time among them, and the CPU-time
 * sums of the outermost regions whose task clock was counted per thread (cpu all 0 where
 * none was) (the MPI wrapper's query, ompt_tool.c): the regions merged, or -1 when out of
 * memory. */
OMPT_HIDDEN int ompt_report_sums(struct pop_omp_in *sums, struct pop_omp_cpu_in *cpu);

/* A merged region's efficiencies, adding it to sums (when not NULL) only where all its
 * instances were outermost; none (all negative: null) where threads without a slot ran
 * some of its tasks (unmeasured_tasks: their work is unknown), and then not added. And
 * the thread time lost in it (ns). */
OMPT_HIDDEN struct pop_omp_factors ompt_report_efficiency(const struct ompt_region_row *r,
                                                          struct pop_omp_in *sums);
OMPT_HIDDEN uint64_t ompt_report_lost_ns(const struct ompt_region_row *r);
/* The merged rows' names (m's order), rows of one code address alike, told apart
 * (ompt_names_apart); NULL when out of memory (free it). */
OMPT_HIDDEN struct ompt_name *ompt_report_names(struct symbolizer *sym,
                                                const struct ompt_merged *m);

#endif
