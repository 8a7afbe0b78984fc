/* callsites.c: the per-(call, caller) statistics at MPI_Finalize.
 *
 * Each rank turns its threads' tables (return addresses) into records keyed by (call,
 * object file, offset in it): the same key on every rank whatever the address-space
 * layout. Records are merged up a binomial tree (a rank sends once, to rank - 2^k), so
 * what a rank holds is the union of the sites below it, not P copies. Rank 0 resolves
 * every site to function, file and line in-process (site_resolve.c, libdw) on the
 * object and the call instruction's offset (return address - 1). The report lists every
 * site; the banner the top ones. */
#include <stdint.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsites.h"
#include "finalize_agreement.h"
#include "idle_wait.h"
#include "record.h"
#include "pmpi_identity.h"
#include "site_resolve.h"
#include "state.h"
#include "json_writer.h"
#include "wait_states.h"

#define OBJ_LEN 256

struct site_rec {
    int id, ranks, max_rank, pad;
    int rank_lo, rank_hi; /* the ranks with the least and the most time here */
    long long offset, calls, ns, sent, recvd, min_ns, max_ns;
    long long rank_min_ns, rank_max_ns; /* their time at the site (ranks that called it) */
    long long lost_calls;               /* calls made here when the thread's table had no room */
    long long wait_ns[PMPI_WAIT_KINDS]; /* wait states at the site (wait_states.c) */
    char obj[OBJ_LEN];
};

/* What could not be kept, summed over the ranks: calls without an entry, records
 * lost for lack of memory, and whether a dropped site could not be remembered. */
/* Counts summed up the tree; DROP_WAITS_UNDONE: ranks whose waits were not computed
 * (then no site lists waits: rank 0 learns it here, with no agreement of its own). */
enum { DROP_CALLS, DROP_NOMEM_RECORDS, DROP_UNCOUNTED, DROP_WAITS_UNDONE, NDROP };

struct pmpi_site_report {
    struct site_rec *recs;    /* every site, by time (most first) */
    struct pmpi_where *where; /* for each record */
    size_t n;
    long long dropped;             /* calls without a site entry */
    long long sites_dropped;       /* sites with no entry on any rank: not in recs */
    long long sites_dropped_calls; /* their calls */
    long long nomem_records;       /* site records lost for lack of memory in the merge */
    long long uncounted;           /* ranks where a dropped site could not be remembered */
    int waits;                     /* the sites' waits were computed: listed */
};

/* Object file and offset of the call instruction before a return address. */
static void locate(uintptr_t ret, struct site_rec *r)
{
    r->offset = pmpi_locate(ret - 1, r->obj, sizeof r->obj);
}

static int key_cmp(const struct site_rec *a, const struct site_rec *b)
{
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    int c = strcmp(a->obj, b->obj);
    if (c)
        return c;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static int key_cmp_q(const void *a, const void *b)
{
    return key_cmp(a, b);
}

static void combine(struct site_rec *into, const struct site_rec *r)
{
    into->lost_calls += r->lost_calls;
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        into->wait_ns[k] += r->wait_ns[k];
    if (!r->calls) /* a site only dropped there: no statistics */
        return;
    if (!into->calls) {
        long long lost = into->lost_calls, w[PMPI_WAIT_KINDS];
        memcpy(w, into->wait_ns, sizeof w);
        *into = *r;
        into->lost_calls = lost;
        memcpy(into->wait_ns, w, sizeof w); /* r's were added above */
        return;
    }
    into->calls += r->calls;
    into->ns += r->ns;
    into->sent += r->sent;
    into->recvd += r->recvd;
    into->ranks += r->ranks;
    if (r->min_ns < into->min_ns)
        into->min_ns = r->min_ns;
    if (r->max_ns > into->max_ns || (r->max_ns == into->max_ns && r->max_rank < into->max_rank)) {
        into->max_ns = r->max_ns;
        into->max_rank = r->max_rank;
    }
    /* Across ranks (local records get theirs after the rank's own squeeze). */
    if (r->rank_min_ns < into->rank_min_ns) {
        into->rank_min_ns = r->rank_min_ns;
        into->rank_lo = r->rank_lo;
    }
    if (r->rank_max_ns > into->rank_max_ns) {
        into->rank_max_ns = r->rank_max_ns;
        into->rank_hi = r->rank_hi;
    }
}

/* Sorted, adjacent duplicates combined; returns the new count. */
static size_t squeeze(struct site_rec *v, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out && key_cmp(&v[out - 1], &v[i]) == 0)
            combine(&v[out - 1], &v[i]);
        else
            v[out++] = v[i];
    }
    return out;
}

struct local {
    struct site_rec *v;
    size_t n, cap;
    long long nomem; /* records that found no memory */
};

