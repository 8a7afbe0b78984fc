/* trace_names_tree.c: the job's table of trace names by a reduction tree
 * (trace_names_tree.h). A table travels packed: a head, then one entry per name, a
 * flags byte (1: a counter, 2: its values are doubles) and the name with its NUL, sorted
 * by (counter, name) and without duplicates, so two tables merge in one pass. */
#include <stdlib.h>
#include <string.h>

#include "idle_wait.h"
#include "trace_names_tree.h"

#define NAMES_TAG 0x7a3e /* on the caller's private communicator */
#define F_COUNTER 1u
#define F_DOUBLE  2u

struct head {
    uint64_t first, last; /* first UINT64_MAX, last 0: no record */
    uint32_t comms;       /* bit c: communicator number c used */
    uint32_t failed;
    uint32_t n;     /* entries */
    uint32_t bytes; /* of the entries */
};

struct table {
    struct head h;
    char *e; /* h.bytes of entries */
};

static int cmp_entry(const char *a, const char *b)
{
    int ca = *a & F_COUNTER, cb = *b & F_COUNTER;
    return ca != cb ? ca - cb : strcmp(a + 1, b + 1);
}

/* a and b merged into out (its entries malloc'ed): 0, or -1 without memory. */
static int merge(const struct table *a, const struct table *b, struct table *out)
{
    out->h = a->h;
    out->h.first = a->h.first < b->h.first ? a->h.first : b->h.first;
    out->h.last = a->h.last > b->h.last ? a->h.last : b->h.last;
    out->h.comms = a->h.comms | b->h.comms;
    out->h.failed = a->h.failed | b->h.failed;
    out->h.n = out->h.bytes = 0;
    char *o = out->e = malloc((size_t)a->h.bytes + b->h.bytes + 1);
    if (!o)
        return -1;
    const char *p = a->e, *pe = a->e + a->h.bytes, *q = b->e, *qe = b->e + b->h.bytes;
    while (p < pe || q < qe) {
        int c = p >= pe ? 1 : q >= qe ? -1 : cmp_entry(p, q);
        const char *take = c <= 0 ? p : q;
        size_t len = strlen(take + 1) + 2;
        memcpy(o, take, len);
        if (c == 0)
            *o |= *q; /* the same name: a double on either side is a double */
        o += len;
        out->h.n++;
        if (c <= 0)
            p += len;
        if (c >= 0)
            q += c == 0 ? strlen(q + 1) + 2 : len;
    }
    out->h.bytes = (uint32_t)(o - out->e);
    return 0;
}

static int by_entry(const void *x, const void *y)
{
    return cmp_entry(*(const char *const *)x, *(const char *const *)y);
}

/* This rank's own table: its names, sorted, a name given twice once. */
static int own_table(const struct trace_rank *r, struct table *t)
{
    int n = r->nregions + r->ncounters;
    size_t bytes = 0;
    unsigned char *dbl = calloc((size_t)(r->ncounters > 0 ? r->ncounters : 1), 1);
    char **ent = malloc((size_t)(n > 0 ? n : 1) * sizeof *ent);
    for (int i = 0; i < n; i++)
        bytes += strlen(i < r->nregions ? r->region[i] : r->counter[i - r->nregions]) + 2;
    char *raw = malloc(bytes + 1), *o = raw;
    t->e = malloc(bytes + 1);
    if (!dbl || !ent || !raw || !t->e) {
        free(dbl), free(ent), free(raw);
        return -1;
    }
    for (size_t i = 0; i < r->nrec; i++) {
        const struct trace_record *e = &r->rec[i];
        if (e->kind == TR_COUNTER && e->vtype == TR_VALUE_DOUBLE && e->id < (uint32_t)r->ncounters)
            dbl[e->id] = 1;
        if ((e->kind == TR_SEND || e->kind == TR_RECV || e->kind == TR_COLL_END) &&
            e->comm < TRACE_MAX_COMMS)
            t->h.comms |= 1u << e->comm;
    }
    for (int i = 0; i < n; i++) {
        int ctr = i >= r->nregions;
        const char *name = ctr ? r->counter[i - r->nregions] : r->region[i];
        ent[i] = o;
        *o = (char)(ctr ? F_COUNTER | (dbl[i - r->nregions] ? F_DOUBLE : 0) : 0);
        strcpy(o + 1, name ? name : "?");
        o += strlen(o + 1) + 2;
    }
    qsort(ent, (size_t)n, sizeof *ent, by_entry);
    char *last = NULL;
    o = t->e;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ent[i] + 1) + 2;
        if (last && cmp_entry(last, ent[i]) == 0) {
            *last |= *ent[i]; /* a name given twice: once */
            continue;
        }
        memcpy(o, ent[i], len);
        last = o;
        o += len;
        t->h.n++;
    }
    t->h.bytes = (uint32_t)(o - t->e);
    trace_span(r, 1, &t->h.first, &t->h.last);
    if (r->nrec == 0)
        t->h.first = UINT64_MAX, t->h.last = 0;
    free(dbl), free(ent), free(raw);
    return 0;
}

