/* gpu_row.h: a rank's GPU activity (CUPTI's kernels, copies, memsets, synchronisation),
 * asked of libpapi's one GPU activity layer (papi_gpu_activity.h), in its row
 * (gpu_row.c). */
#ifndef PMPI_GPU_ROW_H
#define PMPI_GPU_ROW_H

struct jw;
struct pmpi_region;
struct tbuf;

/* At MPI_Init: the layer started as PAPI_GPU_ACTIVITY says (by default where the program
 * loaded CUDA), and with PAPI_MPI_TRACE set its operations kept for the trace's GPU
 * tracks. */
void pmpi_gpu_start(void);
/* A row made with the lock (MPI_Finalize, a checkpoint): CUPTI flushed, then the row's
 * member "gpu" (the status and the run's totals so far), or "gpu_note" when it does not
 * fit the row's buffer t (w's sink, whose free room the layer writes into); nothing when
 * the layer was never asked. */
void pmpi_gpu_row_json(struct jw *w, struct tbuf *t);
/* An MPI_Pcontrol region's GPU activity: its begin (before its counters are read) and its
 * end (after), under pmpi_state_lock; in a row (made with the lock) its member "gpu", or
 * "gpu_note" where the row's buffer t is short. */
void pmpi_gpu_region_begin(struct pmpi_region *r);
void pmpi_gpu_region_end(struct pmpi_region *r);
void pmpi_gpu_region_json(struct jw *w, struct tbuf *t, const struct pmpi_region *r);
/* What the host/device POP factors are formed from (pop_factors.h), in seconds: the
 * rank's since MPI_Init (r NULL; CUPTI flushed first) or its MPI_Pcontrol region r's
 * instances: t[0] the GPUs' useful time, t[1] their copies and memsets, t[2] the host's
 * wait in synchronisation. 1, or 0 (t zeroed) where the layer never recorded. */
int pmpi_gpu_pop_times(const struct pmpi_region *r, double t[3]);
/* At MPI_Finalize: the records CUPTI dropped said in one line, if any. */
void pmpi_gpu_say_losses(void);

#endif
