/* report_files.h: one file written by all ranks together (report_files.c). */
#ifndef PAPI_MPI_REPORT_FILES_H
#define PAPI_MPI_REPORT_FILES_H

#include <stddef.h>

#define PMPI_TMP_NAME 256

/* Collective: the file written under a temporary name (tmp, PMPI_TMP_NAME bytes; ""
 * when none could be made). Returns nonzero on every rank when some rank's part was
 * not written whole. bytes: what this rank handed over, added. */
int pmpi_write_shared(const char *name, const char *head, size_t head_len, const char *body,
                      size_t body_len, const char *sep, const char *tail, long long *bytes,
                      char *tmp);
/* Collective: the n temporaries published under their names, all or (bad, or one
 * rename failed) none. Returns nonzero when nothing was published. */
int pmpi_publish_shared(const char *const *names, char (*tmps)[PMPI_TMP_NAME], int n, int bad);

#endif
