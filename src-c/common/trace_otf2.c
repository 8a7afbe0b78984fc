/* trace_otf2.c: the OTF2 back end. The archive <dir>/<base>/traces.otf2 holds a location
 * group (a process) per rank and a location per thread of it (location id = rank << 16 |
 * the thread's number in its rank), the regions, MPI point-to-point and collective
 * records on communicators over MPI_COMM_WORLD's ranks, and each counter as an
 * asynchronous metric of one member. Written by one process (serial collectives), into
 * a temporary directory renamed into place when whole.
 *
 * libotf2 is loaded at run time (dlopen of the library cmake found), so libpapi and its
 * users never link it; without its headers at build time (PAPI_WITH_OTF2=OFF or not
 * found) this file only says so. */
#include <stdio.h>
#include <string.h>

#include "trace_otf2.h"

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

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define OTF2_FUNCS(X)                            \
    X(OTF2_Archive_Open)                         \
    X(OTF2_Archive_SetFlushCallbacks)            \
    X(OTF2_Archive_SetSerialCollectiveCallbacks) \
    X(OTF2_Archive_SetCreator)                   \
    X(OTF2_Archive_SetDescription)               \
    X(OTF2_Archive_OpenEvtFiles)                 \
    X(OTF2_Archive_GetEvtWriter)                 \
    X(OTF2_Archive_CloseEvtWriter)               \
    X(OTF2_Archive_CloseEvtFiles)                \
    X(OTF2_Archive_OpenDefFiles)                 \
    X(OTF2_Archive_GetDefWriter)                 \
    X(OTF2_Archive_CloseDefWriter)               \
    X(OTF2_Archive_CloseDefFiles)                \
    X(OTF2_Archive_GetGlobalDefWriter)           \
    X(OTF2_Archive_Close)                        \
    X(OTF2_EvtWriter_Enter)                      \
    X(OTF2_EvtWriter_Leave)                      \
    X(OTF2_EvtWriter_MpiSend)                    \
    X(OTF2_EvtWriter_MpiRecv)                    \
    X(OTF2_EvtWriter_MpiCollectiveBegin)         \
    X(OTF2_EvtWriter_MpiCollectiveEnd)           \
    X(OTF2_EvtWriter_Metric)                     \
    X(OTF2_GlobalDefWriter_WriteClockProperties) \
    X(OTF2_GlobalDefWriter_WriteString)          \
    X(OTF2_GlobalDefWriter_WriteSystemTreeNode)  \
    X(OTF2_GlobalDefWriter_WriteLocationGroup)   \
    X(OTF2_GlobalDefWriter_WriteLocation)        \
    X(OTF2_GlobalDefWriter_WriteRegion)          \
    X(OTF2_GlobalDefWriter_WriteGroup)           \
    X(OTF2_GlobalDefWriter_WriteComm)            \
    X(OTF2_GlobalDefWriter_WriteMetricMember)    \
    X(OTF2_GlobalDefWriter_WriteMetricClass)

static struct {
#define DECLARE(f) __typeof__(f) *f;
    OTF2_FUNCS(DECLARE)
#undef DECLARE
} L;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_why[256];
static int loaded;

/* Kept loaded once loaded: a later trace needs it again, and unloading gains nothing. */
static void load(void)
{
    static const char *const names[] = {PAPI_OTF2_SONAME, PAPI_OTF2_LIBRARY};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_why, sizeof load_why, "libotf2 not loaded (%.200s)", e ? e : "?");
        return;
    }
#define LOOKUP(f)                                                    \
    if (!(*(void **)&L.f = dlsym(h, #f))) {                          \
        snprintf(load_why, sizeof load_why, "libotf2 lacks %s", #f); \
        return;                                                      \
    }
    OTF2_FUNCS(LOOKUP)
#undef LOOKUP
    loaded = 1;
}

int trace_otf2_available(char *why, size_t whylen)
{
    pthread_once(&load_once, load);
    if (!loaded)
        snprintf(why, whylen, "%s", load_why);
    return loaded;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void)user, (void)ft, (void)loc, (void)cb, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)user, (void)ft, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush,
                                              .otf2_post_flush = post_flush};

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
    if (!counters)
        return 0;
    /* A metric member has one type: a name any rank gives a double value is a double. */
    if (!(g->dbl = calloc((size_t)(g->n ? g->n : 1), 1)))
        return -1;
    for (int k = 0; k < nr; k++)
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

/* Distinct communicator numbers used (comm refs are their index). */
struct comms {
    uint32_t *c;
    int n, cap;
};

