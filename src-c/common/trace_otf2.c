/* trace_otf2.c: the OTF2 back end. The archive <dir>/<base>/traces.otf2 holds a location
 * group (a process) per rank and a location per thread of it (location id = rank << 16 |
 * the thread's number in its rank), the regions, MPI point-to-point and collective
 * records on communicators over MPI_COMM_WORLD's ranks, and each counter as an
 * asynchronous metric of one member (the events: trace_otf2_events.c, the definitions:
 * trace_otf2_defs.c). Written here by one process (serial collectives) with the ranks'
 * names merged by text, into a temporary directory renamed into place when whole; the
 * MPI wrapper writes the same archive with every rank writing its own locations
 * (mpi-wrappers/trace/trace_otf2_job.c).
 *
 * libotf2 is loaded at run time (otf2_lib.c: dlopen of the library cmake found), so
 * libpapi and its users never link it; without its headers at build time
 * (PAPI_WITH_OTF2=OFF or not found) this file only says so. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_otf2.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

int trace_otf2_publish(const char *tmp, const char *final, const char *dir, const char *base)
{
    char old[PATH_MAX];
    if (rename(tmp, final) == 0)
        return 0;
    if (errno != ENOTEMPTY && errno != EEXIST)
        return -1;
    /* The two archives swapped in one step: a rank killed now (a checkpoint's rewrite)
     * leaves one whole archive at final, never none. */
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_EXCHANGE) == 0) {
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS); /* the old archive, now at tmp */
        return 0;
    }
    /* A file system without the exchange (EINVAL): the old one set aside first. */
    snprintf(old, sizeof old, "%s/.%s.old.XXXXXX", dir, base);
    if (!mkdtemp(old))
        return -1;
    if (rename(final, old) != 0) {
        int e = errno;
        rmdir(old);
        errno = e;
        return -1;
    }
    int ret = rename(tmp, final);
    nftw(old, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return ret;
}

