/* traffic.c: what the report's pictures need beyond the per-call totals: per call, a
 * power-of-two histogram of message sizes with the time spent (bucket 0: 0 bytes,
 * bucket k: 2^(k-1) .. 2^k - 1 bytes, the last bucket open-ended), and per thread a
 * sparse table of point-to-point partners (world ranks) with messages, bytes and time
 * each way. Both live in fixed-size per-thread tables (state.h) that record.c allocates
 * with the thread's slot (bounded memory: a partner that finds no entry is counted in
 * partners_dropped). The histogram is recorded in pmpi_leave (record.h): one bucket
 * index and two adds; the partner here, called by the point-to-point wrappers: one
 * hashed probe (a
 * communicator other than MPI_COMM_WORLD translates the rank through its group, out of
 * line). The row JSON carries "sizes" and "partners"; papi_report draws them. */
#include "record.h"
#include "text_buffer.h"
#include "traffic.h"

static MPI_Group world_group = MPI_GROUP_NULL;

void pmpi_traffic_init(void)
{
    if (world_group == MPI_GROUP_NULL)
        PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
}

/* The world rank of rank r of comm, or -1 (MPI_ANY_SOURCE, MPI_PROC_NULL, unknown). */
static int world_rank(MPI_Comm comm, int r)
{
    if (r < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return r;
    if (comm == MPI_COMM_SELF)
        return pmpi_run.rank;
    MPI_Group g;
    int inter = 0, w = MPI_UNDEFINED;
    PMPI_Comm_test_inter(comm, &inter);
    if ((inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
        return -1;
    PMPI_Group_translate_ranks(g, 1, &r, world_group, &w);
    PMPI_Group_free(&g);
    return w == MPI_UNDEFINED ? -1 : w;
}

/* The entry of key in th's table, without adding one. */
static const struct pmpi_peer *peer_slot_of(const struct pmpi_thread *th, int key)
{
    unsigned h = ((unsigned)key * 2654435761u) >> (32 - PMPI_PEER_BITS);
    for (int p = 0; th->peers && p < PMPI_PEER_PROBES; p++) {
        const struct pmpi_peer *e = &th->peers[(h + (unsigned)p) & (PMPI_PEER_SLOTS - 1)];
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

void pmpi_partner_add(MPI_Comm comm, int dest, int source, long long sent, long long recvd,
                      long long dt)
{
    struct pmpi_thread *th = pmpi_tls;
    if (!th || !th->peers)
        return;
    int wd = world_rank(comm, dest), ws = world_rank(comm, source);
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

/* "sizes": {call: [{bucket, calls, time_s}, ...]} and "partners": [{rank, sends,
 * bytes_sent, recvs, bytes_recv, time_s}], summed over the threads (async-signal-safe:
 * integers only, no allocation). */
void pmpi_traffic_json(struct tbuf *t, double ns_per_tick)
{
    int n = pmpi_record_nslots();
    tb_raw(t, ", \"sizes\": {");
    int firstcall = 1;
    for (int c = 0; c < PMPI_NCALLS; c++) {
        int firstb = 1;
        for (int b = 0; b < PMPI_SIZE_BUCKETS; b++) {
            long long calls = 0, ticks = 0;
            for (int i = 0; i < n; i++) {
                const struct pmpi_hist *h = pmpi_rec.threads[i].hist;
                if (h) {
                    calls += atomic_load(&h[c * PMPI_SIZE_BUCKETS + b].calls);
                    ticks += atomic_load(&h[c * PMPI_SIZE_BUCKETS + b].ticks);
                }
            }
            if (!calls)
                continue;
            if (firstb) {
                tb_raw(t, firstcall ? "" : ", ");
                tb_json(t, pmpi_calls[c].name);
                tb_raw(t, ": [");
                firstcall = 0;
            }
            tb_kv_int(t, firstb ? "{\"bucket\": " : ", {\"bucket\": ", b);
            tb_kv_int(t, ", \"calls\": ", calls);
            tb_kv_secs(t, ", \"time_s\": ", (long long)((double)ticks * ns_per_tick));
            tb_raw(t, "}");
            firstb = 0;
        }
        if (!firstb)
            tb_raw(t, "]");
    }
    tb_raw(t, "}, \"partners\": [");
    int first = 1;
    long long dropped = 0;
    /* Every partner once: a rank seen by several threads is merged here. */
    for (int i = 0; i < n; i++) {
        const struct pmpi_thread *th = &pmpi_rec.threads[i];
        dropped += atomic_load(&th->peers_dropped);
        for (int s = 0; th->peers && s < PMPI_PEER_SLOTS; s++) {
            int key = atomic_load(&th->peers[s].key), seen = 0;
            for (int j = 0; key && j < i && !seen; j++)
                seen = pmpi_rec.threads[j].peers && peer_slot_of(&pmpi_rec.threads[j], key) != NULL;
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
            tb_kv_int(t, first ? "{\"rank\": " : ", {\"rank\": ", key - 1);
            tb_kv_int(t, ", \"sends\": ", v[0]);
            tb_kv_int(t, ", \"bytes_sent\": ", v[1]);
            tb_kv_int(t, ", \"recvs\": ", v[2]);
            tb_kv_int(t, ", \"bytes_recv\": ", v[3]);
            tb_kv_secs(t, ", \"time_s\": ", (long long)((double)v[4] * ns_per_tick));
            tb_raw(t, "}");
            first = 0;
        }
    }
    tb_kv_int(t, "], \"partners_dropped\": ", dropped);
}
