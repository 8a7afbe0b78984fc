/* trace_otf2_job.c: the job's OTF2 archive, every rank writing its own locations
 * (trace_otf2_job.h). What crosses the network: the names' tree (trace_names_tree.c),
 * the archive's path (one broadcast), one agreement that every rank opened it, OTF2's
 * own collectives (a few integers per call), and each rank's process and threads to rank
 * 0 (a Gather of 88 bytes and a Gatherv of 16 bytes per thread): no rank receives
 * another's records. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include "idle_wait.h"
#include "pmpi_identity.h"
#include "trace_names_tree.h"
#include "trace_otf2.h"
#include "trace_otf2_job.h"

#ifndef PAPI_HAVE_OTF2

int pmpi_trace_otf2_job(const struct trace_rank *mine, int failed, const struct trace_meta *meta,
                        const char *dir, const char *base, uint64_t *dropped, char *why,
                        size_t whylen)
{
    (void)mine, (void)failed, (void)meta, (void)dir, (void)base;
    *dropped = 0;
    trace_otf2_available(why, whylen);
    return -1;
}

#else

#include "otf2_lib.h"
#include "trace_otf2_defs.h"
#include "trace_otf2_events.h"

/* OTF2's MPI collectives (a header of static functions) call libotf2's
 * OTF2_*_SetCollectiveCallbacks: here through the loaded table, and MPI through PMPI. */
static const struct otf2_lib *fns;
#define OTF2_MPI_USE_PMPI
#define OTF2_Archive_SetCollectiveCallbacks fns->OTF2_Archive_SetCollectiveCallbacks
#define OTF2_Reader_SetCollectiveCallbacks  fns->OTF2_Reader_SetCollectiveCallbacks
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#include <otf2/OTF2_MPI_Collectives.h>
#pragma GCC diagnostic pop
#undef OTF2_Archive_SetCollectiveCallbacks
#undef OTF2_Reader_SetCollectiveCallbacks

/* What each rank tells rank 0 of itself, after its events are written. */
struct rank_head {
    int32_t bad, nt;
    int64_t pid;
    uint64_t dropped;
    char host[64];
};

/* This rank's part: its threads and the events written on each. */
struct part {
    uint32_t *tid;
    int nt;
    uint64_t *nevents;
};

/* Rank 0: a directory for the archive beside where it goes; "" when it cannot. */
static void make_dir(const char *dir, const char *base, char *tmp, size_t len, char *why,
                     size_t whylen)
{
    if ((size_t)snprintf(tmp, len, "%s/.%s.XXXXXX", dir, base) >= len) {
        snprintf(why, whylen, "trace path %.200s/%.40s is too long", dir, base);
        tmp[0] = 0;
    } else if (!mkdtemp(tmp)) {
        snprintf(why, whylen, "trace not written: cannot create a directory in %.200s: %s", dir,
                 strerror(errno));
        tmp[0] = 0;
    }
}

/* The events of this rank's locations and their (empty) local definition files: OTF2's
 * collective steps, made by every rank whatever failed. 0, or -1. */
static int write_part(OTF2_Archive *a, const struct trace_rank *mine,
                      const struct pmpi_trace_names *n, struct part *p)
{
    struct otf2_idmap m = {n->region_ref, n->counter_ref, n->dbl, n->comm, n->ncomms};
    int bad = fns->OTF2_Archive_OpenEvtFiles(a) != OTF2_SUCCESS;
    if (!bad)
        bad = otf2_write_rank_events(fns, a, mine, &m, p->tid, p->nt, p->nevents) != 0;
    bad |= fns->OTF2_Archive_CloseEvtFiles(a) != OTF2_SUCCESS;
    bad |= fns->OTF2_Archive_OpenDefFiles(a) != OTF2_SUCCESS;
    for (int t = 0; !bad && t < p->nt; t++) {
        OTF2_DefWriter *d = fns->OTF2_Archive_GetDefWriter(a, otf2_location(mine->rank, t));
        if (d)
            fns->OTF2_Archive_CloseDefWriter(a, d);
    }
    bad |= fns->OTF2_Archive_CloseDefFiles(a) != OTF2_SUCCESS;
    return bad ? -1 : 0;
}

