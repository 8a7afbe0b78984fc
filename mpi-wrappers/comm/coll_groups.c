/* coll_groups.c: a communicator's group key and this rank's collectives on that group
 * (coll_groups.h), for the event log's collective records. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coll_groups.h"
#include "comm_translate.h"

static int group_keyval = MPI_KEYVAL_INVALID; /* caches a communicator's group entry */

/* Collectives on communicators not congruent with world: matched by (group key,
 * sequence number) at MPI_Finalize. The key hashes the members' world ranks in
 * communicator order (the same on every member); the sequence counts this rank's
 * collectives on communicators of that group, so communicators of one group (duplicates)
 * share it: their collectives match when every member makes them in the same order.
 * Each communicator caches its entry in an attribute. */
#define GROUPS 1024
struct coll_group {
    _Atomic uint32_t key; /* 0: free */
    _Atomic int seq;
};
static struct coll_group groups[GROUPS];

static struct coll_group *group_entry(uint32_t key)
{
    for (unsigned p = 0; p < GROUPS; p++) {
        struct coll_group *g = &groups[(key * 2654435761u + p) & (GROUPS - 1)];
        uint32_t k = atomic_load(&g->key);
        if (k == key || (k == 0 && atomic_compare_exchange_strong(&g->key, &k, key)) || k == key)
            return g;
    }
    return NULL; /* more groups than entries: those collectives are not matched */
}

/* FNV-1a over the world ranks of group g (MPI_GROUP_NULL: comm's), in its order. */
static int hash_group(MPI_Comm comm, MPI_Group g, uint32_t *h)
{
    int n = 0;
    int own = g == MPI_GROUP_NULL;
    if (own ? PMPI_Comm_size(comm, &n) != MPI_SUCCESS : PMPI_Group_size(g, &n) != MPI_SUCCESS)
        return 0;
    for (int i = 0; i < n; i++) {
        int w = own ? pmpi_world_rank(comm, i) : pmpi_group_world_rank(g, i);
        if (w < 0)
            return 0;
        for (int b = 0; b < 4; b++)
            *h = (*h ^ ((uint32_t)w >> (8 * b) & 0xff)) * 16777619u;
    }
    return 1;
}

/* An intercommunicator's key covers both groups, the one holding the lower world rank
 * first (the same on both sides), behind a marker no intracommunicator's hash takes:
 * the collectives on it are matched over all its members, whose last arrival (or its
 * root's) is what a member waits for in both MPIs' implementations. */
static int hash_inter(MPI_Comm comm, uint32_t *h)
{
    MPI_Group local, remote;
    int ok = 0;
    if (PMPI_Comm_group(comm, &local) != MPI_SUCCESS)
        return 0;
    if (PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
        int l = pmpi_group_world_rank(local, 0), r = pmpi_group_world_rank(remote, 0);
        *h = (*h ^ 0xffu) * 16777619u;
        ok = l >= 0 && r >= 0 && hash_group(comm, l < r ? local : remote, h) &&
             hash_group(comm, l < r ? remote : local, h);
        PMPI_Group_free(&remote);
    }
    PMPI_Group_free(&local);
    return ok;
}

static struct coll_group *group_of(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0, inter = 0;
    if (group_keyval == MPI_KEYVAL_INVALID)
        return NULL;
    if (PMPI_Comm_get_attr(comm, group_keyval, &v, &flag) == MPI_SUCCESS && flag)
        return v;
    uint32_t h = 2166136261u;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        !(inter ? hash_inter(comm, &h) : hash_group(comm, MPI_GROUP_NULL, &h)))
        return NULL;
    struct coll_group *g = group_entry(h ? h : 1);
    if (g)
        PMPI_Comm_set_attr(comm, group_keyval, g);
    return g;
}

void pmpi_coll_groups_init(void)
{
    if (group_keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &group_keyval,
                                NULL) != MPI_SUCCESS)
        group_keyval = MPI_KEYVAL_INVALID; /* collectives on other communicators unmatched */
}

int pmpi_coll_group_next(MPI_Comm comm, uint32_t *key)
{
    struct coll_group *g = group_of(comm);
    if (!g)
        return -1;
    int seq = atomic_fetch_add_explicit(&g->seq, 1, memory_order_relaxed);
    *key = atomic_load_explicit(&g->key, memory_order_relaxed);
    return seq;
}
