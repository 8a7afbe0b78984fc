/* event_log.c: the per-rank event log (event_log.h): its size from the environment, the
 * buffer, and the appends of the hot path (one atomic claim of a slot, plain stores). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "env_flag.h"
#include "event_log.h"
#include "clock.h"
#include "coll_groups.h"
#include "comm_translate.h"
#include "state.h"

#define LOG_DEFAULT (64LL * 1024)
#define LOG_MAX     (16LL * 1024 * 1024) /* 896 MiB: more is refused as past reason */

struct pmpi_event_log pmpi_log;

/* PAPI_MPI_WAITS: 1 (default) or 0. */
static int env_on(int rank)
{
    return pmpi_env_flag("PAPI_MPI_WAITS", 1, rank, "wait states on");
}

/* PAPI_MPI_LOG_RECORDS: records per rank, 1 .. LOG_MAX; 0 when refused (said once). */
static long long env_records(int rank)
{
    const char *v = env_get("PAPI_MPI_LOG_RECORDS");
    if (!v || !*v)
        return LOG_DEFAULT;
    char *end = NULL;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (*end || errno || n < 1 || n > LOG_MAX) {
        if (rank == 0)
            fprintf(stderr,
                    "papi_mpi: PAPI_MPI_LOG_RECORDS=%s: expected 1 to %lld records "
                    "(%zu bytes each): no event log, no wait states; counters and calls "
                    "are still reported\n",
                    v, LOG_MAX, sizeof(struct pmpi_event));
        return 0;
    }
    return n;
}

void pmpi_log_init(int rank)
{
    pmpi_log_free();
    memset(&pmpi_log, 0, sizeof pmpi_log);
    if (!env_on(rank)) {
        pmpi_log.note = "wait states off (PAPI_MPI_WAITS=0)";
        return;
    }
    long long n = env_records(rank);
    if (n == 0) {
        pmpi_log.note = "no event log: PAPI_MPI_LOG_RECORDS refused (0, not a number, or past "
                        "16777216 records)";
        return;
    }
    pmpi_log.ev = malloc((size_t)n * sizeof *pmpi_log.ev);
    if (!pmpi_log.ev) {
        if (rank == 0)
            fprintf(stderr,
                    "papi_mpi: no memory for an event log of %lld records: no wait "
                    "states; counters and calls are still reported\n",
                    n);
        pmpi_log.note = "no event log: no memory for PAPI_MPI_LOG_RECORDS records";
        return;
    }
    /* zeroed: a record of kind 0 is one its writer has not finished (event_log_file.c);
     * and touched now, at MPI_Init: a page fault per 73 records on the hot path cost 250
     * to 900 ns per call in this project's VM. gcc turns malloc + memset into calloc,
     * whose fresh pages stay untouched, so a volatile store writes each page. */
    memset(pmpi_log.ev, 0, (size_t)n * sizeof *pmpi_log.ev);
    long page = sysconf(_SC_PAGESIZE);
    for (size_t off = 0, len = (size_t)n * sizeof *pmpi_log.ev;
         off<len; off += page> 0 ? (size_t)page : 4096)
        ((volatile char *)pmpi_log.ev)[off] = 0;
    pmpi_log.cap = n;
    pmpi_log.on = 1;
    pmpi_coll_groups_init(); /* collectives on other communicators: their groups' keys */
}

void pmpi_log_free(void)
{
    pmpi_log.on = 0;
    free(pmpi_log.ev);
    pmpi_log.ev = NULL;
    pmpi_log.cap = 0;
}

long long pmpi_log_count(const struct pmpi_event_log *log)
{
    long long n = atomic_load_explicit(&log->next, memory_order_relaxed);
    return n < log->cap ? n : log->cap;
}

long long pmpi_log_dropped(const struct pmpi_event_log *log)
{
    long long n = atomic_load_explicit(&log->next, memory_order_relaxed);
    return n > log->cap ? n - log->cap : 0;
}

