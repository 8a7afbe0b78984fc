/* counter_mpx.h: multiplexed event sets for the rank's counters and the running
 * fraction of each named metric (counter_mpx.c). */
#ifndef PAPI_MPI_COUNTER_MPX_H
#define PAPI_MPI_COUNTER_MPX_H

/* At MPI_Init: PAPI_MULTIPLEX (set at all = on, as the region API reads it). */
void pmpi_mpx_init(void);
/* Whether the rank's sets are multiplexed, and why (NULL when they are not). */
int pmpi_mpx_on(void);
const char *pmpi_mpx_note(void);
/* Turn multiplexing on because event does not fit with the others (why: the library's
 * reason); off again when that did not help. */
void pmpi_mpx_force(const char *event, const char *why);
void pmpi_mpx_unforce(void);
/* Make the stopped set es multiplexed when multiplexing is on; PAPI_OK or the error. */
int pmpi_mpx_make(int es);
/* Running fractions: a row's start (the threads that ended), each live thread's set
 * (its n events are the rank's events idx[0..n-1]), a thread that ends (folded into
 * the ended ones), and each named metric's least fraction of its events. */
void pmpi_mpx_row_begin(void);
void pmpi_mpx_fold(int es, const int *idx, int n, int retire);
void pmpi_mpx_metric_fractions(double *out);

#endif
