/* report_files.c: the report's shared files, written by rank 0 alone. Only rank 0 touches
 * the file system for them (one create and one rename per file, as mpiP and IPM do): a
 * job's metadata operations do not grow with its ranks. The other ranks hand their parts
 * (JSON row, calls CSV lines, summary CSV line) to rank 0, which appends them in rank
 * order as they come: never all rows at once, whatever P.
 *
 * Two levels, so that no rank talks to more than about 2 sqrt(P) others (an MPI keeps
 * state per peer it talked to: at 100,000 ranks, rank 0 would otherwise hold 100,000
 * connections): the ranks form groups of G = ceil(sqrt(P)) consecutive ranks; rank 0
 * pulls the members of its own group (ranks 1 .. G-1) one by one, then each other
 * group's first rank, its leader, which relays its group's streams (its own, then its
 * members' in rank order, pulled the same way) as one stream. Both pull: a zero-byte
 * token to a window of PMPI_PULL_WINDOW sources at a time, and a source sends only after
 * its token came, so no rank holds more than the window's first pieces unexpected.
 *
 * What a rank sends is one stream, in pieces of at most PMPI_PULL_PIECE bytes (an int
 * count of MPI_BYTE, whatever the part's size): n + 1 64-bit lengths (-1: the part is
 * missing, e.g. it did not fit its buffer) then the parts back to back, the last its
 * record (the wait report's part), which rank 0 folds as it comes (its take) for what
 * it writes after the rows (a late tail, handed to the file a buffer at a time): the
 * pull is the job's one way to rank 0, no MPI_Gather beside it, and rank 0 keeps
 * nothing per rank of it. The first piece of a stream is a plain send (the window
 * bounds those), later ones synchronous sends (at most one more unmatched per source of
 * the window). Rank 0 writes through one buffer per file and receives into one piece
 * buffer; a leader relays through two (receive, send), whatever the rows' sizes.
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

#include "env.h"
#include "idle_wait.h"
#include "finalize_agreement.h"
#include "output_file.h"
#include "pmpi_identity.h"
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

/* Rank 0's choice, agreed in the finalize round: {rank 0 has a directory, window, piece,
 * the round ran (a minimum: 0 where it failed)}. The window and the piece size can be
 * made smaller (PAPI_MPI_REPORT_WINDOW, PAPI_MPI_REPORT_PIECE: for tests and
 * measurements, e.g. a piece of 32 bytes splits every row). */
static int pull[4];
#define PULL_WINDOW pull[1]
#define PULL_PIECE  pull[2]