/* A new record for (call id, return address), or NULL (counted) without memory. */
static struct site_rec *push(struct local *l, uint64_t key)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        struct site_rec *p = realloc(l->v, nc * sizeof *p);
        if (!p) {
            l->nomem++;
            return NULL;
        }
        l->v = p;
        l->cap = nc;
    }
    struct site_rec *r = &l->v[l->n++];
    memset(r, 0, sizeof *r);
    r->id = (int)(key >> 48) - 1;
    r->max_rank = pmpi_id()->rank;
    locate((uintptr_t)(key & ((1ULL << 48) - 1)), r);
    return r;
}

/* A site that found no entry in its thread's table: its calls, no statistics. */
static void push_lost(void *arg, uint64_t key, long long calls)
{
    struct site_rec *r = push(arg, key);
    if (r)
        r->lost_calls = calls;
}

static struct site_rec *local_records(double ns_per_tick, const struct pmpi_wait_result *w,
                                      size_t *count, long long drop[NDROP])
{
    int nt = pmpi_record_nslots();
    struct local l = {NULL, 0, 0, 0};
    for (int t = 0; t < nt; t++) {
        struct pmpi_thread *th = &pmpi_rec.threads[t];
        drop[DROP_CALLS] += atomic_load(&th->sites_dropped);
        const struct pmpi_site *sites = pmpi_slot_sites(th);
        for (int i = 0; sites && i < PMPI_SITE_SLOTS; i++) {
            const struct pmpi_site *e = &sites[i];
            uint64_t key = atomic_load(&e->key);
            long long calls = atomic_load(&e->calls);
            if (!key || !calls)
                continue;
            struct site_rec *r = push(&l, key);
            if (!r)
                continue;
            r->ranks = 1;
            r->calls = calls;
            r->ns = (long long)((double)atomic_load(&e->ticks) * ns_per_tick);
            r->sent = atomic_load(&e->sent);
            r->recvd = atomic_load(&e->recvd);
            r->min_ns = (long long)((double)atomic_load(&e->min) * ns_per_tick);
            r->max_ns = (long long)((double)atomic_load(&e->max) * ns_per_tick);
            pmpi_waits_of_site(w, key, r->wait_ns);
        }
        if (sites && pmpi_site_overflow_each(t, push_lost, &l))
            drop[DROP_UNCOUNTED] = 1;
    }
    drop[DROP_NOMEM_RECORDS] += l.nomem;
    drop[DROP_WAITS_UNDONE] = !w->done;
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, key_cmp_q);
    *count = squeeze(l.v, l.n);
    for (size_t i = 0; i < *count; i++) { /* this rank's whole time at each site */
        l.v[i].rank_min_ns = l.v[i].rank_max_ns = l.v[i].ns;
        l.v[i].rank_lo = l.v[i].rank_hi = pmpi_id()->rank;
    }
    return l.v;
}

/* Two sorted record lists into one (the union, duplicates combined). */
static struct site_rec *merge(struct site_rec *a, size_t na, const struct site_rec *b, size_t nb,
                              size_t *n, long long *nomem)
{
    struct site_rec *v = malloc((na + nb ? na + nb : 1) * sizeof *v);
    size_t i = 0, j = 0, k = 0;
    if (!v) {
        *nomem += (long long)nb; /* said in the report */
        *n = na;
        return a;
    }
    while (i < na || j < nb) {
        if (j == nb || (i < na && key_cmp(&a[i], &b[j]) <= 0))
            v[k++] = a[i++];
        else
            v[k++] = b[j++];
    }
    free(a);
    *n = squeeze(v, k);
    return v;
}

static int by_time_desc(const void *a, const void *b)
{
    const struct site_rec *x = a, *y = b;
    return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : key_cmp(x, y);
}

/* Records go up the tree in pieces of PIECE records (an MPI count is an int: no piece
 * comes near 2^31 whatever the number of sites; the record count goes first as a
 * 64-bit value, with the sender's subtree's drop counts beside it: summed on the way
 * up, no reduction of their own). A parent that cannot keep them receives each piece
 * into a scratch piece all the same, so the sender never blocks. */
#define PIECE 256

static void send_records(const struct site_rec *v, size_t n, const long long drop[NDROP], int to,
                         MPI_Datatype t, MPI_Comm comm)
{
    long long head[1 + NDROP] = {(long long)n};
    memcpy(head + 1, drop, NDROP * sizeof *drop);
    PMPI_Send(head, 1 + NDROP, MPI_LONG_LONG, to, 1, comm);
    for (size_t done = 0; done < n; done += PIECE)
        PMPI_Send(v + done, (int)(n - done < PIECE ? n - done : PIECE), t, to, 2, comm);
}

