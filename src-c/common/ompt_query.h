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

#define PAPI_OMPT_QUERY_VERSION 1
#define PAPI_OMPT_NAME_LEN      320

/* One parallel region in one context. Efficiencies: -1 where one cannot be formed. */
struct papi_ompt_parallel {
    char name[PAPI_OMPT_NAME_LEN]; /* function (file:line), as the tool's file names it */
    unsigned long long address, instances, outermost_instances, wall_ns, lost_ns;
    unsigned team_max;
    double load_balance, scheduling, parallel;
};

/* One context: named 0 outside every named region, mpi -1 outside every MPI_Pcontrol
 * region, dropped 1 for forks past the tool's table of contexts. The sums of its regions
 * all of whose instances were outermost (ompt_efficiency.h): their wall time, useful
 * time, team x largest useful time and team x wall time, ns. */
struct papi_ompt_context {
    long named;
    int mpi, dropped;
    double parallel_ns, useful_ns, maxu_team_ns, wall_team_ns;
    int first, count; /* its rows in the table's regions */
};

struct papi_ompt_table {
    int ncontexts, nregions;
    struct papi_ompt_context *contexts;
    struct papi_ompt_parallel *regions;
};

typedef int (*papi_ompt_query_table_fn)(unsigned version, struct papi_ompt_table *out);
typedef void (*papi_ompt_query_free_fn)(struct papi_ompt_table *t);

/* The tool's exported symbol, when a loaded object is libpapi_ompt.so, else NULL; *gomp
 * (when not NULL) is set to whether libgomp (no OMPT) is loaded. */
void *ompt_query_lookup(const char *symbol, int *gomp);

#endif