/* Records for the calling thread: its slot (0 before its first call) kept in each, so a
 * trace has a track per thread (MPI_THREAD_MULTIPLE). A call's n records are claimed
 * together: the trace (trace_export.c) finds one call's records next to each other, even
 * while other threads log. Returns the first and sets *got to how many fit (0 .. n;
 * those past the buffer counted as dropped). */
/* The index of this thread's last record when it is a fold of polls (PMPI_EVF_POLL), or
 * -1: any other record of the thread ends the run of polls. */
static __thread long long poll_at __attribute__((tls_model("initial-exec"))) = -1;

static struct pmpi_event *claim_n(int n, int *got)
{
    poll_at = -1;
    long long i = atomic_fetch_add_explicit(&pmpi_log.next, n, memory_order_relaxed);
    *got = 0;
    if (n < 1 || i >= pmpi_log.cap)
        return NULL;
    *got = pmpi_log.cap - i < n ? (int)(pmpi_log.cap - i) : n;
    uint32_t t = pmpi_tls ? (uint32_t)(pmpi_tls - pmpi_rec.threads) : 0;
    for (int k = 0; k < *got; k++)
        pmpi_log.ev[i + k].thread = t;
    return &pmpi_log.ev[i];
}

static struct pmpi_event *claim(void)
{
    int got;
    return claim_n(1, &got);
}

/* A point-to-point, collective or plain call's record, its kind stored last (release):
 * a reader that sees the kind sees the whole record. */
static void put_call(struct pmpi_event *e, int id, int kind, long long t0, long long dt, void *site,
                     MPI_Comm comm, int world, int peer, int tag, long long bytes, uint64_t req,
                     int flags, uint32_t group)
{
    e->t0 = t0;
    e->t1 = t0 + dt;
    e->site = (uint64_t)(uintptr_t)site;
    e->req = req;
    e->bytes = bytes;
    e->peer = kind == PMPI_EV_CALL ? -1
              : peer < 0           ? -1
              : world              ? peer
                                   : pmpi_world_rank(comm, peer);
    e->tag = tag;
    e->call = (uint16_t)id;
    e->flags = (uint8_t)(flags | (world ? PMPI_EVF_WORLD : 0));
    e->pad = group;
    __atomic_store_n(&e->kind, (uint8_t)kind, __ATOMIC_RELEASE);
}

void pmpi_log_call(int id, int kind, long long t0, long long dt, void *site, MPI_Comm comm,
                   int peer, int tag, long long bytes, uint64_t req, int flags)
{
    int world = comm != MPI_COMM_NULL && pmpi_comm_congruent(comm);
    int seq = -1;
    uint32_t group = 0;
    if (kind == PMPI_EV_COLL) {
        seq = world ? atomic_fetch_add_explicit(&pmpi_log.coll_seq, 1, memory_order_relaxed)
                    : pmpi_coll_group_next(comm, &group);
        if (!world && seq < 0) {
            kind = PMPI_EV_CALL; /* no entry left, or a member outside world: not matched */
        } else {
            if (!world)
                flags |= PMPI_EVF_GROUP;
            int me = -1, inter = 0;
            if (!world)
                PMPI_Comm_test_inter(comm, &inter);
            if (inter) { /* the root passes MPI_ROOT, its group's others MPI_PROC_NULL */
                if (peer == MPI_ROOT)
                    flags |= PMPI_EVF_ROOT;
                else if (peer == MPI_PROC_NULL)
                    flags |= PMPI_EVF_IDLE;
                if (peer < 0)
                    peer = -1;
            } else if (peer >= 0 && PMPI_Comm_rank(comm, &me) == MPI_SUCCESS && me == peer) {
                flags |= PMPI_EVF_ROOT;
            }
        }
    }
    struct pmpi_event *e = claim();
    if (e)
        put_call(e, id, kind, t0, dt, site, comm, world, peer, kind == PMPI_EV_COLL ? seq : tag,
                 bytes, req, flags, group);
}

