/* papi_hl_rank.h: how an MPI layer tells the high-level region report its rank.
 *
 * The region API (PAPI_hl_region_begin/end) writes one JSON report per process at exit,
 * papi_hl_output/rank_XXXXXX.json under PAPI_OUTPUT_DIRECTORY (default: the current
 * directory). Without this call the rank comes from the launcher's environment
 * (PMI_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID, MPI_LOCALRANKID), and
 * without those the process id names the file. */
#ifndef PAPI_HL_RANK_H
#define PAPI_HL_RANK_H

#include "papi_api_begin.h"

/* Set this process's rank (MPI_COMM_WORLD), e.g. from a PMPI wrapper of MPI_Init.
 * Returns PAPI_OK, or PAPI_EINVAL for a negative rank. May be called before or after
 * the first region and before PAPI_library_init. */
int papi_hl_set_rank(int rank);

/* Write the report now (e.g. from MPI_Finalize, while the file system and MPI are still
 * up). The report is written again at exit if regions ran since. Returns PAPI_OK, or
 * PAPI_ESYS when the file cannot be written (the reason goes to PAPI_perror). */
int papi_hl_write_report(void);

#include "papi_api_end.h"

#endif