/* Takes a table from src (its head and entries in one message); a receive without memory
 * still takes the message (truncated: MPI_ERR_TRUNCATE, returned) and says failed. */
static void take(MPI_Comm comm, int src, struct table *t)
{
    MPI_Message m;
    MPI_Status st;
    int bytes = 0;
    memset(t, 0, sizeof *t);
    t->h.failed = 1;
    /* the child may still be merging its own subtree: wait without a core */
    if (pmpi_idle_mprobe(src, NAMES_TAG, comm, &m, &st) != MPI_SUCCESS)
        return; /* nothing matched: nothing to take */
    PMPI_Get_count(&st, MPI_BYTE, &bytes);
    char *buf = bytes >= (int)sizeof t->h ? malloc((size_t)bytes) : NULL;
    PMPI_Mrecv(buf, buf ? bytes : 0, MPI_BYTE, &m, MPI_STATUS_IGNORE);
    if (!buf)
        return;
    memcpy(&t->h, buf, sizeof t->h);
    if ((size_t)bytes != sizeof t->h + t->h.bytes)
        t->h.failed = 1, t->h.n = t->h.bytes = 0; /* not a table of ours */
    t->e = buf;                                   /* the entries moved to the front */
    memmove(buf, buf + sizeof t->h, t->h.bytes);
}

/* t as one message (head, entries): malloc'ed, *len bytes; NULL without memory. */
static char *packed(const struct table *t, int *len)
{
    char *buf = malloc(sizeof t->h + t->h.bytes);
    if (buf) {
        memcpy(buf, &t->h, sizeof t->h);
        memcpy(buf + sizeof t->h, t->e, t->h.bytes);
    }
    *len = buf ? (int)(sizeof t->h + t->h.bytes) : 0;
    return buf;
}

/* The binomial tree: rank me merges its children's tables (me + 1, me + 2, me + 4 ...
 * below its lowest set bit) into t and sends the result to its parent. Rank 0 ends with
 * the job's table. */
static void reduce_tree(MPI_Comm comm, int me, int P, struct table *t)
{
    for (int mask = 1; mask < P; mask <<= 1) {
        if (me & mask) {
            struct head failed = t->h;
            int len = 0;
            char *buf = packed(t, &len);
            failed.failed = 1, failed.n = failed.bytes = 0;
            PMPI_Send(buf ? buf : (char *)&failed, buf ? len : (int)sizeof failed, MPI_BYTE,
                      me - mask, NAMES_TAG, comm);
            free(buf);
            return;
        }
        if (me + mask >= P)
            continue;
        struct table child, sum;
        take(comm, me + mask, &child);
        if (merge(t, &child, &sum) == 0) {
            free(t->e);
            *t = sum;
        } else {
            t->h.failed = 1;
        }
        free(child.e);
    }
}

