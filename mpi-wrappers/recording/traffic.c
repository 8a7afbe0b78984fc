/* traffic.c: what the report's pictures need beyond the per-call totals: per call, a
 * power-of-two histogram of message sizes with the time spent (bucket 0: 0 bytes,
 * bucket k: 2^(k-1) .. 2^k - 1 bytes, the last bucket open-ended), and per thread a
 * sparse table of point-to-point partners (world ranks) with messages, bytes and time
 * each way. Both live in fixed-size per-thread tables (state.h) that record.c allocates
 * with the thread's slot (bounded memory: a partner that finds no entry is counted in
 * partners_dropped). The histogram is recorded in pmpi_leave (record.h): one bucket
 * index and two adds; the partner here, called by the point-to-point wrappers: one
 * hashed probe. The row JSON carries "sizes" and "partners"; papi_report draws them.
 *
 * The partners are world ranks, translated from the call's communicator by
 * comm_translate.c.
 *
 * Persistent requests (MPI_Send_init ... MPI_Precv_init) move their bytes at each
 * MPI_Start/MPI_Startall, not at the *_init call: each start records the partner and
 * bytes the *_init call filed in the rank's table of persistent requests, as the start's
 * wrapper read them once for this and the event log (persistent_requests.c). */
#include <stdlib.h>

#include "comm_translate.h"
#include "json_writer.h"
#include "persistent_requests.h"
#include "record.h"
#include "traffic.h"

/* The entry of key in th's table, without adding one. */
static const struct pmpi_peer *peer_slot_of(const struct pmpi_thread *th, int key)
{
    unsigned h = ((unsigned)key * 2654435761u) >> (32 - PMPI_PEER_BITS);
    const struct pmpi_peer *peers = pmpi_slot_peers(th);
    for (int p = 0; peers && p < PMPI_PEER_PROBES; p++) {
        const struct pmpi_peer *e = &peers[(h + (unsigned)p) & (PMPI_PEER_SLOTS - 1)];
        int k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == key)
            return e;
        if (k == 0)
            return NULL;
    }
    return NULL;
}

static struct pmpi_peer *peer_entry(struct pmpi_thread *th, int world)
{
    int key = world + 1;
    unsigned h = ((unsigned)key * 2654435761u) >> (32 - PMPI_PEER_BITS);
    for (int p = 0; p < PMPI_PEER_PROBES; p++) {
        struct pmpi_peer *e = &th->peers[(h + (unsigned)p) & (PMPI_PEER_SLOTS - 1)];
        int k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == 0) {
            int zero = 0;
            if (!th->shared)
                atomic_store_explicit(&e->key, key, memory_order_release);
            else if (!atomic_compare_exchange_strong(&e->key, &zero, key) && zero != key)
                continue;
            k = key;
        }
        if (k == key)
            return e;
    }
    atomic_fetch_add_explicit(&th->peers_dropped, 1, memory_order_relaxed);
    return NULL;
}

/* A message to world rank wd and/or from world rank ws (-1: none) in th's table. */
static void partner_add_world(struct pmpi_thread *th, int wd, int ws, long long sent,
                              long long recvd, long long dt)
{
    struct pmpi_peer *e;
    if (wd >= 0 && (e = peer_entry(th, wd))) {
        pmpi_add(&e->sends, 1, th->shared);
        pmpi_add(&e->sent, sent, th->shared);
        pmpi_add(&e->send_ticks, dt, th->shared);
        dt = 0; /* a Sendrecv's time counts once, with its destination */
    }
    if (ws >= 0 && (e = peer_entry(th, ws))) {
        pmpi_add(&e->recvs, 1, th->shared);
        pmpi_add(&e->recvd, recvd, th->shared);
        pmpi_add(&e->recv_ticks, dt, th->shared);
    }
}

void pmpi_partner_add(MPI_Comm comm, int dest, int source, long long sent, long long recvd,
                      long long dt)
{
    struct pmpi_thread *th = pmpi_tls;
    if (!th || !th->peers)
        return;
    partner_add_world(th, pmpi_world_rank(comm, dest), pmpi_world_rank(comm, source), sent, recvd,
                      dt);
}

/* ---- persistent requests: the partner and bytes filed at *_init, per start ---- */

void pmpi_persistent_start(const struct pmpi_started *st, long long dt)
{
    struct pmpi_thread *th = pmpi_tls;
    if (!th || !th->peers || st->n <= 0)
        return;
    long long share = dt / st->n, first = dt - share * (st->n - 1); /* the call's time, shared */
    for (int i = 0; i < st->n; i++) {
        const struct pmpi_persist *p = &st->p[i];
        partner_add_world(th, p->dest, p->source, p->sent, p->recvd, i ? share : first);
    }
}

