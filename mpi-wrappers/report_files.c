/* report_files.c: the report's shared files, written by rank 0 alone. Only rank 0 touches
 * the file system for them (one create and one rename per file, as mpiP and IPM do): a
 * job's metadata operations do not grow with its ranks. The other ranks hand their parts
 * (JSON row, calls CSV lines, summary CSV line) to rank 0, which appends them in rank
 * order, pulling them: it grants a zero-byte token to a window of PMPI_PULL_WINDOW ranks
 * at a time, and a rank sends only after its token came, so rank 0 never holds more than
 * the window's first pieces unexpected, never all rows at once, whatever P.
 *
 * What a rank sends is one stream, in pieces of at most PMPI_PULL_PIECE bytes (an int
 * count of MPI_BYTE, whatever the part's size): n 64-bit lengths (-1: the part is
 * missing, e.g. it did not fit its buffer) then the parts back to back. The first piece
 * is a plain send (the window bounds those), later ones synchronous sends (at most one
 * more unmatched per rank of the window). Rank 0 writes through one reusable buffer per
 * file; it keeps one piece buffer, whatever the rows' sizes.
 *
 * The files are fresh O_EXCL|O_NOFOLLOW temporaries (output_file), renamed into place
 * together (pmpi_publish_shared) only when every part of every rank was written whole;
 * otherwise (full disk, a missing part) they are removed and nothing is published: a
 * truncated report is never left under the report's name. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include <mpi.h>

#include "report_files.h"
#include "state.h"

#define PMPI_PULL_WINDOW 64          /* ranks granted at once, at most */
#define PMPI_PULL_PIECE  (64 * 1024) /* bytes of one message, at most */
#define PMPI_OUT_BUF     (64 * 1024) /* rank 0's write buffer per file */
#define TAG_TOKEN        1
#define TAG_PIECE        2

/* Rank 0's output file: a write buffer in front of the temporary's descriptor. */
struct out {
    int fd, err; /* err: the errno of the first failed write (0: none) */
    char *b;
    size_t n;
};

/* Rank 0's choice, broadcast with the go-ahead: {ok, window, piece}. The window and the
 * piece size can be made smaller (PAPI_MPI_REPORT_WINDOW, PAPI_MPI_REPORT_PIECE: for
 * tests and measurements, e.g. a piece of 32 bytes splits every row). */
static int pull[3];
#define PULL_WINDOW pull[1]
#define PULL_PIECE  pull[2]

static int env_int(const char *name, int lo, int hi, int dflt)
{
    const char *v = getenv(name);
    char *end = NULL;
    long x = v && *v ? strtol(v, &end, 10) : dflt;
    if (v && *v && (*end || x < lo || x > hi)) {
        fprintf(stderr, "papi_mpi: %s=%s: expected %d to %d; %d used\n", name, v, lo, hi, dflt);
        x = dflt;
    }
    return (int)x;
}