static int comm_ref(struct comms *cs, uint32_t c)
{
    for (int i = 0; i < cs->n; i++)
        if (cs->c[i] == c)
            return i;
    if (cs->n == cs->cap) {
        int nc = cs->cap ? 2 * cs->cap : 8;
        uint32_t *n = realloc(cs->c, (size_t)nc * sizeof *n);
        if (!n)
            return -1;
        cs->c = n;
        cs->cap = nc;
    }
    cs->c[cs->n] = c;
    return cs->n++;
}

struct job {
    const struct trace_rank *ranks;
    int nr;
    struct gnames reg, ctr;
    struct comms comms;
    uint32_t **tid; /* each rank's thread labels */
    int *nt;
    uint64_t **nevents; /* per rank and thread */
    uint64_t first, last;
    int maxrank;
};

static OTF2_LocationRef loc_of(int rank, int thread)
{
    return (OTF2_LocationRef)rank << 16 | (OTF2_LocationRef)thread;
}

static int thread_of(const struct job *j, int k, uint32_t label)
{
    for (int i = 0; i < j->nt[k]; i++)
        if (j->tid[k][i] == label)
            return i;
    return 0;
}

static const OTF2_Type int64_type = OTF2_TYPE_INT64, double_type = OTF2_TYPE_DOUBLE;

static OTF2_ErrorCode write_counter(OTF2_EvtWriter *ew, const struct job *j, int k,
                                    const struct trace_record *e)
{
    uint32_t gid = j->ctr.gid[k][e->id];
    OTF2_MetricValue v = {.signed_int = e->value};
    if (j->ctr.dbl[gid])
        v.floating_point = e->vtype == TR_VALUE_DOUBLE ? trace_value_double(e) : (double)e->value;
    return L.OTF2_EvtWriter_Metric(ew, NULL, e->ts, gid, 1,
                                   j->ctr.dbl[gid] ? &double_type : &int64_type, &v);
}

/* One record of rank k as an event of ew: 1 written, 0 left out (a name or a peer it
 * does not have), -1 failed. */
static int write_record(OTF2_EvtWriter *ew, struct job *j, int k, const struct trace_record *e)
{
    const struct trace_rank *r = &j->ranks[k];
    OTF2_TimeStamp ts = e->ts;
    OTF2_ErrorCode rc;
    int cr;
    switch (e->kind) {
    case TR_ENTER:
    case TR_LEAVE:
        if (e->id >= (uint32_t)r->nregions)
            return 0;
        rc = (e->kind == TR_ENTER ? L.OTF2_EvtWriter_Enter
                                  : L.OTF2_EvtWriter_Leave)(ew, NULL, ts, j->reg.gid[k][e->id]);
        break;
    case TR_COUNTER:
        if (e->id >= (uint32_t)r->ncounters)
            return 0;
        rc = write_counter(ew, j, k, e);
        break;
    case TR_SEND:
    case TR_RECV:
        if ((cr = comm_ref(&j->comms, e->comm)) < 0 || e->peer < 0)
            return cr < 0 ? -1 : 0;
        rc = (e->kind == TR_SEND ? L.OTF2_EvtWriter_MpiSend : L.OTF2_EvtWriter_MpiRecv)(
            ew, NULL, ts, (uint32_t)e->peer, (OTF2_CommRef)cr, (uint32_t)e->tag, e->bytes);
        break;
    case TR_COLL_BEGIN:
        rc = L.OTF2_EvtWriter_MpiCollectiveBegin(ew, NULL, ts);
        break;
    case TR_COLL_END:
        if ((cr = comm_ref(&j->comms, e->comm)) < 0)
            return -1;
        rc = L.OTF2_EvtWriter_MpiCollectiveEnd(
            ew, NULL, ts, (OTF2_CollectiveOp)e->collop, (OTF2_CommRef)cr,
            e->peer < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)e->peer, e->bytes, (uint64_t)e->value);
        break;
    default:
        return 0;
    }
    return rc == OTF2_SUCCESS ? 1 : -1;
}

