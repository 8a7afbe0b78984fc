/* run_omp_live.h: the OpenMP figures of each --interval sample (issue 73 item 6): the
 * OMPT tool's running sums, shared in memory with the program's first process that
 * starts the tool (src-c/common/ompt_live.h), read at each sample into the series'
 * last RUN_OMP_LIVE_COLUMNS columns (running sums, so that merged samples still add up),
 * and each interval's figures written from their differences. */
#ifndef PAPI_RUN_OMP_LIVE_H
#define PAPI_RUN_OMP_LIVE_H

/* The series' columns after the events: useful, team x largest useful, team x wall and
 * parallel time (ns, ompt_live_sums). */
#define RUN_OMP_LIVE_COLUMNS 4

struct run_state;
struct jw;

/* Before the fork, with the tool named and --interval: the shared file made and mapped,
 * named to the tool in PAPI_RUN_OMPT_LIVE_FILE; nothing (said on stderr) where it cannot
 * be. */
void run_omp_live_prepare(struct run_state *s);
/* At a sample: the sums now into v[0..RUN_OMP_LIVE_COLUMNS) (0s without the tool). */
void run_omp_live_columns(struct run_state *s, long long *v);
/* Sample k's "openmp" member, when a process's tool wrote the sums. */
void run_omp_live_write(struct jw *w, const struct run_state *s, int k);
/* The mapping and its file gone. */
void run_omp_live_free(struct run_state *s);

#endif