static void out_flush(struct out *o)
{
    size_t done = 0;
    while (!o->err && done < o->n) {
        ssize_t w = write(o->fd, o->b + done, o->n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->err = w < 0 ? errno : EIO;
        else
            done += (size_t)w;
    }
    o->n = 0;
}

static void out_put(struct out *o, const char *s, size_t len)
{
    while (len > 0 && !o->err) {
        size_t room = PMPI_OUT_BUF - o->n, k = len < room ? len : room;
        memcpy(o->b + o->n, s, k);
        o->n += k;
        s += k;
        len -= k;
        if (o->n == PMPI_OUT_BUF)
            out_flush(o);
    }
}

/* One rank's stream (rank > 0), as rank 0 receives it: the lengths, then each part
 * preceded by its file's separator. Returns 1 when a part was missing. */
static int pull_rank(MPI_Comm comm, int r, int n, const struct pmpi_shared *f, struct out *o,
                     char *piece)
{
    long long lens[PMPI_MAX_SHARED];
    size_t hdr = (size_t)n * sizeof lens[0], got = 0, at = 0;
    int count = 0, missing = 0;
    MPI_Status st;
    PMPI_Recv(piece, PULL_PIECE, MPI_BYTE, r, TAG_PIECE, comm, &st);
    PMPI_Get_count(&st, MPI_BYTE, &count);
    if (count < 0 || (size_t)count < hdr) {
        fprintf(stderr,
                "papi_mpi: rank 0 received %d bytes from rank %d for the report, "
                "fewer than its lengths\n",
                count, r);
        return 1; /* a stream we cannot read: the sender sent no more than this piece */
    }
    memcpy(lens, piece, hdr);
    got = (size_t)count;
    at = hdr;
    unsigned long long total = hdr;
    for (int i = 0; i < n; i++)
        total += lens[i] > 0 ? (unsigned long long)lens[i] : 0;
    unsigned long long left_total = total - got; /* bytes still to receive */
    for (int i = 0; i < n; i++) {
        if (lens[i] < 0) {
            missing = 1;
            continue;
        }
        out_put(&o[i], f[i].sep, strlen(f[i].sep));
        unsigned long long left = (unsigned long long)lens[i];
        while (left > 0) {
            if (at == got) { /* the next piece of the stream */
                int k = left_total < (unsigned)PULL_PIECE ? (int)left_total : PULL_PIECE;
                PMPI_Recv(piece, k, MPI_BYTE, r, TAG_PIECE, comm, MPI_STATUS_IGNORE);
                got = (size_t)k;
                at = 0;
                left_total -= (unsigned long long)k;
            }
            size_t k = got - at < left ? got - at : (size_t)left;
            out_put(&o[i], piece + at, k);
            at += k;
            left -= k;
        }
    }
    return missing;
}

/* Rank 0: its own parts, then every other rank's, pulled in rank order. */
static int gather_to_files(MPI_Comm comm, int n, const struct pmpi_shared *f, struct out *o,
                           char *piece)
{
    int P = pmpi_run.nranks, bad = 0;
    MPI_Request tokens[PMPI_PULL_WINDOW];
    for (int i = 0; i < n; i++) {
        if (!f[i].head || !f[i].body) {
            bad = 1;
            continue;
        }
        out_put(&o[i], f[i].head, f[i].head_len);
        out_put(&o[i], f[i].body, f[i].body_len);
    }
    int granted = 1; /* ranks 1 .. granted - 1 have their token */
    for (int r = 1; r < P; r++) {
        while (granted < P && granted < r + PULL_WINDOW) {
            MPI_Request *slot = &tokens[granted % PULL_WINDOW];
            if (granted > PULL_WINDOW) /* the slot's previous token, long matched */
                PMPI_Wait(slot, MPI_STATUS_IGNORE);
            PMPI_Isend(NULL, 0, MPI_BYTE, granted, TAG_TOKEN, comm, slot);
            granted++;
        }
        bad |= pull_rank(comm, r, n, f, o, piece);
    }
    for (int r = granted - PULL_WINDOW > 1 ? granted - PULL_WINDOW : 1; r < granted; r++)
        PMPI_Wait(&tokens[r % PULL_WINDOW], MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++)
        out_put(&o[i], f[i].tail, strlen(f[i].tail));
    return bad;
}

/* A rank's outgoing stream: pieces of PULL_PIECE bytes, the first a plain
 * send, the later ones synchronous. */
struct stream {
    MPI_Comm comm;
    char *piece;
    size_t fill;
    int sent;
};

static void stream_send(struct stream *s)
{
    if (s->sent)
        PMPI_Ssend(s->piece, (int)s->fill, MPI_BYTE, 0, TAG_PIECE, s->comm);
    else
        PMPI_Send(s->piece, (int)s->fill, MPI_BYTE, 0, TAG_PIECE, s->comm);
    s->sent = 1;
    s->fill = 0;
}

static void stream_put(struct stream *s, const char *p, size_t len)
{
    while (len > 0) {
        size_t room = (size_t)PULL_PIECE - s->fill, k = len < room ? len : room;
        memcpy(s->piece + s->fill, p, k);
        s->fill += k;
        p += k;
        len -= k;
        if (s->fill == (size_t)PULL_PIECE)
            stream_send(s);
    }
}

/* A rank > 0: after its token, its lengths and parts as one stream. Returns 1 when one
 * of its parts is missing (it says so). */
static int send_parts(MPI_Comm comm, int n, const struct pmpi_shared *f, const char *const *names,
                      long long *bytes)
{
    static char piece[PMPI_PULL_PIECE]; /* static: no allocation can break the stream */
    long long lens[PMPI_MAX_SHARED];
    int missing = 0;
    for (int i = 0; i < n; i++) {
        lens[i] = f[i].body ? (long long)f[i].body_len : -1;
        if (!f[i].body) {
            missing = 1;
            fprintf(stderr,
                    "papi_mpi: rank %d could not write its part of %s/%s (a row too "
                    "long for its buffer, or no memory)\n",
                    pmpi_run.rank, pmpi_run.outdir, names[i]);
        }
    }
    struct stream s = {.comm = comm, .piece = piece};
    PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_TOKEN, comm, MPI_STATUS_IGNORE);
    stream_put(&s, (const char *)lens, (size_t)n * sizeof lens[0]);
    *bytes += (long long)((size_t)n * sizeof lens[0]);
    for (int i = 0; i < n; i++)
        if (lens[i] > 0) {
            stream_put(&s, f[i].body, f[i].body_len);
            *bytes += lens[i];
        }
    if (s.fill > 0)
        stream_send(&s);
    return missing;
}