static struct site_rec *recv_records(int from, MPI_Datatype t, MPI_Comm comm, size_t *n,
                                     long long drop[NDROP])
{
    static struct site_rec scratch[PIECE];
    long long head[1 + NDROP] = {0};
    MPI_Request req; /* the child may still be merging its own subtree: wait without a core */
    pmpi_idle_complete(PMPI_Irecv(head, 1 + NDROP, MPI_LONG_LONG, from, 1, comm, &req), &req);
    for (int k = 0; k < NDROP; k++)
        drop[k] += head[1 + k]; /* the subtree's, summed on the way up */
    unsigned long long count = head[0] > 0 ? (unsigned long long)head[0] : 0;
    struct site_rec *in =
        count <= SIZE_MAX / sizeof *in ? malloc(count ? count * sizeof *in : 1) : NULL;
    for (size_t done = 0; done < count; done += PIECE) {
        int piece = (int)(count - done < PIECE ? count - done : PIECE);
        PMPI_Recv(in ? in + done : scratch, piece, t, from, 2, comm, MPI_STATUS_IGNORE);
    }
    *n = in ? (size_t)count : 0;
    if (!in)
        drop[DROP_NOMEM_RECORDS] += (long long)count; /* said in the report */
    return in;
}

/* Every site of one object file resolved in one pass (rank 0). */
static void resolve_object(struct pmpi_site_report *r, const char *obj)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += strcmp(r->recs[i].obj, obj) == 0;
    size_t *idx = malloc(n * sizeof *idx);
    long long *offs = malloc(n * sizeof *offs);
    struct pmpi_where *w = malloc(n * sizeof *w);
    if (idx && offs && w) {
        n = 0;
        for (size_t i = 0; i < r->n; i++)
            if (strcmp(r->recs[i].obj, obj) == 0) {
                idx[n] = i;
                offs[n++] = r->recs[i].offset;
            }
        pmpi_resolve_object(obj, offs, w, n);
        for (size_t k = 0; k < n; k++)
            r->where[idx[k]] = w[k];
    }
    free(idx);
    free(offs);
    free(w);
}

struct pmpi_site_report *pmpi_callsites_merge(double ns_per_tick, const struct pmpi_wait_result *w)
{
    size_t n = 0;
    long long drop[NDROP] = {0}; /* this rank's, then its subtree's: rank 0's are the job's */
    struct site_rec *v = local_records(ns_per_tick, w, &n, drop);
    MPI_Comm comm = pmpi_own_comm(); /* tags 1 and 2 */
    MPI_Datatype rec_type;           /* one record: counts stay record counts, never byte counts */
    int rank = pmpi_id()->rank, size = pmpi_id()->nranks;
    PMPI_Type_contiguous((int)sizeof *v, MPI_BYTE, &rec_type);
    PMPI_Type_commit(&rec_type);
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            send_records(v, n, drop, rank - step, rec_type, comm);
            break;
        }
        if (rank + step < size) {
            size_t nin = 0;
            struct site_rec *in = recv_records(rank + step, rec_type, comm, &nin, drop);
            if (in)
                v = merge(v, n, in, nin, &n, &drop[DROP_NOMEM_RECORDS]);
            free(in);
        }
    }
    PMPI_Type_free(&rec_type);
    if (rank != 0) {
        free(v);
        return NULL;
    }
    struct pmpi_site_report *r = calloc(1, sizeof *r);
    if (!r) {
        free(v);
        fprintf(stderr, "papi_mpi: no memory for the call-site report: no site reported\n");
        return NULL;
    }
    /* Sites with no entry on any rank leave the list: counted, never silently. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].calls)
            v[kept++] = v[i];
        else {
            r->sites_dropped++;
            r->sites_dropped_calls += v[i].lost_calls;
        }
    }
    n = kept;
    if (n)
        qsort(v, n, sizeof *v, by_time_desc);
    r->recs = v;
    r->n = n;
    r->dropped = drop[DROP_CALLS];
    r->nomem_records = drop[DROP_NOMEM_RECORDS];
    r->uncounted = drop[DROP_UNCOUNTED];
    r->waits = drop[DROP_WAITS_UNDONE] == 0;
    r->where = calloc(n ? n : 1, sizeof *r->where);
    if (!r->where) {
        r->nomem_records += (long long)n; /* said in the report */
        r->n = 0;
        return r;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(r->where[i].function, sizeof r->where[i].function, "??");
        snprintf(r->where[i].file, sizeof r->where[i].file, "??");
        r->where[i].note = "address outside every loaded object";
    }
    /* One pass per object file (sites are few per object, objects few). */
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->recs[j].obj, r->recs[i].obj) == 0;
        if (!seen && r->recs[i].obj[0] != '?')
            resolve_object(r, r->recs[i].obj);
    }
    return r;
}

