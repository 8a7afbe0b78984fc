/* event_log.c: the per-rank event log (event_log.h): its size from the environment, the
 * buffer, and the appends of the hot path (one atomic claim of a slot, plain stores). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "clock.h"
#include "state.h"
#include "traffic.h"

#define LOG_DEFAULT (64LL * 1024)
#define LOG_MAX     (16LL * 1024 * 1024) /* 896 MiB: more is refused as past reason */

struct pmpi_event_log pmpi_log;

/* PAPI_MPI_WAITS: 1 (default) or 0. */
static int env_on(int rank)
{
    const char *v = secure_getenv("PAPI_MPI_WAITS");
    if (!v || !*v || strcmp(v, "1") == 0)
        return 1;
    if (strcmp(v, "0") == 0)
        return 0;
    if (rank == 0)
        fprintf(stderr, "papi_mpi: PAPI_MPI_WAITS=%s: expected 0 or 1; wait states on\n", v);
    return 1;
}

/* PAPI_MPI_LOG_RECORDS: records per rank, 1 .. LOG_MAX; 0 when refused (said once). */
static long long env_records(int rank)
{
    const char *v = secure_getenv("PAPI_MPI_LOG_RECORDS");
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
    /* touched now, at MPI_Init: a page fault per 73 records on the hot path cost about
     * 250 ns per call in this project's VM (a calloc would not touch them); zeroed: a
     * record of kind 0 is one its writer has not finished (event_log_file.c) */
    memset(pmpi_log.ev, 0, (size_t)n * sizeof *pmpi_log.ev);
    pmpi_log.cap = n;
    pmpi_log.on = 1;
}

void pmpi_log_free(void)
{
    pmpi_log.on = 0;
    free(pmpi_log.ev);
    pmpi_log.ev = NULL;
    pmpi_log.cap = 0;
}

long long pmpi_log_count(void)
{
    long long n = atomic_load_explicit(&pmpi_log.next, memory_order_relaxed);
    return n < pmpi_log.cap ? n : pmpi_log.cap;
}

long long pmpi_log_dropped(void)
{
    long long n = atomic_load_explicit(&pmpi_log.next, memory_order_relaxed);
    return n > pmpi_log.cap ? n - pmpi_log.cap : 0;
}

static struct pmpi_event *claim(void)
{
    long long i = atomic_fetch_add_explicit(&pmpi_log.next, 1, memory_order_relaxed);
    return i < pmpi_log.cap ? &pmpi_log.ev[i] : NULL;
}

void pmpi_log_call(int id, int kind, long long t0, long long dt, void *site, MPI_Comm comm,
                   int peer, int tag, long long bytes, uint64_t req, int flags)
{
    int world = comm != MPI_COMM_NULL && pmpi_comm_congruent(comm);
    int seq = -1;
    if (kind == PMPI_EV_COLL) {
        if (!world) {
            kind = PMPI_EV_CALL; /* matched across ranks only on world-congruent ones */
        } else {
            seq = atomic_fetch_add_explicit(&pmpi_log.coll_seq, 1, memory_order_relaxed);
            int me = -1;
            if (peer >= 0 && PMPI_Comm_rank(comm, &me) == MPI_SUCCESS && me == peer)
                flags |= PMPI_EVF_ROOT;
        }
    }
    struct pmpi_event *e = claim();
    if (!e)
        return;
    e->t0 = t0;
    e->t1 = t0 + dt;
    e->site = (uint64_t)(uintptr_t)site;
    e->req = req;
    e->bytes = bytes;
    e->peer = kind == PMPI_EV_CALL ? -1
              : peer < 0           ? -1
              : world              ? peer
                                   : pmpi_world_rank(comm, peer);
    e->tag = kind == PMPI_EV_COLL ? seq : tag;
    e->call = (uint16_t)id;
    e->flags = (uint8_t)(flags | (world ? PMPI_EVF_WORLD : 0));
    __atomic_store_n(&e->kind, (uint8_t)kind, __ATOMIC_RELEASE); /* last: the record is whole */
}

void pmpi_log_wait(int id, long long t0, long long dt, void *site, int n, const uint64_t *reqs,
                   const MPI_Status *statuses)
{
    for (int i = 0; i < n && i < PMPI_LOG_WAIT_MAX; i++) {
        if (!reqs[i])
            continue;
        struct pmpi_event *e = claim();
        if (!e)
            return;
        e->t0 = t0;
        e->t1 = t0 + dt;
        e->site = (uint64_t)(uintptr_t)site;
        e->req = reqs[i];
        e->bytes = 0;
        /* the status's source and tag (a rank of the request's communicator): an
         * MPI_ANY_SOURCE or MPI_ANY_TAG receive takes them (world-congruent ones only) */
        e->peer = statuses ? statuses[i].MPI_SOURCE : -1;
        e->tag = statuses ? statuses[i].MPI_TAG : -1;
        e->call = (uint16_t)id;
        e->flags = 0;
        __atomic_store_n(&e->kind, (uint8_t)PMPI_EV_WAIT, __ATOMIC_RELEASE);
    }
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