/* The ignore markers are compared first: converting one is an MPI error, and the
 * default handler aborts. Open MPI's TYPE(MPI_Status) has the INTEGER array's layout
 * and shares its MPI_STATUS_IGNORE; MPICH's is the C struct MPI_F08_status. */
int pmpi_fortran_source(const int source, const void *status, int f08)
{
    MPI_Status c;
    if (source != MPI_ANY_SOURCE || !status)
        return source;
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 /* has MPI_F08_status */
    if (f08)
        return status == (const void *)MPI_F08_STATUS_IGNORE ||
                       status == (const void *)MPI_F08_STATUSES_IGNORE
                   ? -1
                   : ((const MPI_F08_status *)status)->MPI_SOURCE;
#else
    (void)f08;
#endif
    if (status == MPI_F_STATUS_IGNORE || status == MPI_F_STATUSES_IGNORE ||
        PMPI_Status_f2c((const MPI_Fint *)status, &c) != MPI_SUCCESS)
        return -1;
    return c.MPI_SOURCE;
}

/* "sizes": {call: [{bucket, calls, time_s}, ...]}, summed over the threads. */
static void sizes_json(struct jw *w, double ns_per_tick)
{
    int n = pmpi_record_nslots();
    jw_obj_begin(w, "sizes");
    for (int c = 0; c < PMPI_NCALLS; c++) {
        int firstb = 1;
        for (int b = 0; b < PMPI_SIZE_BUCKETS; b++) {
            long long calls = 0, ticks = 0;
            for (int i = 0; i < n; i++) {
                const struct pmpi_hist *h = pmpi_slot_hist(&pmpi_rec.threads[i]);
                if (h) {
                    calls += atomic_load(&h[c * PMPI_SIZE_BUCKETS + b].calls);
                    ticks += atomic_load(&h[c * PMPI_SIZE_BUCKETS + b].ticks);
                }
            }
            if (!calls)
                continue;
            if (firstb)
                jw_arr_begin(w, pmpi_calls[c].name);
            firstb = 0;
            jw_obj_begin(w, NULL);
            jw_int(w, "bucket", b);
            jw_int(w, "calls", calls);
            jw_secs(w, "time_s", (long long)((double)ticks * ns_per_tick));
            jw_obj_end(w);
        }
        if (!firstb)
            jw_arr_end(w);
    }
    jw_obj_end(w);
}

/* "partners": [{rank, sends, bytes_sent, recvs, bytes_recv, time_s}] (every partner once:
 * a rank seen by several threads is merged here) and "partners_dropped". */
static void partners_json(struct jw *w, double ns_per_tick)
{
    int n = pmpi_record_nslots();
    long long dropped = 0;
    jw_arr_begin(w, "partners");
    for (int i = 0; i < n; i++) {
        const struct pmpi_thread *th = &pmpi_rec.threads[i];
        dropped += atomic_load(&th->peers_dropped);
        const struct pmpi_peer *peers = pmpi_slot_peers(th);
        for (int s = 0; peers && s < PMPI_PEER_SLOTS; s++) {
            int key = atomic_load(&peers[s].key), seen = 0;
            for (int j = 0; key && j < i && !seen; j++)
                seen = peer_slot_of(&pmpi_rec.threads[j], key) != NULL;
            if (!key || seen)
                continue;
            long long v[6] = {0};
            for (int j = i; j < n; j++) {
                const struct pmpi_peer *e = peer_slot_of(&pmpi_rec.threads[j], key);
                if (!e)
                    continue;
                v[0] += atomic_load(&e->sends);
                v[1] += atomic_load(&e->sent);
                v[2] += atomic_load(&e->recvs);
                v[3] += atomic_load(&e->recvd);
                v[4] += atomic_load(&e->send_ticks) + atomic_load(&e->recv_ticks);
            }
            jw_obj_begin(w, NULL);
            jw_int(w, "rank", key - 1);
            jw_int(w, "sends", v[0]);
            jw_int(w, "bytes_sent", v[1]);
            jw_int(w, "recvs", v[2]);
            jw_int(w, "bytes_recv", v[3]);
            jw_secs(w, "time_s", (long long)((double)v[4] * ns_per_tick));
            jw_obj_end(w);
        }
    }
    jw_arr_end(w);
    dropped += pmpi_persist_dropped(); /* requests filed nowhere */
    jw_int(w, "partners_dropped", dropped);
}

/* The rank's traffic: message sizes and partners (async-signal-safe: integers only, no
 * allocation). */
void pmpi_traffic_json(struct jw *w, double ns_per_tick)
{
    sizes_json(w, ns_per_tick);
    partners_json(w, ns_per_tick);
}