static int env_int(const char *name, int lo, int hi, int dflt)
{
    const char *v = env_get(name);
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

/* A stream to one rank: pieces of PULL_PIECE bytes, the first a plain send, the later
 * ones synchronous. */
struct stream {
    MPI_Comm comm;
    int to;
    char *piece;
    size_t fill;
    int sent;
};

static void stream_send(struct stream *s)
{
    if (s->sent)
        PMPI_Ssend(s->piece, (int)s->fill, MPI_BYTE, s->to, TAG_PIECE, s->comm);
    else
        PMPI_Send(s->piece, (int)s->fill, MPI_BYTE, s->to, TAG_PIECE, s->comm);
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

/* A stream from one rank, received a piece at a time into buf; rank: whose stream comes
 * next (rank 0's reader: the streams come in rank order). */
struct reader {
    MPI_Comm comm;
    int from, rank;
    char *buf;
    size_t got, at;
    char *record; /* rank 0: where a rank's record is received, whole, before its take */
};

/* The next len bytes of rd's stream: copied to copy (when not NULL), appended to o (when
 * not NULL) and forwarded into s (when not NULL). Returns 0, or -1 on an empty piece
 * (a broken stream). */
static int move(struct reader *rd, unsigned long long len, char *copy, struct out *o,
                struct stream *s)
{
    while (len > 0) {
        if (rd->at == rd->got) {
            MPI_Status st;
            int count = 0;
            PMPI_Recv(rd->buf, PULL_PIECE, MPI_BYTE, rd->from, TAG_PIECE, rd->comm, &st);
            PMPI_Get_count(&st, MPI_BYTE, &count);
            if (count <= 0) {
                fprintf(stderr,
                        "papi_mpi: rank %d received an empty piece of the report from "
                        "rank %d\n",
                        pmpi_id()->rank, rd->from);
                return -1;
            }
            rd->got = (size_t)count;
            rd->at = 0;
        }
        size_t k = rd->got - rd->at < len ? rd->got - rd->at : (size_t)len;
        const char *p = rd->buf + rd->at;
        if (copy) {
            memcpy(copy, p, k);
            copy += k;
        }
        if (o)
            out_put(o, p, k);
        if (s)
            stream_put(s, p, k);
        rd->at += k;
        len -= k;
    }
    return 0;
}

/* Rank 0: the record of rank rd->rank handed to rec's take (NULL where it sent none,
 * or one of another size), received into buf (rec->size bytes; NULL: no memory, the
 * record is skipped and handed as none). */
static int take_record(struct reader *rd, long long len, const struct pmpi_shared_record *rec,
                       char *buf)
{
    int rank = rd->rank++, whole = rec && buf && len == (long long)rec->size;
    int rc = len > 0 ? move(rd, (unsigned long long)len, whole ? buf : NULL, NULL, NULL) : 0;
    if (rec && rec->take)
        rec->take(rec->arg, rank, whole && rc == 0 ? buf : NULL);
    return rc;
}

/* One rank's stream from rd: into rank 0's files (o: each part after its file's
 * separator) and its record table, or forwarded verbatim into s (a leader). Returns 1
 * when a part is missing (a missing record is the record's owner's to tell). */
static int relay_rank(struct reader *rd, int n, const struct pmpi_shared *f,
                      const struct pmpi_shared_record *rec, struct out *o, struct stream *s)
{
    long long lens[PMPI_MAX_SHARED + 1];
    int missing = 0;
    if (move(rd, (unsigned long long)(n + 1) * sizeof lens[0], (char *)lens, NULL, s) != 0)
        return 1;
    for (int i = 0; i < n; i++) {
        if (lens[i] < 0) {
            missing = 1;
            continue;
        }
        if (o)
            out_put(&o[i], f[i].sep, strlen(f[i].sep));
        if (move(rd, (unsigned long long)lens[i], NULL, o ? &o[i] : NULL, s) != 0)
            return 1;
    }
    if (o)
        return take_record(rd, lens[n], rec, rd->record) != 0 || missing;
    if (lens[n] > 0 && move(rd, (unsigned long long)lens[n], NULL, NULL, s) != 0)
        return 1;
    return missing;
}

/* The group size: ceil(sqrt(P)), at least 2. */
static int group_size(int P)
{
    int g = 2;
    while ((long long)g * g < P)
        g++;
    return g;
}

/* The j-th source of rank 0 or of a leader (self) and how many ranks' streams it sends:
 * rank 0's are its group's members, then the other groups' leaders; a leader's its
 * members. */
static int source(int self, int j, int *count)
{
    int P = pmpi_id()->nranks, G = group_size(P), members0 = (G < P ? G : P) - 1;
    *count = 1;
    if (self != 0 || j < members0)
        return self + 1 + j;
    int leader = (j - members0 + 1) * G;
    *count = P - leader < G ? P - leader : G;
    return leader;
}

/* Pulls nsrc sources in order, a window at a time, into o (rank 0) or s (a leader).
 * Returns 1 when a part was missing. */
static int pull_sources(struct reader *rd, int nsrc, int n, const struct pmpi_shared *f,
                        const struct pmpi_shared_record *rec, struct out *o, struct stream *s)
{
    MPI_Request tokens[PMPI_PULL_WINDOW];
    int granted = 0, bad = 0, count = 0; /* sources 0 .. granted - 1 have their token */
    for (int j = 0; j < nsrc; j++) {
        while (granted < nsrc && granted < j + PULL_WINDOW) {
            MPI_Request *slot = &tokens[granted % PULL_WINDOW];
            if (granted >= PULL_WINDOW) /* the slot's previous token, long matched */
                PMPI_Wait(slot, MPI_STATUS_IGNORE);
            PMPI_Isend(NULL, 0, MPI_BYTE, source(pmpi_id()->rank, granted, &count), TAG_TOKEN,
                       rd->comm, slot);
            granted++;
        }
        rd->from = source(pmpi_id()->rank, j, &count);
        rd->got = rd->at = 0;
        for (int c = 0; c < count; c++)
            bad |= relay_rank(rd, n, f, rec, o, s);
    }
    for (int j = granted - PULL_WINDOW > 0 ? granted - PULL_WINDOW : 0; j < granted; j++)
        PMPI_Wait(&tokens[j % PULL_WINDOW], MPI_STATUS_IGNORE);
    return bad;
}

/* A late tail's pieces into its file's buffer. */
static void out_sink(void *o, const char *s, size_t n)
{
    out_put(o, s, n);
}

/* Rank 0: its own parts, then every other rank's, in rank order, then the tails (a late
 * one made now: after every rank's record came). */
static int gather_to_files(MPI_Comm comm, int n, const struct pmpi_shared *f,
                           const struct pmpi_shared_record *rec, struct out *o, char *piece)
{
    int P = pmpi_id()->nranks, G = group_size(P), bad = 0;
    for (int i = 0; i < n; i++) {
        if (!f[i].head || !f[i].body) {
            bad = 1;
            continue;
        }
        out_put(&o[i], f[i].head, f[i].head_len);
        out_put(&o[i], f[i].body, f[i].body_len);
    }
    if (rec && rec->take)
        rec->take(rec->arg, 0, rec->mine);
    /* one record's room, whatever P (no memory: every other rank's is handed as none) */
    struct reader rd = {.comm = comm,
                        .buf = piece,
                        .rank = 1,
                        .record = rec && rec->take ? malloc(rec->size ? rec->size : 1) : NULL};
    int nsrc = (G < P ? G : P) - 1 + (P + G - 1) / G - 1;
    bad |= pull_sources(&rd, nsrc, n, f, rec, o, NULL);
    free(rd.record);
    for (int i = 0; i < n; i++) {
        if (f[i].late_tail)
            bad |= f[i].late_tail(f[i].arg, out_sink, &o[i]) != 0; /* said by its maker */
        else
            out_put(&o[i], f[i].tail, strlen(f[i].tail));
    }
    return bad;
}

/* A rank > 0: after its token, its lengths and parts as one stream to its leader (rank
 * 0 for the first group); a leader then relays its members' streams in the same one.
 * Returns 1 when one of its parts is missing (it says so). */
static int send_parts(MPI_Comm comm, int n, const struct pmpi_shared *f,
                      const struct pmpi_shared_record *rec, const char *const *names,
                      long long *bytes)
{
    /* static: no allocation can break the stream */
    static char piece[PMPI_PULL_PIECE], relay[PMPI_PULL_PIECE];
    long long lens[PMPI_MAX_SHARED + 1];
    int rank = pmpi_id()->rank, P = pmpi_id()->nranks, G = group_size(P), missing = 0;
    int leader = rank / G * G, is_leader = leader == rank;
    for (int i = 0; i < n; i++) {
        lens[i] = f[i].body ? (long long)f[i].body_len : -1;
        if (!f[i].body) {
            missing = 1;
            fprintf(stderr,
                    "papi_mpi: rank %d could not write its part of %s/%s (a row too "
                    "long for its buffer, or no memory)\n",
                    rank, pmpi_id()->outdir, names[i]);
        }
    }
    lens[n] = rec && rec->mine ? (long long)rec->size : -1;
    struct stream s = {.comm = comm, .to = is_leader ? 0 : leader, .piece = piece};
    MPI_Request req; /* rank 0 may pull the other ranks first: wait without a core */
    pmpi_idle_complete(PMPI_Irecv(NULL, 0, MPI_BYTE, s.to, TAG_TOKEN, comm, &req), &req);
    stream_put(&s, (const char *)lens, (size_t)(n + 1) * sizeof lens[0]);
    *bytes += (long long)((size_t)(n + 1) * sizeof lens[0]);
    for (int i = 0; i < n; i++)
        if (lens[i] > 0) {
            stream_put(&s, f[i].body, f[i].body_len);
            *bytes += lens[i];
        }
    if (lens[n] > 0) {
        stream_put(&s, rec->mine, rec->size);
        *bytes += lens[n];
    }
    if (is_leader) {
        struct reader rd = {.comm = comm, .buf = relay};
        int members = (P - rank < G ? P - rank : G) - 1;
        pull_sources(&rd, members, n, f, NULL, NULL, &s); /* rank 0 sees a missing part */
    }
    if (s.fill > 0)
        stream_send(&s);
    return missing;
}

/* The pull's settings, rank 0's (PAPI_MPI_REPORT_WINDOW, PAPI_MPI_REPORT_PIECE) and
 * whether it has a directory, travel in the wait states' agreement round
 * (finalize_agreement.h). */
struct pmpi_pull_agreed pmpi_report_files_prepare(void)
{
    int rank0 = pmpi_id()->rank == 0;
    int window =
        rank0 ? env_int("PAPI_MPI_REPORT_WINDOW", 1, PMPI_PULL_WINDOW, PMPI_PULL_WINDOW) : 0;
    int piece = rank0 ? env_int("PAPI_MPI_REPORT_PIECE", 32, PMPI_PULL_PIECE, PMPI_PULL_PIECE) : 0;
    struct pmpi_pull_agreed agreed;
    agreed.slot[0] = pmpi_agree_add(PMPI_AGREE_MIN, !rank0 || pmpi_outdir_fd() >= 0);
    agreed.slot[1] = pmpi_agree_add(PMPI_AGREE_MAX, window);
    agreed.slot[2] = pmpi_agree_add(PMPI_AGREE_MAX, piece);
    agreed.slot[3] = pmpi_agree_add(PMPI_AGREE_MIN, 1);
    return agreed;
}

/* Rank 0: the temporaries; 0 when one could not be made (said). Then no file gets a
 * byte (err set), but rank 0 still takes every stream: no rank waits for a word. */
static int make_temporaries(const char *const *names, struct out *o, int n,
                            char (*tmps)[PMPI_TMP_NAME])
{
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        o[i].b = malloc(PMPI_OUT_BUF);
        o[i].fd =
            o[i].b ? output_file_create(pmpi_outdir_fd(), names[i], tmps[i], PMPI_TMP_NAME) : -1;
        if (o[i].fd < 0) {
            fprintf(stderr, "papi_mpi: cannot create a file in %s: %s\n", pmpi_id()->outdir,
                    o[i].b ? strerror(errno) : "no memory");
            tmps[i][0] = '\0';
            ok = 0;
        }
    }
    for (int i = 0; i < n && !ok; i++)
        o[i].err = o[i].err ? o[i].err : EIO; /* nothing written; said above */
    return ok;
}

int pmpi_write_shared(const char *const *names, const struct pmpi_shared *f, int n,
                      const struct pmpi_shared_record *rec, const struct pmpi_pull_agreed *agreed,
                      long long *bytes, char (*tmps)[PMPI_TMP_NAME])
{
    static char piece[PMPI_PULL_PIECE]; /* rank 0's: static, no allocation can stop it */
    int rank = pmpi_id()->rank, bad = 0;
    struct out o[PMPI_MAX_SHARED];
    for (int i = 0; i < n; i++) {
        tmps[i][0] = '\0';
        o[i] = (struct out){.fd = -1};
    }
    MPI_Comm comm = pmpi_own_comm(); /* TAG_TOKEN, TAG_PIECE */
    struct pmpi_pull_agreed own;
    if (!agreed || agreed->slot[0] < 0) { /* not prepared: a round of its own */
        own = pmpi_report_files_prepare();
        pmpi_agree_run(comm);
        agreed = &own;
    }
    for (int i = 0; i < 4; i++)
        pull[i] = (int)pmpi_agree_value(agreed->slot[i]);
    /* Rank 0 without a directory still takes every stream (the records come in them);
     * only a failed round (no settings) leaves the pull out. */
    int can_pull = pull[3] && PULL_WINDOW >= 1 && PULL_PIECE >= 32;
    int made = rank != 0 || (pull[0] && make_temporaries(names, o, n, tmps));
    for (int i = 0; i < n && !made; i++)
        o[i].err = o[i].err ? o[i].err : EIO; /* nothing written: said, or no directory */
    bad = !made || !pull[0];
    if (!can_pull) {
        bad = 1;
    } else if (rank == 0) {
        bad |= gather_to_files(comm, n, f, rec, o, piece);
        for (int i = 0; i < n; i++) {
            out_flush(&o[i]);
            if (!o[i].err && close(o[i].fd) != 0)
                o[i].err = errno;
            else if (o[i].err)
                close(o[i].fd);
            o[i].fd = -1;
            if (o[i].err && made) { /* files not made were said when they were not */
                fprintf(stderr,
                        "papi_mpi: rank 0 could not write %s/%s: %s (full disk or a "
                        "file size limit)\n",
                        pmpi_id()->outdir, names[i], strerror(o[i].err));
                bad = 1;
            }
        }
    } else {
        bad = send_parts(comm, n, f, rec, names, bytes) | !pull[0];
    }
    for (int i = 0; i < n; i++) {
        if (o[i].fd >= 0)
            close(o[i].fd); /* made, but the report was not written */
        free(o[i].b);
    }
    return bad;
}

/* Rank 0 renames every temporary into place when all were written whole, otherwise
 * removes them all: the report and its CSVs are published together or not at all. */
int pmpi_publish_shared(const char *const *names, char (*tmps)[PMPI_TMP_NAME], int n, int bad)
{
    if (pmpi_id()->rank == 0) {
        for (int i = 0; i < n; i++) {
            if (!tmps[i][0])
                continue; /* never created */
            if (bad)
                output_file_discard(pmpi_outdir_fd(), tmps[i]);
            else if (output_file_publish(pmpi_outdir_fd(), tmps[i], names[i]) != 0)
                bad = 1;
        }
    }
    MPI_Request req;
    pmpi_idle_complete(PMPI_Ibcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), &req);
    return bad;
}