/* Rank 0: the global definitions from the heads and threads gathered. 0, or -1. */
static int write_defs(OTF2_Archive *a, const struct pmpi_trace_names *n,
                      const struct rank_head *heads, const uint64_t *threads, const int *tdis,
                      int P)
{
    struct otf2_rank_def *rd = calloc((size_t)P, sizeof *rd);
    uint32_t *tid = malloc((size_t)(tdis[P] / 2 + 1) * sizeof *tid);
    uint64_t *nev = malloc((size_t)(tdis[P] / 2 + 1) * sizeof *nev);
    int rc = -1;
    if (rd && tid && nev) {
        for (int r = 0; r < P; r++) {
            const struct rank_head *h = &heads[r];
            const uint64_t *th = threads + tdis[r];
            for (int t = 0; t < h->nt; t++) {
                tid[tdis[r] / 2 + t] = (uint32_t)th[2 * t];
                nev[tdis[r] / 2 + t] = th[2 * t + 1];
            }
            /* a rank's GPU tracks are its own: no other process's (track) */
            rd[r] = (struct otf2_rank_def){.rank = r,
                                           .pid = (long)h->pid,
                                           .host = h->host[0] ? h->host : NULL,
                                           .nt = h->nt,
                                           .tid = tid + tdis[r] / 2,
                                           .nevents = nev + tdis[r] / 2};
        }
        struct otf2_defs d = {.region = n->region,
                              .nregions = n->nregions,
                              .counter = n->counter,
                              .dbl = n->dbl,
                              .ncounters = n->ncounters,
                              .comm = n->comm,
                              .ncomms = n->ncomms,
                              .ranks = rd,
                              .nranks = P,
                              .maxrank = P - 1,
                              .first = n->first,
                              .last = n->last};
        rc = otf2_write_global_defs(fns, a, &d);
    }
    free(rd);
    free(tid);
    free(nev);
    return rc;
}

/* Every rank's head and threads to rank 0 (heads, threads: malloc'ed there, tdis: P + 1
 * offsets into threads, two items a thread). 0 on rank 0 when all came, else -1. */
static int gather_parts(MPI_Comm comm, const struct rank_head *h, const struct part *p, int me,
                        int P, struct rank_head **heads, uint64_t **threads, int **tdis)
{
    uint64_t *mine = malloc((size_t)(2 * p->nt + 1) * sizeof *mine);
    int n = mine ? 2 * p->nt : 0, *cnt = NULL, ok = 1;
    for (int t = 0; mine && t < p->nt; t++)
        mine[2 * t] = p->tid[t], mine[2 * t + 1] = p->nevents[t];
    struct rank_head hh = *h;
    hh.nt = n / 2; /* no memory for the threads: none sent, said bad */
    hh.bad |= !mine;
    if (me == 0) { /* rank 0 says whether it has room before anything is sent */
        *heads = malloc((size_t)P * sizeof **heads);
        *tdis = calloc((size_t)P + 1, sizeof **tdis);
        cnt = calloc((size_t)P, sizeof *cnt);
        ok = *heads && *tdis && cnt;
    }
    MPI_Request req; /* each step waits for the others' writing: without a core (idle_wait.h) */
    pmpi_idle_complete(PMPI_Ibcast(&ok, 1, MPI_INT, 0, comm, &req), &req);
    if (ok)
        pmpi_idle_complete(PMPI_Igather(&hh, (int)sizeof hh, MPI_BYTE, me == 0 ? *heads : NULL,
                                        (int)sizeof hh, MPI_BYTE, 0, comm, &req),
                           &req);
    if (me == 0 && ok) {
        for (int r = 0; r < P; r++) {
            cnt[r] = 2 * (*heads)[r].nt;
            (*tdis)[r + 1] = (*tdis)[r] + cnt[r];
        }
        ok = (*threads = malloc((size_t)((*tdis)[P] + 1) * sizeof **threads)) != NULL;
    }
    pmpi_idle_complete(PMPI_Ibcast(&ok, 1, MPI_INT, 0, comm, &req), &req);
    if (ok)
        pmpi_idle_complete(PMPI_Igatherv(mine, n, MPI_UINT64_T, me == 0 ? *threads : NULL, cnt,
                                         me == 0 ? *tdis : NULL, MPI_UINT64_T, 0, comm, &req),
                           &req);
    free(mine);
    free(cnt);
    return ok && me == 0 ? 0 : -1;
}

/* OTF2's archive at tmp, every rank's part in it; rank 0 writes the definitions. On rank
 * 0: 0 when every part and the definitions were written. */