/* Out of memory: what the report misses, said in the JSON and the banner. */
static void drop_note(const struct pmpi_site_report *r, char *out, size_t len)
{
    snprintf(out, len, "out of memory: %lld site records lost in the merge%s", r->nomem_records,
             r->uncounted ? "; on some ranks a dropped site could not be remembered: "
                            "sites_dropped is a lower bound"
                          : "");
}

size_t pmpi_callsites_count(const struct pmpi_site_report *r)
{
    return r ? r->n : 0;
}

/* One merged call site: where it is, its calls over the ranks, its wait states. */
static void site_json(struct jw *w, const struct pmpi_site_report *r, size_t i)
{
    const struct site_rec *s = &r->recs[i];
    const struct pmpi_where *at = &r->where[i];
    jw_break(w, "\n  ");
    jw_obj_begin(w, NULL);
    jw_str(w, "call", pmpi_calls[s->id].name);
    jw_str(w, "function", at->function);
    jw_str(w, "file", at->file);
    jw_int(w, "line", at->line);
    if (at->inlined_into[0])
        jw_str(w, "inlined_into", at->inlined_into);
    if (at->note)
        jw_str(w, "note", at->note);
    if (s->lost_calls)
        jw_int(w, "calls_without_entry", s->lost_calls);
    jw_str(w, "object", s->obj);
    jw_hex(w, "offset", (unsigned long long)s->offset);
    jw_int(w, "ranks", s->ranks);
    jw_int(w, "calls", s->calls);
    jw_secs(w, "time_s", s->ns);
    jw_int(w, "bytes_sent", s->sent);
    jw_int(w, "bytes_recv", s->recvd);
    jw_secs(w, "min_call_s", s->min_ns);
    jw_secs(w, "max_call_s", s->max_ns);
    jw_int(w, "max_call_rank", s->max_rank);
    jw_secs(w, "rank_min_s", s->rank_min_ns);
    jw_int(w, "rank_min", s->rank_lo);
    jw_secs(w, "rank_max_s", s->rank_max_ns);
    jw_int(w, "rank_max", s->rank_hi);
    if (r->waits) {
        jw_obj_begin(w, "waits");
        for (int k = 0; k < PMPI_WAIT_KINDS; k++)
            jw_secs(w, pmpi_wait_names[k], s->wait_ns[k]);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

void pmpi_callsites_json(const struct pmpi_site_report *r, struct jw *w)
{
    jw_obj_begin(w, "callsites");
    jw_int(w, "sites", r ? (long long)r->n : 0);
    jw_int(w, "calls_without_site", r ? r->dropped : 0);
    jw_int(w, "sites_dropped", r ? r->sites_dropped : 0);
    jw_int(w, "per_thread_table", PMPI_SITE_SLOTS);
    if (r && (r->nomem_records || r->uncounted)) {
        char note[256];
        drop_note(r, note, sizeof note);
        jw_str(w, "note", note);
    }
    jw_arr_begin(w, "top");
    for (size_t i = 0; r && i < r->n; i++)
        site_json(w, r, i);
    jw_arr_end(w);
    jw_obj_end(w);
}

void pmpi_callsites_print(FILE *out, const struct pmpi_site_report *r, int top)
{
    if (r && r->dropped)
        fprintf(out,
                "  call sites dropped: %lld calls found no entry in their thread's table of %d: "
                "%lld sites (%lld calls) not in the report, %lld calls at sites in it "
                "(calls_without_entry)\n",
                r->dropped, PMPI_SITE_SLOTS, r->sites_dropped, r->sites_dropped_calls,
                r->dropped - r->sites_dropped_calls);
    if (r && (r->nomem_records || r->uncounted)) {
        char note[256];
        drop_note(r, note, sizeof note);
        fprintf(out, "  call sites: %s\n", note);
    }
    if (!r || r->n == 0)
        return;
    fprintf(out, "  top %zu of %zu call sites by time (all ranks; the report lists every one):\n",
            r->n < (size_t)top ? r->n : (size_t)top, r->n);
    for (size_t i = 0; i < r->n && i < (size_t)top; i++) {
        const struct site_rec *s = &r->recs[i];
        const char *file = strrchr(r->where[i].file, '/');
        fprintf(out, "  %-22s %s:%d (%s) ranks %d, calls %lld, time %.6f s, sent %lld B\n",
                pmpi_calls[s->id].name, file ? file + 1 : r->where[i].file, r->where[i].line,
                r->where[i].function, s->ranks, s->calls, (double)s->ns * 1e-9, s->sent);
    }
}

void pmpi_callsites_free(struct pmpi_site_report *r)
{
    if (!r)
        return;
    free(r->recs);
    free(r->where);
    free(r);
}