void pmpi_log_sendrecv(int id, long long t0, long long dt, void *site, MPI_Comm comm, int dest,
                       int sendtag, long long sent, int source, int recvtag, long long recvd,
                       uint64_t req)
{
    int world = comm != MPI_COMM_NULL && pmpi_comm_congruent(comm), got;
    struct pmpi_event *e = claim_n(2, &got);
    if (got > 0)
        put_call(&e[0], id, PMPI_EV_SEND, t0, dt, site, comm, world, dest, sendtag, sent, req, 0,
                 0);
    if (got > 1)
        put_call(&e[1], id, PMPI_EV_RECV, t0, dt, site, comm, world, source, recvtag, recvd, req, 0,
                 0);
}

/* A Wait/Test form's record of one request it completed (source and tag: the status's). */
static void put_wait(struct pmpi_event *e, int id, long long t0, long long dt, void *site,
                     uint64_t req, const MPI_Status *st)
{
    e->t0 = t0;
    e->t1 = t0 + dt;
    e->site = (uint64_t)(uintptr_t)site;
    e->req = req;
    e->bytes = 0;
    /* a completed send's status leaves its source undefined (MPICH: INT_MIN): no rank */
    e->peer = st && st->MPI_SOURCE >= 0 ? st->MPI_SOURCE : -1;
    e->tag = st ? st->MPI_TAG : -1;
    e->call = (uint16_t)id;
    e->flags = 0;
    e->pad = 0;
    __atomic_store_n(&e->kind, (uint8_t)PMPI_EV_WAIT, __ATOMIC_RELEASE);
}

static int some_logged(int nrq, const uint64_t *reqs, int i)
{
    return i >= 0 && i < nrq && i < PMPI_LOG_WAIT_MAX && reqs[i];
}

/* A poll (event_log.h, PMPI_EVF_POLL): the thread's fold of the same call and site
 * extended, or a new one. Only the thread that made a fold changes it; one that the
 * event log file already has is left as written. */
static void log_poll(int id, long long t0, long long dt, void *site)
{
    long long i = poll_at;
    struct pmpi_event *e = i >= 0 && i < pmpi_log_count(&pmpi_log) ? &pmpi_log.ev[i] : NULL;
    if (e && e->call == id && e->site == (uint64_t)(uintptr_t)site && e->calls < UINT32_MAX &&
        i >= atomic_load_explicit(&pmpi_log.shipped, memory_order_acquire)) {
        e->t1 = t0 + dt;
        e->calls++;
        return;
    }
    int got;
    e = claim_n(1, &got);
    if (!e)
        return;
    e->calls = 1;
    put_call(e, id, PMPI_EV_CALL, t0, dt, site, MPI_COMM_NULL, 0, -1, -1, 0, 0, PMPI_EVF_POLL, 0);
    poll_at = e - pmpi_log.ev;
}

void pmpi_log_wait_some(int id, long long t0, long long dt, void *site, int nrq,
                        const uint64_t *reqs, int ndone, const int *indices,
                        const MPI_Status *statuses)
{
    int n = 0, got;
    if (ndone < 0) { /* a poll that completed nothing yet: folded (event_log.h) */
        log_poll(id, t0, dt, site);
        return;
    }
    for (int k = 0; k < ndone && indices; k++)
        n += some_logged(nrq, reqs, indices[k]);
    if (n == 0) { /* every handle MPI_REQUEST_NULL: still the call's slice */
        pmpi_log_call(id, PMPI_EV_CALL, t0, dt, site, MPI_COMM_NULL, -1, -1, 0, 0, 0);
        return;
    }
    struct pmpi_event *e = claim_n(n, &got);
    for (int k = 0, w = 0; e && k < ndone && w < got; k++)
        if (some_logged(nrq, reqs, indices[k]))
            put_wait(&e[w++], id, t0, dt, site, reqs[indices[k]], statuses ? &statuses[k] : NULL);
}

/* ---- persistent requests: a start logs the send or receive its *_init filed ---- */

/* Whether a start of p logs a send or receive: not a partitioned request's (one
 * message per partition, not matched), nor a persistent collective's (none filed). */
