/* partial_rows.h: the fault path (partial_rows.c): a rank that never reaches
 * MPI_Finalize leaves its row; checkpoints with PAPI_MPI_CHECKPOINT. */
#ifndef PAPI_MPI_PARTIAL_ROWS_H
#define PAPI_MPI_PARTIAL_ROWS_H

/* At the end of MPI_Init: earlier rows removed, atexit, handlers, checkpoint thread. */
void pmpi_partial_install(void);
/* An exit path in normal context (MPI_Abort): the row with this reason. */
void pmpi_partial_write(const char *reason);
/* MPI_Finalize reached: the checkpoint thread stops, no partial row remains. */
void pmpi_partial_finished(void);
/* MPI_Finalize done with the report (and the library's unload): the signal handlers
 * replaced at MPI_Init are back. */
void pmpi_partial_uninstall(void);

#endif