int pmpi_write_shared(const char *const *names, const struct pmpi_shared *f, int n,
                      long long *bytes, char (*tmps)[PMPI_TMP_NAME])
{
    int rank = pmpi_run.rank, bad = 0;
    struct out o[PMPI_MAX_SHARED];
    char *piece = NULL;
    for (int i = 0; i < n; i++) {
        tmps[i][0] = '\0';
        o[i] = (struct out){.fd = -1};
    }
    /* Rank 0 makes the temporaries and tells the others whether it could. */
    int ok = 1;
    if (rank == 0) {
        PULL_WINDOW = env_int("PAPI_MPI_REPORT_WINDOW", 1, PMPI_PULL_WINDOW, PMPI_PULL_WINDOW);
        PULL_PIECE = env_int("PAPI_MPI_REPORT_PIECE", 32, PMPI_PULL_PIECE, PMPI_PULL_PIECE);
        ok = pmpi_run.outdir_fd >= 0;
        piece = ok ? malloc((size_t)PULL_PIECE) : NULL;
        if (ok && !piece) {
            fprintf(stderr, "papi_mpi: no memory to write the report\n");
            ok = 0;
        }
        for (int i = 0; i < n && ok; i++) {
            o[i].b = malloc(PMPI_OUT_BUF);
            o[i].fd = o[i].b
                          ? output_file_create(pmpi_run.outdir_fd, names[i], tmps[i], PMPI_TMP_NAME)
                          : -1;
            if (o[i].fd < 0) {
                fprintf(stderr, "papi_mpi: cannot create a file in %s: %s\n", pmpi_run.outdir,
                        o[i].b ? strerror(errno) : "no memory");
                tmps[i][0] = '\0';
                ok = 0;
            }
        }
    }
    MPI_Comm comm;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    pull[0] = ok;
    PMPI_Bcast(pull, 3, MPI_INT, 0, comm);
    if (!pull[0]) {
        bad = 1;
    } else if (rank == 0) {
        bad = gather_to_files(comm, n, f, o, piece);
        for (int i = 0; i < n; i++) {
            out_flush(&o[i]);
            if (!o[i].err && close(o[i].fd) != 0)
                o[i].err = errno;
            else if (o[i].err)
                close(o[i].fd);
            o[i].fd = -1;
            if (o[i].err) {
                fprintf(stderr,
                        "papi_mpi: rank 0 could not write %s/%s: %s (full disk or a "
                        "file size limit)\n",
                        pmpi_run.outdir, names[i], strerror(o[i].err));
                bad = 1;
            }
        }
    } else {
        bad = send_parts(comm, n, f, names, bytes);
    }
    PMPI_Comm_free(&comm);
    for (int i = 0; i < n; i++) {
        if (o[i].fd >= 0)
            close(o[i].fd); /* made, but the report was not written */
        free(o[i].b);
    }
    free(piece);
    return bad;
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