void trace_otf2_discard(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#ifndef PAPI_HAVE_OTF2

int trace_otf2_available(char *why, size_t whylen)
{
    snprintf(why, whylen, "built without libotf2 (no OTF2 traces; JSON traces work)");
    return 0;
}

int trace_otf2_write(const char *dir, const char *base, const struct trace_meta *meta,
                     const struct trace_rank *ranks, int n, char *why, size_t whylen)
{
    (void)dir, (void)base, (void)meta, (void)ranks, (void)n;
    trace_otf2_available(why, whylen);
    return -1;
}

#else

#include "otf2_lib.h"
#include "trace_otf2_defs.h"
#include "trace_otf2_events.h"

int trace_otf2_available(char *why, size_t whylen)
{
    return otf2_lib(why, whylen) != NULL;
}

/* Names of every rank, merged by text into one global list: gid[k][i] is rank k's
 * name i there. */
struct gnames {
    const char **name;
    int n;
    uint32_t **gid;
    unsigned char *dbl; /* counters: 1 where the name's values are doubles (metrics) */
};

static int merge_names(struct gnames *g, const struct trace_rank *ranks, int nr, int counters)
{
    size_t total = 0;
    if (nr <= 0)
        nr = 0;
    for (int k = 0; k < nr; k++) {
        int m = counters ? ranks[k].ncounters : ranks[k].nregions;
        total += (size_t)(m > 0 ? m : 0);
    }
    g->name = malloc((total ? total : 1) * sizeof *g->name);
    g->gid = calloc((size_t)(nr > 0 ? nr : 1), sizeof *g->gid);
    if (!g->name || !g->gid)
        return -1;
    for (int k = 0; k < nr; k++) {
        int m = counters ? ranks[k].ncounters : ranks[k].nregions;
        const char *const *src = counters ? ranks[k].counter : ranks[k].region;
        if (!(g->gid[k] = malloc((size_t)(m > 0 ? m : 1) * sizeof **g->gid)))
            return -1;
        for (int i = 0; i < m; i++) {
            const char *s = src[i] ? src[i] : "?";
            int j = 0;
            while (j < g->n && strcmp(g->name[j], s) != 0)
                j++;
            if (j == g->n)
                g->name[g->n++] = s;
            g->gid[k][i] = (uint32_t)j;
        }
    }
    /* A metric member has one type: a name any rank gives a double value is a double. */
    if (!(g->dbl = calloc((size_t)(g->n ? g->n : 1), 1)))
        return -1;
    for (int k = 0; counters && k < nr; k++)
        for (size_t i = 0; i < ranks[k].nrec; i++) {
            const struct trace_record *e = &ranks[k].rec[i];
            if (e->kind == TR_COUNTER && e->vtype == TR_VALUE_DOUBLE &&
                e->id < (uint32_t)ranks[k].ncounters)
                g->dbl[g->gid[k][e->id]] = 1;
        }
    return 0;
}

static void gnames_free(struct gnames *g, int nr)
{
    if (g->gid)
        for (int k = 0; k < nr; k++)
            free(g->gid[k]);
    free(g->gid);
    free(g->name);
    free(g->dbl);
}

/* Distinct communicator numbers of the messages and collectives, in order of first use
 * (comm refs are their index). 0, or -1. */
static int collect_comms(const struct trace_rank *ranks, int nr, uint32_t **out, int *n)
{
    int cap = 0;
    *out = NULL;
    *n = 0;
    for (int k = 0; k < nr; k++)
        for (size_t i = 0; i < ranks[k].nrec; i++) {
            const struct trace_record *e = &ranks[k].rec[i];
            if (e->kind != TR_SEND && e->kind != TR_RECV && e->kind != TR_COLL_END)
                continue;
            int c = 0;
            while (c < *n && (*out)[c] != e->comm)
                c++;
            if (c < *n)
                continue;
            if (*n == cap) {
                uint32_t *nc = realloc(*out, (size_t)(cap = cap ? 2 * cap : 8) * sizeof *nc);
                if (!nc)
                    return -1;
                *out = nc;
            }
            (*out)[(*n)++] = e->comm;
        }
    return 0;
}

struct job {
    const struct trace_rank *ranks;
    int nr;
    struct gnames reg, ctr;
    uint32_t *comm;
    int ncomms;
    uint32_t **tid; /* each rank's thread labels */
    int *nt;
    uint64_t **nevents; /* per rank and thread */
    uint64_t first, last;
    int maxrank;
};

static int write_events(const struct otf2_lib *L, OTF2_Archive *a, struct job *j)
{
    for (int k = 0; k < j->nr; k++) {
        struct otf2_idmap m = {j->reg.gid[k], j->ctr.gid[k], j->ctr.dbl, j->comm, j->ncomms};
        if (otf2_write_rank_events(L, a, &j->ranks[k], &m, j->tid[k], j->nt[k], j->nevents[k]) < 0)
            return -1;
    }
    return 0;
}

static int write_defs(const struct otf2_lib *L, OTF2_Archive *a, struct job *j)
{
    struct otf2_rank_def *rd = calloc((size_t)(j->nr > 0 ? j->nr : 1), sizeof *rd);
    if (!rd)
        return -1;
    for (int k = 0; k < j->nr; k++)
        rd[k] = (struct otf2_rank_def){j->ranks[k].rank,  j->ranks[k].pid,    j->ranks[k].host,
                                       j->nt[k],          j->tid[k],          j->nevents[k],
                                       j->ranks[k].track, j->ranks[k].ntracks};
    struct otf2_defs d = {.region = j->reg.name,
                          .nregions = j->reg.n,
                          .counter = j->ctr.name,
                          .dbl = j->ctr.dbl,
                          .ncounters = j->ctr.n,
                          .comm = j->comm,
                          .ncomms = j->ncomms,
                          .ranks = rd,
                          .nranks = j->nr,
                          .maxrank = j->maxrank,
                          .first = j->first,
                          .last = j->last};
    int rc = otf2_write_global_defs(L, a, &d);
    free(rd);
    return rc;
}

static int write_archive(const struct otf2_lib *L, const char *path, const struct trace_meta *meta,
                         struct job *j)
{
    OTF2_Archive *a = L->OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                           OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a)
        return -1;
    int bad =
        L->OTF2_Archive_SetFlushCallbacks(a, trace_otf2_flush_callbacks(), NULL) != OTF2_SUCCESS ||
        L->OTF2_Archive_SetSerialCollectiveCallbacks(a) != OTF2_SUCCESS;
    if (!bad) {
        L->OTF2_Archive_SetCreator(a, meta->creator ? meta->creator : "papi-compat");
        if (meta->program)
            L->OTF2_Archive_SetDescription(a, meta->program);
        uint64_t dropped = 0;
        for (int k = 0; k < j->nr; k++)
            dropped += j->ranks[k].dropped;
        trace_otf2_set_dropped(L, a, dropped);
        bad = L->OTF2_Archive_OpenEvtFiles(a) != OTF2_SUCCESS || write_events(L, a, j) != 0;
        bad |= L->OTF2_Archive_CloseEvtFiles(a) != OTF2_SUCCESS;
    }
    if (!bad && L->OTF2_Archive_OpenDefFiles(a) == OTF2_SUCCESS) {
        for (int k = 0; k < j->nr; k++)
            for (int t = 0; t < j->nt[k]; t++) {
                OTF2_DefWriter *d =
                    L->OTF2_Archive_GetDefWriter(a, otf2_location(j->ranks[k].rank, t));
                if (d)
                    L->OTF2_Archive_CloseDefWriter(a, d);
            }
        bad |= L->OTF2_Archive_CloseDefFiles(a) != OTF2_SUCCESS;
    } else {
        bad = 1;
    }
    if (!bad)
        bad = write_defs(L, a, j) != 0;
    bad |= L->OTF2_Archive_Close(a) != OTF2_SUCCESS;
    return bad ? -1 : 0;
}