static int write_archive(MPI_Comm comm, OTF2_Archive *a, const struct trace_rank *mine,
                         const struct pmpi_trace_names *n, struct part *p, int me, int P,
                         uint64_t *dropped, char *why, size_t whylen)
{
    struct rank_head h = {0}, *heads = NULL;
    uint64_t *threads = NULL;
    int *tdis = NULL, bad = 0;
    h.bad = write_part(a, mine, n, p) != 0;
    h.nt = p->nt;
    h.pid = (int64_t)mine->pid;
    h.dropped = mine->dropped;
    snprintf(h.host, sizeof h.host, "%s", mine->host ? mine->host : ""); /* a label only */
    if (gather_parts(comm, &h, p, me, P, &heads, &threads, &tdis) == 0) {
        for (int r = 0; r < P; r++)
            bad |= heads[r].bad, *dropped += heads[r].dropped;
        trace_otf2_set_dropped(fns, a, *dropped); /* the master's: rank 0 holds the heads */
        if (bad)
            snprintf(why, whylen, "libotf2 could not write some rank's part of the trace");
        else if ((bad = write_defs(a, n, heads, threads, tdis, P) != 0))
            snprintf(why, whylen, "libotf2 could not write the trace's definitions");
    } else if (me == 0) {
        bad = 1;
        snprintf(why, whylen, "no memory on rank 0 for the trace's %d ranks", P);
    }
    free(heads);
    free(threads);
    free(tdis);
    return bad ? -1 : 0;
}

/* Opens the archive at tmp on every rank with OTF2's MPI collectives: the archive, or
 * NULL on every rank when one rank could not (or was not ready: ready 0). */
static OTF2_Archive *open_archive(MPI_Comm comm, const char *tmp, const struct trace_meta *meta,
                                  int ready)
{
    OTF2_Archive *a =
        !ready ? NULL
               : fns->OTF2_Archive_Open(tmp, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    int ok = a && fns->OTF2_Archive_SetFlushCallbacks(a, trace_otf2_flush_callbacks(), NULL) ==
                      OTF2_SUCCESS,
        all = 0;
    MPI_Request req;
    pmpi_idle_complete(PMPI_Iallreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm, &req), &req);
    if (!all) {
        if (a)
            fns->OTF2_Archive_Close(a); /* no collective callbacks yet: this rank's alone */
        return NULL;
    }
    OTF2_MPI_Archive_SetCollectiveCallbacks(a, comm, MPI_COMM_NULL);
    fns->OTF2_Archive_SetCreator(a, meta->creator ? meta->creator : "papi-compat");
    if (meta->program)
        fns->OTF2_Archive_SetDescription(a, meta->program);
    return a;
}

int pmpi_trace_otf2_job(const struct trace_rank *mine, int failed, const struct trace_meta *meta,
                        const char *dir, const char *base, uint64_t *dropped, char *why,
                        size_t whylen)
{
    int me = 0, P = 1, ret = -1;
    char tmp[PATH_MAX] = "", final[PATH_MAX];
    struct part p = {0};
    struct pmpi_trace_names n;
    MPI_Comm comm;
    *dropped = 0;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &P);
    fns = otf2_lib(why, whylen);
    p.nt = fns && !failed ? trace_threads(mine, &p.tid) : -1;
    p.nevents = p.nt >= 0 ? calloc((size_t)p.nt + 1, sizeof *p.nevents) : NULL;
    failed |= !p.nevents;
    if (pmpi_trace_names_unify(comm, mine, failed, &n) != 0) {
        snprintf(why, whylen, "a rank had no memory (or no libotf2) for the trace");
        goto out;
    }
    if (me == 0)
        make_dir(dir, base, tmp, sizeof tmp, why, whylen);
    MPI_Request req; /* rank 0 makes the directory meanwhile */
    pmpi_idle_complete(PMPI_Ibcast(tmp, (int)sizeof tmp, MPI_CHAR, 0, comm, &req), &req);
    OTF2_Archive *a = tmp[0] ? open_archive(comm, tmp, meta, !n.failed) : NULL;
    if (!a) {
        if (tmp[0] && me == 0) {
            snprintf(why, whylen, "libotf2 could not open the trace archive on every rank");
            trace_otf2_discard(tmp);
        }
        goto out;
    }
    ret = write_archive(comm, a, mine, &n, &p, me, P, dropped, why, whylen);
    if (fns->OTF2_Archive_Close(a) != OTF2_SUCCESS && ret == 0) {
        ret = -1;
        snprintf(why, whylen, "libotf2 could not close the trace archive");
    }
    if (me == 0) {
        snprintf(final, sizeof final, "%s/%s", dir, base);
        chmod(tmp, 0755); /* mkdtemp's 0700 would hide it from the user's group */
        if (ret == 0 && trace_otf2_publish(tmp, final, dir, base) != 0) {
            snprintf(why, whylen, "cannot rename the trace archive into %.200s: %s", final,
                     strerror(errno));
            ret = -1;
        }
        if (ret != 0)
            trace_otf2_discard(tmp);
    }
out:
    pmpi_trace_names_free(&n);
    free(p.tid);
    free(p.nevents);
    PMPI_Comm_free(&comm);
    return ret;
}

#endif
