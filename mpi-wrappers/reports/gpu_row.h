/* gpu_row.h: a rank's GPU activity (CUPTI's kernels, copies, memsets, synchronisation),
 * asked of libpapi's one GPU activity layer (papi_gpu_activity.h), in its row
 * (gpu_row.c). */
#ifndef PMPI_GPU_ROW_H
#define PMPI_GPU_ROW_H

struct tbuf;

/* At MPI_Init: the layer started as PAPI_GPU_ACTIVITY says (by default where the program
 * loaded CUDA). */
void pmpi_gpu_start(void);
/* A row made with the lock (MPI_Finalize, a checkpoint): CUPTI flushed, then the row's
 * member ", \"gpu\": {...}" (the status and the run's totals so far), or ", \"gpu_note\":
 * ..." when it does not fit the row's buffer; nothing when the layer was never asked. */
void pmpi_gpu_row_json(struct tbuf *t);
/* At MPI_Finalize: the records CUPTI dropped said in one line, if any. */
void pmpi_gpu_say_losses(void);

#endif
