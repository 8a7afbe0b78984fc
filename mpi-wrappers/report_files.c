/* report_files.c: one shared file written by all ranks. Each rank writes its own bytes
 * with pwrite at an offset from an exclusive prefix sum of the lengths (PMPI_Exscan), so
 * no rank ever holds more than its own row (rank 0 adds the head, the last rank the
 * tail).
 * The file is a fresh O_EXCL|O_NOFOLLOW temporary made by rank 0 (output_file); the
 * report's files are renamed into place together (pmpi_publish_shared) only when every
 * rank wrote all its bytes of each and closed them without error. Otherwise (full disk, a part that did not fit its buffer) it is removed and
 * nothing is published: a truncated report is never left under the report's name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include <mpi.h>

#include "report_files.h"
#include "state.h"

int pmpi_write_shared(const char *name, const char *head, size_t head_len, const char *body,
                      size_t body_len, const char *sep, const char *tail, long long *bytes,
                      char *tmp)
{
    int rank = pmpi_run.rank, last = pmpi_run.nranks - 1, err = 0, any_err = 0;
    tmp[0] = '\0';
    /* Rank 0 makes the temporary and tells the others its name ("" when it could not). */
    if (rank == 0 && pmpi_run.outdir_fd >= 0) {
        int fd = output_file_create(pmpi_run.outdir_fd, name, tmp, PMPI_TMP_NAME);
        if (fd < 0) {
            fprintf(stderr, "papi_mpi: cannot create a file in %s: %s\n", pmpi_run.outdir,
                    strerror(errno));
            tmp[0] = '\0';
        } else {
            close(fd);
        }
    }
    PMPI_Bcast(tmp, PMPI_TMP_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!tmp[0])
        return 1;
    size_t sep_len = rank ? strlen(sep) : 0, tail_len = rank == last ? strlen(tail) : 0;
    size_t len = (rank == 0 ? head_len : sep_len) + body_len + tail_len;
    char *buf = malloc(len + 1);
    if (!buf || !body || (rank == 0 && !head)) {
        err = 1; /* this rank's part is missing: the file will not be published */
        len = 0;
    } else {
        size_t p = 0;
        memcpy(buf, rank == 0 ? head : sep, rank == 0 ? head_len : sep_len);
        p = rank == 0 ? head_len : sep_len;
        memcpy(buf + p, body, body_len);
        p += body_len;
        memcpy(buf + p, tail, tail_len);
    }
    long long mylen = (long long)len, off = 0;
    PMPI_Exscan(&mylen, &off, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        off = 0; /* Exscan leaves rank 0's result undefined */
    /* Plain pwrite at the rank's offset: the directory is one all ranks see (as for
     * the partial rows); no collective open/close (ROMIO's cost grows with P). */
    int fd = pmpi_run.outdir_fd >= 0 ? openat(pmpi_run.outdir_fd, tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
                                   : -1;
    if (fd < 0) {
        err = 1;
    } else {
        size_t done = 0;
        while (done < len) {
            ssize_t w = pwrite(fd, buf + done, len - done, (off_t)off + (off_t)done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                err = 1;
                break;
            }
            done += (size_t)w;
        }
        if (close(fd) != 0)
            err = 1;
    }
    if (err)
        fprintf(stderr, "papi_mpi: rank %d could not write its part of %s/%s (write error, "
                        "full disk or a row too long)\n", rank, pmpi_run.outdir, name);
    PMPI_Allreduce(&err, &any_err, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    *bytes += (long long)sizeof mylen + (long long)len;
    free(buf);
    return any_err;
}

/* Rank 0 renames every temporary into place when all were written whole, otherwise
 * removes them all: the report and its CSVs are published together or not at all. */
int pmpi_publish_shared(const char *const *names, char (*tmps)[PMPI_TMP_NAME], int n, int bad)
{
    if (pmpi_run.rank == 0) {
        for (int i = 0; i < n; i++) {
            if (!tmps[i][0])
                continue; /* never created */
            if (bad)
                output_file_discard(pmpi_run.outdir_fd, tmps[i]);
            else if (output_file_publish(pmpi_run.outdir_fd, tmps[i], names[i]) != 0)
                bad = 1;
        }
    }
    PMPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}
