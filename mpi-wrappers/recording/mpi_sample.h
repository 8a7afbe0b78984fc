/* mpi_sample.h: PAPI_SAMPLE=EVENT[@PERIOD|@FREQhz] under the MPI wrapper (mpi_sample.c):
 * every thread with a recording slot samples EVENT; each sample is filed under the
 * function it hit and the rank's innermost open MPI_Pcontrol region, or, while the thread
 * is inside an MPI call, under that call and its call site (the first frame outside MPI
 * and the wrapper). Each sample also stands for the wall time since its thread's previous
 * one (up to 10 periods of a time event, at least 50 ms; the rest of a longer gap, a sleep
 * or a wait for a CPU, is counted apart): the sampled MPI time per calling function. At
 * MPI_Finalize the tables are named (libdw) and summed per rank. */
#ifndef PAPI_MPI_SAMPLE_H
#define PAPI_MPI_SAMPLE_H

#include "state.h"

struct jw;

#define PMPI_SAMPLE_FN_LEN   128
#define PMPI_SAMPLE_FILE_LEN 192

/* One (function, region) of the rank: samples outside MPI in the function, or inside an
 * MPI call (the function is then the call's name, MPI_Barrier ...). */
struct pmpi_sample_fn {
    char function[PMPI_SAMPLE_FN_LEN];
    char region[PMPI_NAME_LEN]; /* "" outside every region */
    long long samples, wall_ns; /* wall_ns: the wall time since each one's previous sample */
};

/* One MPI call site of the rank: the calling function, its file and line, the call, the
 * samples taken inside it and what the wrapper measured there (calls < 0: no site table). */
struct pmpi_sample_mpi {
    char function[PMPI_SAMPLE_FN_LEN];
    char file[PMPI_SAMPLE_FILE_LEN];
    int line, call;
    long long samples, wall_ns, calls, measured_ns;
    uintptr_t site; /* the return address (this rank's) */
};

/* Orders of the entries (qsort's), also of the job's (sample_report.c), whose entries
 * begin with them: by key (function, region; function, file, line, call), and by
 * samples, most first, then key. */
int pmpi_sample_fn_cmp(const void *a, const void *b);
int pmpi_sample_fn_by_samples(const void *a, const void *b);
int pmpi_sample_mpi_cmp(const void *a, const void *b);
int pmpi_sample_mpi_by_samples(const void *a, const void *b);

/* The rank's tables after pmpi_sample_finish, most samples first. */
struct pmpi_sample_rank {
    int threads;
    long long samples, dropped, unattributed_ns;
    long long slowed;          /* times a thread's sampling was made 4x slower */
    long long queue_overflows; /* the process's signal queue full (notifications lost) */
    int nfn, nmpi;
    struct pmpi_sample_fn *fn;
    struct pmpi_sample_mpi *mpi;
};

/* At MPI_Init, after the counters (libpapi initialised), before the slots: reads
 * PAPI_SAMPLE and PAPI_MPI_SAMPLE_TOP. A bad value, or an event that cannot sample, is
 * said once (rank 0, one line naming the variable) and nothing is sampled. */
void pmpi_sample_init(void);
/* MPI_Init's wrapper around pmpi_after_init (which reads PAPI_SAMPLE and starts the
 * thread's sampler): the thread is inside MPI call id, called from site, whether or not
 * it samples (the wrappers' pmpi_sample_enter, record.h, tests pmpi_sampling first). */
void pmpi_sample_hand_enter(int id, void *site);
void pmpi_sample_hand_leave(void);
/* A thread's slot starts / ends (on that thread): its sampling starts / stops. */
void pmpi_sample_thread_start(int slot);
void pmpi_sample_thread_exit(int slot);
/* Region slot opened (open 1) or closed (0) on the rank: the innermost open one is what
 * samples are filed under. Under pmpi_state_lock. */
void pmpi_sample_region(int slot, int open);
/* At MPI_Finalize (t_final set): the calling thread stops sampling; every table is named
 * and summed. */
void pmpi_sample_finish(void);

/* The configuration: 0 when PAPI_SAMPLE is unset; -1 when set but not in force (why:
 * the reason); 1 when sampling. */
int pmpi_sample_state(const char **why);
const char *pmpi_sample_event(void);
/* The period, or the frequency when *hz is set, as PAPI_SAMPLE asked. */
long long pmpi_sample_period(int *hz);
/* The one the threads started sampling at (PAPI_get_overflow_rate: slower than asked
 * where a thread would take over 10,000 signals a second); the asked one before. */
long long pmpi_sample_used(void);
/* Seconds of the event per sample at the rate used (a time event: task-clock,
 * cpu-clock), else 0. */
double pmpi_sample_seconds(void);
/* Entries each rank lists (PAPI_MPI_SAMPLE_TOP); the rest are summed. */
int pmpi_sample_top(void);
/* The rank's tables (NULL before pmpi_sample_finish or when not sampling). */
const struct pmpi_sample_rank *pmpi_sample_rank(void);
/* The row's member ", \"sampling\": {...}": the rank's top entries; nothing before
 * pmpi_sample_finish (checkpoint and exit rows) or when not sampling. */
void pmpi_sample_row_json(struct jw *w);

#endif