static int start_logged(const struct pmpi_persist *p)
{
    return (p->flags & (PMPI_PERSIST_SEND | PMPI_PERSIST_RECV)) &&
           !(p->flags & PMPI_PERSIST_PARTITIONED);
}

/* A start's record of one persistent request (what its *_init filed). */
static void put_start(struct pmpi_event *r, int id, long long t0, long long dt, void *site,
                      const struct pmpi_persist *p)
{
    int send = p->flags & PMPI_PERSIST_SEND;
    r->t0 = t0;
    r->t1 = t0 + dt;
    r->site = (uint64_t)(uintptr_t)site;
    r->req = p->key;
    r->bytes = send ? p->sent : p->recvd;
    r->peer = send ? p->dest : p->source;
    r->tag = p->tag;
    r->call = (uint16_t)id;
    r->flags = (uint8_t)((p->flags & PMPI_PERSIST_SYNC ? PMPI_EVF_SYNC : 0) |
                         (p->flags & PMPI_PERSIST_WORLD ? PMPI_EVF_WORLD : 0));
    r->pad = 0;
    __atomic_store_n(&r->kind, (uint8_t)(send ? PMPI_EV_SEND : PMPI_EV_RECV), __ATOMIC_RELEASE);
}

int pmpi_log_start(int id, long long t0, long long dt, void *site, const struct pmpi_started *st)
{
    int m = 0, got, w = 0; /* the logged requests, their records claimed together */
    for (int i = 0; i < st->n; i++)
        m += start_logged(&st->p[i]);
    struct pmpi_event *e = m ? claim_n(m, &got) : NULL;
    for (int i = 0; e && i < st->n && w < got; i++)
        if (start_logged(&st->p[i]))
            put_start(&e[w++], id, t0, dt, site, &st->p[i]);
    return m;
}

void pmpi_log_wait(int id, long long t0, long long dt, void *site, int n, const uint64_t *reqs,
                   const MPI_Status *statuses)
{
    int m = 0, got;
    if (n < 0) { /* a poll that completed nothing yet: folded (event_log.h) */
        log_poll(id, t0, dt, site);
        return;
    }
    for (int i = 0; i < n && i < PMPI_LOG_WAIT_MAX; i++)
        m += reqs[i] != 0;
    if (m == 0) { /* every handle MPI_REQUEST_NULL: still the call's slice */
        pmpi_log_call(id, PMPI_EV_CALL, t0, dt, site, MPI_COMM_NULL, -1, -1, 0, 0, 0);
        return;
    }
    struct pmpi_event *e = claim_n(m, &got);
    /* the status's source and tag (a rank of the request's communicator): an
     * MPI_ANY_SOURCE or MPI_ANY_TAG receive takes them (world-congruent ones only) */
    for (int i = 0, w = 0; e && i < n && i < PMPI_LOG_WAIT_MAX && w < got; i++)
        if (reqs[i])
            put_wait(&e[w++], id, t0, dt, site, reqs[i], statuses ? &statuses[i] : NULL);
}

int pmpi_fortran_status_ignored(const void *st, int f08)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 /* has MPI_F08_status */
    if (f08)
        return st == (const void *)MPI_F08_STATUS_IGNORE;
#else
    (void)f08; /* Open MPI's TYPE(MPI_Status) shares the INTEGER array's marker */
#endif
    return st == (const void *)MPI_F_STATUS_IGNORE;
}

int pmpi_fortran_status(const void *st, int f08, MPI_Status *c)
{
    if (!st || pmpi_fortran_status_ignored(st, f08) || st == (const void *)MPI_F_STATUSES_IGNORE)
        return 0;
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000
    if (f08) {
        c->MPI_SOURCE = ((const MPI_F08_status *)st)->MPI_SOURCE;
        c->MPI_TAG = ((const MPI_F08_status *)st)->MPI_TAG;
        return 1;
    }
#endif
    return PMPI_Status_f2c((const MPI_Fint *)st, c) == MPI_SUCCESS;
}

