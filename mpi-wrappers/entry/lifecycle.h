/* lifecycle.h: the rank's lifetime (lifecycle.c), shared by the hand-written C
 * wrappers and the generated f08 forwarders of Init, Finalize, Abort and Pcontrol. */
#ifndef PAPI_MPI_LIFECYCLE_H
#define PAPI_MPI_LIFECYCLE_H

void pmpi_after_init(void);
int pmpi_before_finalize(void); /* nonzero: the report could not be written (the process
                                 * then exits 74 where it would exit 0) */
/* After the MPI's own finalize: the library's work since pmpi_before_finalize (its report,
 * trace and files, and the MPI's finalize, where the ranks wait for rank 0's) ends. */
void pmpi_after_finalize(void);
void pmpi_before_abort(void);
void pmpi_pcontrol(int level, const char *name);

#endif
