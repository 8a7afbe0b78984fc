/* ompt_query.h: what the project's OMPT tool (src-c/ompt, libpapi_ompt.so) answers the
 * region API's report and the MPI wrapper: its parallel regions by context, the named
 * region and MPI_Pcontrol region each was forked in (papi_region_context.h), with their
 * efficiencies and each context's efficiency sums. The tool exports
 *     int papi_ompt_query_table(unsigned version, struct papi_ompt_table *out);
 *     void papi_ompt_query_free(struct papi_ompt_table *t);
 * found by ompt_query_lookup (the runtime loads the tool privately, RTLD_LOCAL). Asked
 * between parallel regions (at a report); the tool's state stays after its finalize. */
#ifndef PAPI_OMPT_QUERY_H
#define PAPI_OMPT_QUERY_H

#include "pop_factors.h"

#define PAPI_OMPT_QUERY_VERSION 3 /* 2: site, unmeasured_tasks (issue 69); 3: constructs */
#define PAPI_OMPT_NAME_LEN      320
#define PAPI_OMPT_KIND_LEN      16

/* One parallel region in one context. Efficiencies: -1 where one cannot be formed. */
struct papi_ompt_parallel {
    char name[PAPI_OMPT_NAME_LEN]; /* function (file:line), as the tool's file names it */
    char site[PAPI_OMPT_NAME_LEN]; /* what tells apart the regions of one name (its file's
                                    * "site"): "" where nothing needs to */
    unsigned long long address, instances, outermost_instances, wall_ns, lost_ns;
    unsigned team_max;
    double load_balance, scheduling, parallel;
    /* Implicit tasks run by threads without a slot of the tool's (more threads alive at
     * once than it keeps): their work unknown, the efficiencies above -1 where any. */
    unsigned long long unmeasured_tasks;
};

/* One context: named 0 outside every named region, mpi -1 outside every MPI_Pcontrol
 * region, dropped 1 for forks past the tool's table of contexts. The sums of its regions
 * all of whose instances were outermost (pop_factors.h): their wall time, useful
 * time, team x largest useful time and team x wall time, ns. */
struct papi_ompt_context {
    long named;
    int mpi, dropped;
    double parallel_ns, useful_ns, maxu_team_ns, wall_team_ns;
    int first, count;                    /* its rows in the table's regions */
    unsigned long long unmeasured_tasks; /* its regions' (left out of the sums above) */
};

/* One OpenMP construct (issue 73: ompt.schema.json's constructs), its threads summed:
 * entries, time inside and waits, and the thread number that waited most (-1: none
 * waited). */
struct papi_ompt_construct {
    char kind[PAPI_OMPT_KIND_LEN]; /* "loop", "critical", "lock", "task", ... */
    char name[PAPI_OMPT_NAME_LEN]; /* function (file:line), the source's function */
    int region;                    /* its parallel region's row in regions, -1: none */
    unsigned threads;              /* thread numbers that met it */
    int max_wait_thread;
    unsigned long long entries, time_ns, wait_ns, max_wait_ns;
};

struct papi_ompt_table {
    int ncontexts, nregions, nconstructs;
    struct papi_ompt_context *contexts;
    struct papi_ompt_parallel *regions;
    struct papi_ompt_construct *constructs; /* the longest time plus wait first */
};

/* The OpenMP worker threads' share of a process's counts (issue 58 item 5), for the
 * region API's all-thread totals at O(1): the events each worker counts over its
 * outermost implicit tasks (from the task's begin to each barrier's begin, its join
 * barrier's included: its work, the waits inside, not the join wait nor the time between
 * regions), summed over the workers as they reach each barrier, so that the sums hold a
 * parallel region's worker counts once its join is passed. The tool exports
 *     struct papi_ompt_share *papi_ompt_query_share(unsigned version);
 * (NULL when its counters are off). Read with relaxed loads: the runtime's join orders
 * the workers' adds before the master's read after it. */
#define PAPI_OMPT_SHARE_EVENTS 8
struct papi_ompt_share {
    int nevents;
    const char *names[PAPI_OMPT_SHARE_EVENTS]; /* the tool's events, as named */
    _Atomic unsigned long long sums[PAPI_OMPT_SHARE_EVENTS];
    _Atomic unsigned long long missed; /* worker task spans not added (not counted) */
    _Atomic unsigned long long threads_begun, threads_ended; /* OpenMP threads, initial apart */
    _Atomic long long teams_open; /* outermost parallel regions forked, not joined */
};
typedef struct papi_ompt_share *(*papi_ompt_query_share_fn)(unsigned version);

/* The MPI wrapper's own work (its MPI_Finalize: the report, the trace, the files, and the
 * MPI's finalize after them, where the ranks wait for rank 0's; its set-up in MPI_Init),
 * which the measurement costs and the program does not do: the
 * wrapper tells the tool as it begins (begin 1) and ends (0), and the tool leaves it out
 * of the run's wall time (ompt.schema.json's wall_ns, excluded_ns), so that the
 * serialization papi_run shows is over the program's time, as the wrapper's own is
 * (issue 69 item 5). The tool exports
 *     void papi_ompt_query_tool_work(unsigned version, int begin); */
typedef void (*papi_ompt_query_tool_work_fn)(unsigned version, int begin);

typedef int (*papi_ompt_query_table_fn)(unsigned version, struct papi_ompt_table *out);
typedef void (*papi_ompt_query_free_fn)(struct papi_ompt_table *t);

/* The tool's exported symbol, when a loaded object is libpapi_ompt.so, else NULL; *gomp
 * (when not NULL) is set to whether libgomp (no OMPT) runs the program: it is loaded and
 * no runtime with OMPT (LLVM's libomp, Intel's libiomp5) is. */
void *ompt_query_lookup(const char *symbol, int *gomp);

/* Another OMPT tool, which an OpenMP runtime starts in place of the project's (it starts
 * one tool: first an ompt_start_tool the program's objects export, then the first of
 * OMP_TOOL_LIBRARIES that accepts): the first loaded object other than libpapi_ompt.so
 * and the runtimes (which define the OpenMP API and a stand-in ompt_start_tool) that
 * exports an ompt_start_tool of its own. 0 with its file name in name (the executable's
 * for the program's own, *in_program then 1), or -1 when there is none (or OMP_TOOL is
 * disabled: the runtime starts none). */
int ompt_query_other_tool(char *name, size_t len, int *in_program);

/* The tool's table now, for a report: have 0 when the tool is not loaded or answers
 * nothing (ompt_query_free gives it back). */
struct ompt_query {
    int have;
    struct papi_ompt_table table;
    papi_ompt_query_free_fn release;
};
void ompt_query_load(struct ompt_query *q);
void ompt_query_free(struct ompt_query *q);

/* The OpenMP efficiencies (pop_factors.h, each ratio cut to 1) of contexts' summed sums
 * over span_ns (the span the serialization is over). */
struct pop_omp_factors ompt_query_efficiency(const struct papi_ompt_context *sum, double span_ns);
/* The constructs of the table's parallel region row (its "constructs" member: kind, name,
 * entries, threads, time, wait, the thread that waited most; times as ns, or as seconds
 * where seconds), into the object w writes. */
struct jw;
void ompt_query_constructs_json(struct jw *w, const struct papi_ompt_table *t, int row,
                                int seconds);
/* Adds context c's sums to sum (parallel, useful, team x max useful, team x wall, the
 * unmeasured tasks). */
void ompt_query_add(struct papi_ompt_context *sum, const struct papi_ompt_context *c);

#endif
