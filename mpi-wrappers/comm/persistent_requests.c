/* persistent_requests.c: the rank's one table of persistent requests
 * (persistent_requests.h). A *_init call files its request's partners (as world ranks,
 * translated once, at the *_init: comm_translate.c), tag, bytes of one start and kind;
 * each MPI_Start/MPI_Startall wrapper reads them once (pmpi_persist_started) and hands
 * them to the partners (traffic.c) and the event log (event_log.c); MPI_Request_free
 * forgets them. One table, so that both always see the
 * same requests: one filing, one forget, one drop counter (reported in the row's
 * partners_dropped).
 *
 * Open addressing keyed by the request handle, no lock and no allocation, so a start
 * costs a few loads and a signal handler may read it: a slot is claimed by a CAS of its
 * key to BUSY, filled, and published by a release store of the key; a reader copies the
 * fields, then checks the key again (a handle re-filed or freed meanwhile by another
 * thread, an erroneous program, reads as not filed). A freed slot is GONE: reusable,
 * and probes go on past it. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "comm_translate.h"
#include "persistent_requests.h"

#define PERSIST_BITS   12
#define PERSIST_SLOTS  (1 << PERSIST_BITS)
#define PERSIST_PROBES 32
#define PERSIST_GONE   UINT64_MAX       /* a freed request's slot */
#define PERSIST_BUSY   (UINT64_MAX - 1) /* claimed, being filled */

struct slot {
    _Atomic uint64_t key; /* pmpi_req_key of the request; 0: never used */
    _Atomic int dest, source, tag, flags;
    _Atomic long long sent, recvd;
};
static struct slot table[PERSIST_SLOTS];
static _Atomic long long dropped; /* requests filed nowhere: no room in their probes */

static struct slot *probe(uint64_t key, unsigned p)
{
    unsigned h = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> (64 - PERSIST_BITS));
    return &table[(h + p) & (PERSIST_SLOTS - 1)];
}

/* key's slot, or NULL. */
static struct slot *slot_of(uint64_t key)
{
    for (unsigned p = 0; p < PERSIST_PROBES; p++) {
        struct slot *e = probe(key, p);
        uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == key)
            return e;
        if (k == 0)
            return NULL;
    }
    return NULL;
}

/* A slot claimed (BUSY) for key: its own when filed before and never freed, else the
 * first never used or freed one of its probes; NULL when there is none. */
static struct slot *slot_claim(uint64_t key)
{
    struct slot *e = slot_of(key);
    uint64_t k = key;
    if (e && atomic_compare_exchange_strong(&e->key, &k, PERSIST_BUSY))
        return e;
    for (unsigned p = 0; p < PERSIST_PROBES; p++) {
        e = probe(key, p);
        k = atomic_load_explicit(&e->key, memory_order_acquire);
        if ((k == 0 || k == PERSIST_GONE) &&
            atomic_compare_exchange_strong(&e->key, &k, PERSIST_BUSY))
            return e;
    }
    return NULL;
}

void pmpi_persist_file(MPI_Request req, MPI_Comm comm, int dest, int source, int tag,
                       long long sent, long long recvd, int flags)
{
    uint64_t key = pmpi_req_key(req);
    if (key == 0 || key >= PERSIST_BUSY)
        return;
    /* translated first (that may take comm_translate.c's lock): a claimed slot stays
     * BUSY for plain stores only */
    int wd = pmpi_world_rank(comm, dest), ws = pmpi_world_rank(comm, source);
    flags = (flags & ~PMPI_PERSIST_WORLD) | (pmpi_comm_congruent(comm) ? PMPI_PERSIST_WORLD : 0);
    struct slot *e = slot_claim(key);
    if (!e) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    atomic_store_explicit(&e->dest, wd, memory_order_relaxed);
    atomic_store_explicit(&e->source, ws, memory_order_relaxed);
    atomic_store_explicit(&e->tag, tag, memory_order_relaxed);
    atomic_store_explicit(&e->flags, flags, memory_order_relaxed);
    atomic_store_explicit(&e->sent, sent, memory_order_relaxed);
    atomic_store_explicit(&e->recvd, recvd, memory_order_relaxed);
    atomic_store_explicit(&e->key, key, memory_order_release); /* published whole */
}

/* What req's *_init filed into *p; flags 0 and no partner when it filed nothing. A copy
 * checked against the key again (a slot re-filed or freed meanwhile reads as nothing). */
static void find(MPI_Request req, struct pmpi_persist *p)
{
    uint64_t key = pmpi_req_key(req);
    *p = (struct pmpi_persist){.key = key, .dest = -1, .source = -1};
    const struct slot *e = key && key < PERSIST_BUSY ? slot_of(key) : NULL;
    if (!e)
        return;
    p->dest = atomic_load_explicit(&e->dest, memory_order_relaxed);
    p->source = atomic_load_explicit(&e->source, memory_order_relaxed);
    p->tag = atomic_load_explicit(&e->tag, memory_order_relaxed);
    p->flags = atomic_load_explicit(&e->flags, memory_order_relaxed);
    p->sent = atomic_load_explicit(&e->sent, memory_order_relaxed);
    p->recvd = atomic_load_explicit(&e->recvd, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire); /* the copy, before the key's second look */
    if (atomic_load_explicit(&e->key, memory_order_relaxed) != key)
        *p = (struct pmpi_persist){.key = key, .dest = -1, .source = -1};
}

/* s->p for n requests: s->mine, else the heap, else s->mine's first ones (the rest
 * counted as dropped). */
static void started_room(struct pmpi_started *s, int n)
{
    s->n = n < 0 ? 0 : n;
    s->p = s->mine;
    if (s->n <= PMPI_STARTED_MINE)
        return;
    s->p = malloc((size_t)s->n * sizeof *s->p);
    if (!s->p) {
        atomic_fetch_add_explicit(&dropped, s->n - PMPI_STARTED_MINE, memory_order_relaxed);
        s->p = s->mine;
        s->n = PMPI_STARTED_MINE;
    }
}

void pmpi_persist_started(struct pmpi_started *s, int n, const MPI_Request *reqs)
{
    started_room(s, reqs ? n : 0);
    for (int i = 0; i < s->n; i++)
        find(reqs[i], &s->p[i]);
}

void pmpi_persist_started_f(struct pmpi_started *s, int n, const MPI_Fint *reqs)
{
    started_room(s, reqs ? n : 0);
    for (int i = 0; i < s->n; i++)
        find(PMPI_Request_f2c(reqs[i]), &s->p[i]);
}

void pmpi_persist_started_end(struct pmpi_started *s)
{
    if (s->p != s->mine)
        free(s->p);
    s->p = s->mine;
    s->n = 0;
}

void pmpi_persist_forget(MPI_Request req)
{
    uint64_t key = pmpi_req_key(req);
    struct slot *e = key && key < PERSIST_BUSY ? slot_of(key) : NULL;
    if (e)
        atomic_compare_exchange_strong(&e->key, &key, PERSIST_GONE);
}

long long pmpi_persist_dropped(void)
{
    return atomic_load_explicit(&dropped, memory_order_relaxed);
}