/* Rank k's records through a writer per thread: 0, or -1. */
static int write_rank_events(OTF2_Archive *a, struct job *j, int k)
{
    const struct trace_rank *r = &j->ranks[k];
    size_t *ord = trace_order(r);
    OTF2_EvtWriter **w = calloc((size_t)(j->nt[k] ? j->nt[k] : 1), sizeof *w);
    int bad = !ord || !w;
    for (int t = 0; !bad && t < j->nt[k]; t++)
        w[t] = L.OTF2_Archive_GetEvtWriter(a, loc_of(r->rank, t));
    for (size_t i = 0; !bad && i < r->nrec; i++) {
        const struct trace_record *e = &r->rec[ord[i]];
        int t = thread_of(j, k, e->thread);
        int got = w[t] ? write_record(w[t], j, k, e) : -1;
        bad = got < 0;
        j->nevents[k][t] += got > 0;
    }
    for (int t = 0; w && t < j->nt[k]; t++)
        if (w[t])
            L.OTF2_Archive_CloseEvtWriter(a, w[t]);
    free(ord);
    free(w);
    return bad ? -1 : 0;
}

static int write_events(OTF2_Archive *a, struct job *j)
{
    for (int k = 0; k < j->nr; k++)
        if (write_rank_events(a, j, k) < 0)
            return -1;
    return 0;
}

struct strings {
    OTF2_GlobalDefWriter *g;
    OTF2_StringRef next;
};

static OTF2_StringRef str(struct strings *s, const char *text)
{
    OTF2_StringRef r = s->next++;
    L.OTF2_GlobalDefWriter_WriteString(s->g, r, text);
    return r;
}

/* The system tree (the job, a node per host), a location group per rank and a location
 * per thread of it. */
static void def_locations(OTF2_GlobalDefWriter *g, struct strings *s, const struct job *j)
{
    char buf[256];
    L.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str(s, "job"), str(s, "job"),
                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_StringRef node = str(s, "node");
    for (int k = 0; k < j->nr; k++) {
        const struct trace_rank *r = &j->ranks[k];
        const char *host = r->host ? r->host : "?";
        int h = 0; /* the first rank on this host names its node (one each: simple, exact) */
        while (strcmp(j->ranks[h].host ? j->ranks[h].host : "?", host) != 0)
            h++;
        if (h == k)
            L.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, (OTF2_SystemTreeNodeRef)k + 1,
                                                       str(s, host), node, 0);
        snprintf(buf, sizeof buf, "rank %d (pid %ld)", r->rank, r->pid);
        L.OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (OTF2_LocationGroupRef)r->rank, str(s, buf), OTF2_LOCATION_GROUP_TYPE_PROCESS,
            (OTF2_SystemTreeNodeRef)h + 1, OTF2_UNDEFINED_LOCATION_GROUP);
        for (int t = 0; t < j->nt[k]; t++) {
            char track[64];
            trace_track_name(j->tid[k][t], track, sizeof track);
            snprintf(buf, sizeof buf, "rank %d %s", r->rank, track);
            /* a GPU's stream: OTF2's accelerator stream (2; "GPU" before OTF2 3.0) */
            L.OTF2_GlobalDefWriter_WriteLocation(g, loc_of(r->rank, t), str(s, buf),
                                                 TRACE_IS_GPU_TRACK(j->tid[k][t])
                                                     ? (OTF2_LocationType)2
                                                     : OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 j->nevents[k][t], (OTF2_LocationGroupRef)r->rank);
        }
    }
}

/* MPI's locations (rank r: its first thread's location) and, for every communicator
 * used, a group of all ranks: peers are ranks of MPI_COMM_WORLD. 0, or -1. */
