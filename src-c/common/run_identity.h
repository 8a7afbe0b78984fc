/* run_identity.h: what names one run in its files (run_identity.c): the run id, the same
 * for every rank or process of one job and different for two runs, even concurrent ones
 * on one host, and the rest of the "run" header (command, start, host). Written by
 * papi_run and the region API (region_file_head.h), read by papi_report to keep runs
 * apart. */
#ifndef RUN_IDENTITY_H
#define RUN_IDENTITY_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define RI_HIDDEN    __attribute__((visibility("hidden")))
#define RUN_ID_LEN   96
#define RUN_CMD_LEN  4096
#define RUN_HOST_LEN 256

/* The characters of a run id (it goes into file names): a reader of PAPI_RUN_ID or --run
 * checks an id against them. */
#define RUN_ID_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

/* The "run" header of a region file (runheader.md): cpu and version are the caller's. */
struct run_identity {
    char id[RUN_ID_LEN];
    char command[RUN_CMD_LEN];
    char start[32]; /* ISO 8601 UTC */
    char host[RUN_HOST_LEN];
    const char *cpu, *version;
};

/* The run id, characters [A-Za-z0-9._-] only (it goes into file names):
 * - PAPI_RUN_ID when use_env and it is set (papi_run sets it for its program, so the
 *   program's region files name papi_run's run);
 * - in a rank of a launched job (PMI_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK or
 *   SLURM_PROCID set), the job's id from the launcher: PMIX_NAMESPACE (Open MPI 5, PMIx
 *   launchers), OMPI_MCA_ess_base_jobid (Open MPI 4), the --control-port and --pgid of
 *   the hydra_pmi_proxy above this process (MPICH's hydra, whose environment names no
 *   job), SLURM_JOB_ID.SLURM_STEP_ID (srun);
 * - else host-pid-start (start: seconds and nanoseconds of CLOCK_REALTIME). */
RI_HIDDEN void run_id_make(char *id, size_t len, int use_env, pid_t pid, time_t start_s,
                           long start_ns);
/* The rank a job launcher gave this process (PMI_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK,
 * SLURM_PROCID, the first set with a rank in it) and *source the variable; -1 and NULL
 * outside a launched job. */
RI_HIDDEN int run_launcher_rank(const char **source);
/* The number of ranks of that job (PMI_SIZE, OMPI_COMM_WORLD_SIZE, SLURM_NTASKS, the
 * first set with a count in it); -1 when none says. */
RI_HIDDEN int run_launcher_size(void);
/* t as "2026-11-25T01:02:03Z". */
RI_HIDDEN void run_time_utc(time_t t, char *buf, size_t len);
/* When this process started (seconds since the epoch), 0 when unknown. */
RI_HIDDEN time_t run_process_start(void);
/* The header of this process (the region API): id (PAPI_RUN_ID first), command from
 * /proc/self/cmdline, the process's start, the host; cpu and version as given. */
RI_HIDDEN void run_identity_self(struct run_identity *r, const char *cpu, const char *version);

#endif
