/* comm_translate.c: ranks of a communicator to world ranks, for the partners
 * (traffic.c) and the event log (event_log.c). A communicator other than
 * MPI_COMM_WORLD is translated once: the translation is cached on the communicator as
 * an attribute (the MPI way: its delete callback frees it when the communicator is
 * freed or disconnected, a duplicate does not inherit it), so a call costs one
 * attribute lookup instead of a group made, translated and freed (bench:
 * papi_mpi_bench). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "comm_translate.h"
#include "pmpi_identity.h"

static MPI_Group world_group = MPI_GROUP_NULL;

#define XLATE_FULL  4096 /* groups up to this size: every rank translated at once */
#define XLATE_CACHE 256  /* larger groups: a direct-mapped cache of translations */

struct xlate {
    MPI_Group group;                     /* larger groups: kept for the misses */
    int n, full;                         /* group size; world[] holds every rank */
    int congruent;                       /* rank i is world rank i, for every i */
    _Atomic uint64_t cache[XLATE_CACHE]; /* (local + 1) << 32 | (world + 1), 0 = empty */
    int world[];                         /* full: the world rank of each rank, -1 none */
};

static int xlate_key = MPI_KEYVAL_INVALID;
static pthread_mutex_t xlate_lock = PTHREAD_MUTEX_INITIALIZER;
/* Each thread remembers its last communicator's translation (programs send on one
 * communicator many times in a row); any freed translation makes every thread's stale. */
static _Atomic unsigned xlate_gen;
static __thread struct {
    MPI_Comm comm;
    struct xlate *x;
    unsigned gen;
} xlate_last __attribute__((tls_model("initial-exec")));

static void xlate_free(struct xlate *x)
{
    if (x && x->group != MPI_GROUP_NULL)
        PMPI_Group_free(&x->group);
    free(x);
}

static int xlate_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    atomic_fetch_add_explicit(&xlate_gen, 1, memory_order_release);
    xlate_free(val);
    return MPI_SUCCESS;
}

void pmpi_comm_translate_init(void)
{
    if (world_group == MPI_GROUP_NULL)
        PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    if (xlate_key == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, xlate_delete, &xlate_key, NULL) !=
            MPI_SUCCESS)
        xlate_key = MPI_KEYVAL_INVALID; /* no cache: every call translates through the group */
}

/* The translation of comm's ranks (its remote group's for an intercommunicator). */
static struct xlate *xlate_make(MPI_Comm comm)
{
    int inter = 0, n = 0;
    MPI_Group g;
    PMPI_Comm_test_inter(comm, &inter);
    if ((inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(g, &n);
    int full = n <= XLATE_FULL;
    struct xlate *x = calloc(1, sizeof *x + (full ? (size_t)n * sizeof(int) : 0));
    int *local = full ? malloc((size_t)(n > 0 ? n : 1) * sizeof(int)) : NULL;
    if (!x || (full && !local)) {
        free(local);
        free(x);
        PMPI_Group_free(&g);
        return NULL;
    }
    x->n = n;
    x->full = full;
    x->group = g;
    if (full) {
        for (int i = 0; i < n; i++)
            local[i] = i;
        PMPI_Group_translate_ranks(g, n, local, world_group, x->world);
        x->congruent = n == pmpi_id()->nranks && !inter;
        for (int i = 0; i < n; i++) {
            if (x->world[i] == MPI_UNDEFINED)
                x->world[i] = -1;
            x->congruent &= x->world[i] == i;
        }
        free(local);
        PMPI_Group_free(&x->group);
        x->group = MPI_GROUP_NULL;
    }
    return x;
}

/* comm's translation, made on its first use (NULL: none could be made). */
static struct xlate *xlate_of(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0;
    unsigned gen = atomic_load_explicit(&xlate_gen, memory_order_acquire);
    if (xlate_last.x && xlate_last.comm == comm && xlate_last.gen == gen)
        return xlate_last.x;
    if (PMPI_Comm_get_attr(comm, xlate_key, &v, &flag) == MPI_SUCCESS && flag) {
        xlate_last.comm = comm, xlate_last.x = v, xlate_last.gen = gen;
        return v;
    }
    pthread_mutex_lock(&xlate_lock); /* one translation per communicator */
    if (PMPI_Comm_get_attr(comm, xlate_key, &v, &flag) != MPI_SUCCESS || !flag) {
        struct xlate *x = xlate_make(comm);
        if (x && PMPI_Comm_set_attr(comm, xlate_key, x) != MPI_SUCCESS) {
            xlate_free(x);
            x = NULL;
        }
        v = x;
    }
    pthread_mutex_unlock(&xlate_lock);
    return v;
}

static int xlate_rank(struct xlate *x, int r)
{
    if (r >= x->n)
        return -1;
    if (x->full)
        return x->world[r];
    _Atomic uint64_t *c = &x->cache[(unsigned)r & (XLATE_CACHE - 1)];
    uint64_t e = atomic_load_explicit(c, memory_order_relaxed);
    if ((uint32_t)(e >> 32) == (uint32_t)r + 1)
        return (int)(uint32_t)e - 1;
    int w = MPI_UNDEFINED;
    PMPI_Group_translate_ranks(x->group, 1, &r, world_group, &w);
    if (w == MPI_UNDEFINED)
        return -1;
    atomic_store_explicit(c, ((uint64_t)((uint32_t)r + 1) << 32) | (uint32_t)(w + 1),
                          memory_order_relaxed);
    return w;
}

/* The world rank of rank r of comm, or -1 (MPI_ANY_SOURCE, MPI_PROC_NULL, unknown). */
int pmpi_world_rank(MPI_Comm comm, int r)
{
    if (r < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return r;
    if (comm == MPI_COMM_SELF)
        return pmpi_id()->rank;
    struct xlate *x = xlate_key != MPI_KEYVAL_INVALID ? xlate_of(comm) : NULL;
    if (x)
        return xlate_rank(x, r);
    MPI_Group g; /* no cache: through the group, as a last resort */
    int inter = 0, w = MPI_UNDEFINED;
    PMPI_Comm_test_inter(comm, &inter);
    if ((inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
        return -1;
    PMPI_Group_translate_ranks(g, 1, &r, world_group, &w);
    PMPI_Group_free(&g);
    return w == MPI_UNDEFINED ? -1 : w;
}

int pmpi_group_world_rank(MPI_Group g, int r)
{
    int w = MPI_UNDEFINED;
    if (r < 0 || world_group == MPI_GROUP_NULL ||
        PMPI_Group_translate_ranks(g, 1, &r, world_group, &w) != MPI_SUCCESS)
        return -1;
    return w == MPI_UNDEFINED ? -1 : w;
}

int pmpi_comm_congruent(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return 1;
    if (comm == MPI_COMM_NULL || comm == MPI_COMM_SELF)
        return pmpi_id()->nranks == 1 && comm == MPI_COMM_SELF;
    struct xlate *x = xlate_key != MPI_KEYVAL_INVALID ? xlate_of(comm) : NULL;
    return x && x->congruent;
}