static int def_comms(OTF2_GlobalDefWriter *g, struct strings *s, const struct job *j)
{
    char buf[64];
    int nm = j->maxrank + 1;
    uint64_t *m = malloc((size_t)nm * sizeof *m);
    if (!m)
        return -1;
    for (int r = 0; r < nm; r++)
        m[r] = loc_of(r, 0);
    L.OTF2_GlobalDefWriter_WriteGroup(g, 0, str(s, "MPI locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nm, m);
    for (int r = 0; r < nm; r++)
        m[r] = (uint64_t)r;
    L.OTF2_GlobalDefWriter_WriteGroup(g, 1, str(s, "MPI_COMM_WORLD's ranks"),
                                      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, (uint32_t)nm, m);
    free(m);
    for (int c = 0; c < j->comms.n; c++) {
        if (j->comms.c[c] == 0)
            snprintf(buf, sizeof buf, "MPI_COMM_WORLD");
        else
            snprintf(buf, sizeof buf, "communicator %u", (unsigned)j->comms.c[c]);
        L.OTF2_GlobalDefWriter_WriteComm(g, (OTF2_CommRef)c, str(s, buf), 1, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE);
    }
    return 0;
}

/* Each counter: a metric member of one value and its asynchronous metric class. */
static void def_metrics(OTF2_GlobalDefWriter *g, struct strings *s, const struct job *j,
                        OTF2_StringRef empty)
{
    for (int i = 0; i < j->ctr.n; i++) {
        OTF2_MetricMemberRef mm = (OTF2_MetricMemberRef)i;
        L.OTF2_GlobalDefWriter_WriteMetricMember(
            g, mm, str(s, j->ctr.name[i]), empty, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ABSOLUTE_POINT,
            j->ctr.dbl[i] ? OTF2_TYPE_DOUBLE : OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0, str(s, "#"));
        L.OTF2_GlobalDefWriter_WriteMetricClass(
            g, (OTF2_MetricRef)i, 1, &mm, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT);
    }
}

static int write_defs(OTF2_Archive *a, struct job *j)
{
    OTF2_GlobalDefWriter *g = L.OTF2_Archive_GetGlobalDefWriter(a);
    if (!g)
        return -1;
    struct strings s = {g, 0};
    L.OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000ULL, j->first, j->last - j->first + 1,
                                                OTF2_UNDEFINED_TIMESTAMP);
    OTF2_StringRef empty = str(&s, "");
    def_locations(g, &s, j);
    for (int i = 0; i < j->reg.n; i++) {
        int mpi = strncmp(j->reg.name[i], "MPI_", 4) == 0;
        OTF2_StringRef nm = str(&s, j->reg.name[i]);
        L.OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)i, nm, nm, empty,
                                           mpi ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_CODE,
                                           mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                           OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
    if (j->comms.n > 0 && def_comms(g, &s, j) < 0)
        return -1;
    def_metrics(g, &s, j, empty);
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* tmp renamed to final; an archive already there (the same process's earlier trace) is
 * replaced: renamed over an empty directory of ours, then removed. */
static int publish(const char *tmp, const char *final, const char *dir, const char *base)
{
    char old[PATH_MAX];
    if (rename(tmp, final) == 0)
        return 0;
    if (errno != ENOTEMPTY && errno != EEXIST)
        return -1;
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

static int write_archive(const char *path, const struct trace_meta *meta, struct job *j)
{
    OTF2_Archive *a = L.OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a)
        return -1;
    int bad = L.OTF2_Archive_SetFlushCallbacks(a, &flush_cbs, NULL) != OTF2_SUCCESS ||
              L.OTF2_Archive_SetSerialCollectiveCallbacks(a) != OTF2_SUCCESS;
    if (!bad) {
        L.OTF2_Archive_SetCreator(a, meta->creator ? meta->creator : "papi-compat");
        if (meta->program)
            L.OTF2_Archive_SetDescription(a, meta->program);
        bad = L.OTF2_Archive_OpenEvtFiles(a) != OTF2_SUCCESS || write_events(a, j) != 0;
        bad |= L.OTF2_Archive_CloseEvtFiles(a) != OTF2_SUCCESS;
    }
    if (!bad && L.OTF2_Archive_OpenDefFiles(a) == OTF2_SUCCESS) {
        for (int k = 0; k < j->nr; k++)
            for (int t = 0; t < j->nt[k]; t++) {
                OTF2_DefWriter *d = L.OTF2_Archive_GetDefWriter(a, loc_of(j->ranks[k].rank, t));
                if (d)
                    L.OTF2_Archive_CloseDefWriter(a, d);
            }
        bad |= L.OTF2_Archive_CloseDefFiles(a) != OTF2_SUCCESS;
    } else {
        bad = 1;
    }
    if (!bad)
        bad = write_defs(a, j) != 0;
    bad |= L.OTF2_Archive_Close(a) != OTF2_SUCCESS;
    return bad ? -1 : 0;
}

static void job_free(struct job *j)
{
    gnames_free(&j->reg, j->nr);
    gnames_free(&j->ctr, j->nr);
    free(j->comms.c);
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
    if (!trace_otf2_available(why, whylen))
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
        merge_names(&j.ctr, ranks, n, 1) != 0)
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
    if (write_archive(tmp, meta, &j) != 0) {
        snprintf(why, whylen, "libotf2 could not write the trace archive %.200s", final);
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
        goto out;
    }
    chmod(tmp, 0755); /* mkdtemp's 0700 would hide it from the user's group */
    if (publish(tmp, final, dir, base) != 0) {
        snprintf(why, whylen, "cannot rename the trace archive into %.200s: %s", final,
                 strerror(errno));
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
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
