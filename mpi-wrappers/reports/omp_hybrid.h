/* omp_hybrid.h: a hybrid MPI x OpenMP job's OpenMP efficiencies and its hybrid parallel
 * efficiency (issue 58 item 2; omp_hybrid.c). Each rank asks the project's OMPT tool, when
 * its OpenMP runtime loaded it (papi_run names it, and so does this library: OMP_TOOL_
 * LIBRARIES), for its sums at MPI_Finalize; rank 0 combines them over the ranks:
 *   serialization = sum of the outermost parallel regions' wall / sum of (wall - MPI)
 *   load balance  = sum of useful / sum of (team x largest useful), per region
 *   scheduling    = sum of (team x largest useful) / sum of (team x wall), per region
 *   OpenMP parallel efficiency = their product
 *   hybrid parallel efficiency = MPI parallel efficiency x OpenMP parallel efficiency
 * (POP's and TALP's definitions, over the ranks' time outside MPI: formed in
 * src-c/common/pop_factors.c). */
#ifndef PAPI_MPI_OMP_HYBRID_H
#define PAPI_MPI_OMP_HYBRID_H

#include <stdio.h>

#include "ompt_query.h"

struct jw;

/* One rank's OpenMP (ns): regions -1 when the tool is not loaded in the rank, -2 when
 * libgomp (no OMPT) runs its OpenMP, -3 when another OMPT tool is loaded in its place
 * (other_tool: its file, other_in_program: the program's own ompt_start_tool). */
struct pmpi_omp {
    int regions;
    double parallel_ns, useful_ns, maxu_team_ns, wall_team_ns;
    /* CPU time (the task clock per thread: pop_factors.h's pop_omp_cpu_in), cpu_known 0
     * where the tool did not count it */
    int cpu_known;
    double cpu_ns, cpu_useful_ns, maxc_team_ns;
    int other_in_program;
    char other_tool[64];
};

/* The ranks' sums, on rank 0. */
struct pmpi_omp_job {
    int ranks, ranks_with; /* ranks, and those whose tool answered */
    int ranks_gomp;        /* ranks where libgomp runs OpenMP without the tool */
    int ranks_other;       /* ranks where the runtime started another tool (the first's:) */
    int other_in_program;
    char other_tool[64];
    double parallel_ns, outside_mpi_ns, useful_ns, maxu_team_ns, wall_team_ns;
    int ranks_cpu; /* ranks whose CPU time per thread is known, and its sums: */
    double cpu_ns, cpu_useful_ns, maxc_team_ns;
};

/* This library's own work begins (begin 1: MPI_Init's set-up; MPI_Finalize's report,
 * trace and files, and the MPI's finalize after them, where the ranks wait for rank 0's)
 * or ends (0): told to the tool, which leaves it out of the run's wall time, so that
 * papi_run's serialization is over the program's time, as the report's is. */
void pmpi_omp_tool_work(int begin);
/* At MPI_Init: the tool's sums so far, taken off at MPI_Finalize (regions before MPI_Init,
 * the runtime's start among them, are outside the run the report times). */
void pmpi_omp_start(void);
/* This rank's sums from the tool since pmpi_omp_start (between parallel regions: at
 * MPI_Finalize). */
void pmpi_omp_query(struct pmpi_omp *o);
void pmpi_omp_job_add(struct pmpi_omp_job *j, const struct pmpi_omp *o, double wall_s,
                      double mpi_s);
/* The "openmp" member of wait_states (with its leading ", "), and the banner line; mpi:
 * the run's MPI parallel efficiency. */
void pmpi_omp_json(struct jw *w, const struct pmpi_omp_job *j, double mpi);
void pmpi_omp_print(FILE *out, const struct pmpi_omp_job *j, double mpi);

/* The "openmp" member (with its leading ", ") of this rank's MPI_Pcontrol region slot in
 * its row, from the tool's table q (ompt_query_load at MPI_Finalize): the parallel
 * regions forked while it was the innermost open region, and its OpenMP efficiencies
 * over them, the serialization over its time outside MPI (wall_ns - mpi_ns). Nothing
 * without the tool. */
/* The rank's "openmp" member of its finished row (with its leading ", "): its OpenMP
 * efficiencies since MPI_Init (pmpi_omp_query), the serialization over its time outside
 * MPI (wall_s - mpi_s), as each rank adds to the job's; nothing without the tool. */
void pmpi_omp_row_json(struct jw *w, double wall_s, double mpi_s);
void pmpi_omp_region_json(struct jw *w, const struct ompt_query *q, int slot, long long wall_ns,
                          long long mpi_ns);

#endif
