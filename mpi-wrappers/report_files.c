/* report_files.c: one shared file written by all ranks with MPI-IO. Each rank writes
 * its own bytes at an offset from an exclusive prefix sum of the lengths, so no rank
 * ever holds more than its own row (rank 0 adds the head, the last rank the tail).
 * Returns nonzero when this rank's part failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi_mpi_internal.h"

int pmpi_write_shared(const char *path, const char *head, size_t head_len, const char *body,
                      size_t body_len, const char *sep, const char *tail, long long *bytes)
{
    int rank = pmpi_g.rank, last = pmpi_g.nranks - 1, err = 0;
    size_t sep_len = rank ? strlen(sep) : 0, tail_len = rank == last ? strlen(tail) : 0;
    size_t len = (rank == 0 ? head_len : sep_len) + body_len + tail_len;
    char *buf = malloc(len + 1);
    long long mylen = (long long)len, off = 0;
    if (!buf || (rank == 0 && !head)) {
        err = 1;
        len = 0;
        mylen = 0;
    } else {
        size_t p = 0;
        if (rank == 0) {
            memcpy(buf, head, head_len);
            p = head_len;
        } else {
            memcpy(buf, sep, sep_len);
            p = sep_len;
        }
        if (body_len)
            memcpy(buf + p, body, body_len);
        p += body_len;
        memcpy(buf + p, tail, tail_len);
    }
    /* No truncate mode in MPI-IO: rank 0 removes an old report first. The others
     * open it only after the Exscan, which needs rank 0's part, so after the unlink. */
    if (rank == 0)
        unlink(path);
    PMPI_Exscan(&mylen, &off, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        off = 0; /* Exscan leaves rank 0's result undefined */
    MPI_File fh;
    if (PMPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                       &fh) != MPI_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "papi_mpi: cannot open %s for writing\n", path);
        free(buf);
        return 1;
    }
    MPI_Status st;
    /* Independent writes: each rank's bytes go straight to its own offset. */
    if (len && PMPI_File_write_at(fh, (MPI_Offset)off, buf, (int)len, MPI_BYTE, &st) != MPI_SUCCESS)
        err = 1;
    PMPI_File_close(&fh);
    if (err)
        fprintf(stderr, "papi_mpi: rank %d could not write its part of %s\n", rank, path);
    *bytes += (long long)sizeof mylen + (long long)len;
    free(buf);
    return err;
}