static void job_free(struct job *j)
{
    gnames_free(&j->reg, j->nr);
    gnames_free(&j->ctr, j->nr);
    free(j->comm);
    for (int k = 0; k < j->nr; k++) {
        if (j->tid)
            free(j->tid[k]);
        if (j->nevents)
            free(j->nevents[k]);
    }
    free(j->tid);
    free(j->nt);
    free(j->nevents);
}

int trace_otf2_write(const char *dir, const char *base, const struct trace_meta *meta,
                     const struct trace_rank *ranks, int n, char *why, size_t whylen)
{
    char tmp[PATH_MAX], final[PATH_MAX];
    struct job j = {.ranks = ranks, .nr = n};
    int ret = -1;
    const struct otf2_lib *L = otf2_lib(why, whylen);
    if (!L)
        return -1;
    if ((size_t)snprintf(final, sizeof final, "%s/%s", dir, base) >= sizeof final ||
        (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, base) >= sizeof tmp) {
        snprintf(why, whylen, "trace path %.200s/%.40s is too long", dir, base);
        return -1;
    }
    size_t nn = (size_t)(n ? n : 1);
    j.tid = calloc(nn, sizeof *j.tid);
    j.nt = calloc(nn, sizeof *j.nt);
    j.nevents = calloc(nn, sizeof *j.nevents);
    if (!j.tid || !j.nt || !j.nevents || merge_names(&j.reg, ranks, n, 0) != 0 ||
        merge_names(&j.ctr, ranks, n, 1) != 0 || collect_comms(ranks, n, &j.comm, &j.ncomms) != 0)
        goto nomem;
    for (int k = 0; k < n; k++) {
        if (ranks[k].rank < 0 || ranks[k].rank > 65535 * 256) {
            snprintf(why, whylen, "trace: rank %d out of range", ranks[k].rank);
            goto out;
        }
        if ((j.nt[k] = trace_threads(&ranks[k], &j.tid[k])) < 0 || j.nt[k] > 65535)
            goto nomem;
        if (!(j.nevents[k] = calloc((size_t)(j.nt[k] ? j.nt[k] : 1), sizeof **j.nevents)))
            goto nomem;
        if (ranks[k].rank > j.maxrank)
            j.maxrank = ranks[k].rank;
    }
    trace_span(ranks, n, &j.first, &j.last);
    if (!mkdtemp(tmp)) {
        snprintf(why, whylen, "trace not written: cannot create a directory in %.200s: %s", dir,
                 strerror(errno));
        goto out;
    }
    if (write_archive(L, tmp, meta, &j) != 0) {
        snprintf(why, whylen, "libotf2 could not write the trace archive %.200s", final);
        trace_otf2_discard(tmp);
        goto out;
    }
    chmod(tmp, 0755); /* mkdtemp's 0700 would hide it from the user's group */
    if (trace_otf2_publish(tmp, final, dir, base) != 0) {
        snprintf(why, whylen, "cannot rename the trace archive into %.200s: %s", final,
                 strerror(errno));
        trace_otf2_discard(tmp);
        goto out;
    }
    ret = 0;
    goto out;
nomem:
    snprintf(why, whylen, "trace: out of memory");
out:
    job_free(&j);
    return ret;
}

#endif