/* pmpi_log_statuses (event_log.h) past its stack array */
MPI_Status *pmpi_log_statuses_heap(MPI_Status *arr, int n, void **heap)
{
    *heap = malloc((size_t)n * sizeof *arr);
    return *heap ? (MPI_Status *)*heap : arr; /* no memory: unread, as before */
}

/* The bytes of one Fortran status: MPICH's TYPE(MPI_Status) from mpi_f08, else
 * INTEGER(MPI_STATUS_SIZE) (Open MPI's f08 type has that layout too). */
static size_t fortran_status_bytes(int f08)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000
    if (f08)
        return sizeof(MPI_F08_status);
#endif
    (void)f08;
    return PMPI_F_STATUS_BYTES;
}

static int fortran_statuses_ignored(const void *arr, int f08)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000
    if (f08)
        return arr == (const void *)MPI_F08_STATUSES_IGNORE;
#endif
    (void)f08;
    return arr == (const void *)MPI_F_STATUSES_IGNORE;
}

/* pmpi_fortran_statuses_mine (event_log.h) while recording */
void *pmpi_fortran_statuses_sub(void *arr, const void *count, int f08, void *stack,
                                size_t stack_bytes, void **heap)
{
    *heap = NULL;
    if (!count || !fortran_statuses_ignored(arr, f08) || *(const int *)count < 0)
        return arr;
    size_t need = (size_t) * (const int *)count * fortran_status_bytes(f08);
    if (need <= stack_bytes)
        return stack;
    *heap = malloc(need);
    return *heap ? *heap : arr; /* no memory: unread, as before */
}

int pmpi_fortran_statuses(const void *arr, int f08, int n, MPI_Status *c)
{
    if (!arr || fortran_statuses_ignored(arr, f08) || arr == (const void *)MPI_F_STATUS_IGNORE)
        return 0;
    size_t sz = fortran_status_bytes(f08);
    for (int i = 0; i < n; i++)
        if (!pmpi_fortran_status((const char *)arr + (size_t)i * sz, f08, &c[i]))
            return 0;
    return 1;
}

void pmpi_log_region(int index, int enter)
{
    if (!pmpi_log.on)
        return;
    struct pmpi_event *e = claim();
    if (!e)
        return;
    e->t0 = e->t1 = pmpi_ticks();
    e->site = e->req = 0;
    e->bytes = 0;
    e->peer = e->tag = -1;
    e->call = (uint16_t)index;
    e->flags = 0;
    e->pad = 0;
    __atomic_store_n(&e->kind, (uint8_t)(enter ? PMPI_EV_REGION_ENTER : PMPI_EV_REGION_EXIT),
                     __ATOMIC_RELEASE);
}

void pmpi_log_counters(long long tick, const long long *counts, int n)
{
    for (int i = 0; i < n && pmpi_log.on; i++) {
        struct pmpi_event *e = claim();
        if (!e)
            return;
        e->t0 = e->t1 = tick;
        e->site = e->req = 0;
        e->bytes = counts[i];
        e->peer = e->tag = -1;
        e->call = (uint16_t)i;
        e->flags = 0;
        e->pad = 0;
        e->thread = 0; /* the rank's counts, not the sampler thread's */
        __atomic_store_n(&e->kind, (uint8_t)PMPI_EV_COUNTER, __ATOMIC_RELEASE);
    }
}

void pmpi_log_region_metrics(int region, const double *value, const int *ok, int n)
{
    long long t = pmpi_ticks();
    for (int k = 0; k < n && pmpi_log.on; k++) {
        if (!ok[k] || !isfinite(value[k]))
            continue; /* no value: no point on the track */
        struct pmpi_event *e = claim();
        if (!e)
            return;
        int64_t bits;
        memcpy(&bits, &value[k], sizeof bits);
        e->t0 = e->t1 = t;
        e->site = e->req = 0;
        e->bytes = bits;
        e->peer = e->tag = -1;
        e->call = (uint16_t)k;
        e->flags = PMPI_EVF_METRIC;
        e->pad = (uint32_t)region;
        __atomic_store_n(&e->kind, (uint8_t)PMPI_EV_COUNTER, __ATOMIC_RELEASE);
    }
}