/* out's arrays from the job's table t (entries kept in out->buf). */
static int index_table(struct table *t, struct pmpi_trace_names *out)
{
    out->buf = t->e;
    t->e = NULL;
    out->region = malloc((t->h.n ? t->h.n : 1) * sizeof *out->region);
    out->dbl = calloc(t->h.n ? t->h.n : 1, 1);
    if (!out->region || !out->dbl)
        return -1;
    const char *p = out->buf;
    for (uint32_t i = 0; i < t->h.n; i++, p += strlen(p + 1) + 2) {
        if (*p & F_COUNTER)
            out->dbl[out->ncounters++] = (*p & F_DOUBLE) != 0;
        else
            out->nregions++;
        out->region[i] = p + 1;
    }
    out->counter = out->region + out->nregions; /* counters sort after regions */
    for (int c = 0; c < TRACE_MAX_COMMS; c++)
        if (t->h.comms & 1u << c)
            out->comm[out->ncomms++] = (uint32_t)c;
    out->first = t->h.first == UINT64_MAX ? 0 : t->h.first;
    out->last = t->h.first == UINT64_MAX ? 0 : t->h.last;
    return 0;
}

static int find(const char *const *names, int n, const char *s)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(names[mid], s);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* This rank's ids to the job's refs: every name is in the table (it was merged in). */
static int map_refs(const struct trace_rank *r, struct pmpi_trace_names *out)
{
    out->region_ref = malloc((size_t)(r->nregions > 0 ? r->nregions : 1) * sizeof(uint32_t));
    out->counter_ref = malloc((size_t)(r->ncounters > 0 ? r->ncounters : 1) * sizeof(uint32_t));
    if (!out->region_ref || !out->counter_ref)
        return -1;
    for (int i = 0; i < r->nregions; i++) {
        int k = find(out->region, out->nregions, r->region[i] ? r->region[i] : "?");
        if (k < 0)
            return -1;
        out->region_ref[i] = (uint32_t)k;
    }
    for (int i = 0; i < r->ncounters; i++) {
        int k = find(out->counter, out->ncounters, r->counter[i] ? r->counter[i] : "?");
        if (k < 0)
            return -1;
        out->counter_ref[i] = (uint32_t)k;
    }
    return 0;
}

int pmpi_trace_names_unify(MPI_Comm comm, const struct trace_rank *mine, int failed,
                           struct pmpi_trace_names *out)
{
    int me = 0, P = 1, len = 0, ok, all = 0;
    struct table t;
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &P);
    memset(out, 0, sizeof *out);
    memset(&t, 0, sizeof t);
    if (failed || own_table(mine, &t) != 0) {
        free(t.e);
        memset(&t, 0, sizeof t);
        t.h.failed = 1, t.h.first = UINT64_MAX;
    }
    reduce_tree(comm, me, P, &t);
    char *buf = me == 0 && !t.h.failed ? packed(&t, &len) : NULL;
    MPI_Request req; /* rank 0 merges last: the others wait without a core */
    pmpi_idle_complete(PMPI_Ibcast(&len, 1, MPI_INT, 0, comm, &req), &req); /* 0: failed */
    if (me != 0 && len > 0)
        buf = malloc((size_t)len);
    ok = len > 0 && buf != NULL;
    /* every rank has room, or none takes it */
    pmpi_idle_complete(PMPI_Iallreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm, &req), &req);
    if (all)
        pmpi_idle_complete(PMPI_Ibcast(buf, len, MPI_BYTE, 0, comm, &req), &req);
    free(t.e);
    memset(&t, 0, sizeof t);
    if (all) {
        memcpy(&t.h, buf, sizeof t.h);
        memmove(buf, buf + sizeof t.h, (size_t)len - sizeof t.h);
        t.e = buf;
        buf = NULL;
    }
    free(buf);
    out->failed = !all || index_table(&t, out) != 0 || map_refs(mine, out) != 0;
    free(t.e);
    return all ? 0 : -1;
}

void pmpi_trace_names_free(struct pmpi_trace_names *n)
{
    free(n->buf);
    free(n->region);
    free(n->dbl);
    free(n->region_ref);
    free(n->counter_ref);
    memset(n, 0, sizeof *n);
}
