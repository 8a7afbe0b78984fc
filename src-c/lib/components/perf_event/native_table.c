/* native_table.c: the table of native events (native_table.h): entries in chunks that
 * never move, and a name -> index hash that also keeps the spellings users gave. Written
 * under the library lock (papi_sdk.h: fork takes it, so the table is whole in a forked
 * child); read without a lock through native_lookup. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "native_table.h"

#define CHUNK_BITS 10
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define MAX_CHUNKS 1024 /* a million distinct native events per process */

static struct native_event *chunks[MAX_CHUNKS];
static atomic_int table_count;
/* Name -> index. A slot keeps its own key: an alias (the spelling a user gave, e.g.
 * "PAGE-FAULTS" for "perf::PAGE-FAULTS") must match by that spelling, or every lookup of
 * it would encode again and grow the table. */
struct name_slot {
    char *alias;    /* owned key when it differs from the entry's name, else NULL */
    unsigned value; /* index + 1, 0 = empty */
};
static struct name_slot *hash_slots;
static unsigned hash_size;
static unsigned hash_used;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

struct native_event *native_lookup(int idx)
{
    if (idx < 0 || idx >= atomic_load_explicit(&table_count, memory_order_acquire))
        return NULL;
    return &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
}

static const char *slot_key(const struct name_slot *s)
{
    unsigned v = s->value;
    return s->alias ? s->alias : chunks[(v - 1) >> CHUNK_BITS][(v - 1) & (CHUNK_SIZE - 1)].name;
}

/* Caller holds the library lock (papi_sdk.h: fork takes it, so the table is whole in a
 * forked child). */
static int find_locked(const char *name)
{
    if (!hash_size)
        return -1;
    for (unsigned h = name_hash(name) & (hash_size - 1);; h = (h + 1) & (hash_size - 1)) {
        if (!hash_slots[h].value)
            return -1;
        if (strcmp(slot_key(&hash_slots[h]), name) == 0)
            return (int)hash_slots[h].value - 1;
    }
}

/* name is the entry's own name (stored there) or an alias (copied here). */
static int hash_insert_locked(const char *name, unsigned value, int alias)
{
    if (hash_used * 2 >= hash_size) {
        unsigned nsize = hash_size ? hash_size * 2 : 1024;
        struct name_slot *n = calloc(nsize, sizeof *n);
        if (!n)
            return PAPI_ENOMEM;
        for (unsigned i = 0; i < hash_size; i++) {
            if (!hash_slots[i].value)
                continue;
            unsigned h = name_hash(slot_key(&hash_slots[i])) & (nsize - 1);
            while (n[h].value)
                h = (h + 1) & (nsize - 1);
            n[h] = hash_slots[i];
        }
        free(hash_slots);
        hash_slots = n;
        hash_size = nsize;
    }
    char *copy = NULL;
    if (alias && !(copy = strdup(name)))
        return PAPI_ENOMEM;
    unsigned h = name_hash(name) & (hash_size - 1);
    while (hash_slots[h].value)
        h = (h + 1) & (hash_size - 1);
    hash_slots[h].value = value;
    hash_slots[h].alias = copy;
    hash_used++;
    return PAPI_OK;
}

/* A new entry called name (not yet in the hash); NULL when the table is full. */
static struct native_event *new_entry_locked(const char *name, int *out_idx)
{
    int idx = atomic_load(&table_count);
    if (idx >= MAX_CHUNKS * CHUNK_SIZE)
        return NULL;
    if (!chunks[idx >> CHUNK_BITS]) {
        chunks[idx >> CHUNK_BITS] = calloc(CHUNK_SIZE, sizeof(struct native_event));
        if (!chunks[idx >> CHUNK_BITS])
            return NULL;
    }
    struct native_event *e = &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
    memset(e, 0, sizeof *e);
    e->name = strdup(name);
    if (!e->name)
        return NULL;
    *out_idx = idx;
    return e;
}

/* Publish entry idx (filled by the caller) under its name. */
static int publish_locked(struct native_event *e, int idx)
{
    pthread_mutex_init(&e->enc_lock, NULL);
    if (hash_insert_locked(e->name, (unsigned)idx + 1, 0) != PAPI_OK) {
        pthread_mutex_destroy(&e->enc_lock);
        free(e->name);
        e->name = NULL;
        return PAPI_ENOMEM;
    }
    atomic_store_explicit(&table_count, idx + 1, memory_order_release);
    return idx;
}

/* The entry called name: found, else a new one filled as tmpl (its name and lock
 * aside) and published. The table index or PAPI_ENOMEM. Caller holds the lock. */
static int intern_locked(const char *name, const struct native_event *tmpl)
{
    int idx = find_locked(name);
    if (idx >= 0)
        return idx;
    struct native_event *e = new_entry_locked(name, &idx);
    if (!e)
        return PAPI_ENOMEM;
    char *own = e->name;
    *e = *tmpl;
    e->name = own;
    return publish_locked(e, idx);
}

/* alias, the spelling the user gave (when not NULL), names entry idx of name too. */
static void alias_locked(int idx, const char *name, const char *alias)
{
    if (idx >= 0 && alias && strcmp(name, alias) != 0 && find_locked(alias) < 0)
        hash_insert_locked(alias, (unsigned)idx + 1, 1);
}

int native_intern_sysfs(const char *canon, const char *alias, int pmu, int event, enum pe_class cls,
                        int explicit_plm, const struct perf_event_attr *attr)
{
    const struct native_event tmpl = {.route = ROUTE_SYSFS,
                                      .pfm_idx = -1,
                                      .umask_idx = -1,
                                      .sysfs_pmu = pmu,
                                      .sysfs_event = event,
                                      .cls = cls,
                                      .explicit_plm = explicit_plm,
                                      .attr = *attr,
                                      .attr_plm = PFM_PLM3};
    papi_library_lock();
    int idx = intern_locked(canon, &tmpl);
    alias_locked(idx, canon, alias);
    papi_library_unlock();
    return idx;
}

int native_intern_hybrid(const char *name, const int *subs, int nsub)
{
    struct native_event tmpl = {.route = ROUTE_HYBRID,
                                .pfm_idx = -1,
                                .umask_idx = -1,
                                .sysfs_pmu = -1,
                                .sysfs_event = -1,
                                .cls = PE_CORE,
                                .attr_plm = -1,
                                .nsub = nsub,
                                .hybrid_known = 1};
    memcpy(tmpl.sub, subs, (size_t)nsub * sizeof *subs);
    papi_library_lock();
    int idx = intern_locked(name, &tmpl);
    papi_library_unlock();
    return idx;
}

int native_intern_pinned(const char *name, int pfm_idx, int pmu, int explicit_plm,
                         const struct perf_event_attr *attr)
{
    const struct native_event tmpl = {.route = ROUTE_PFM,
                                      .pfm_idx = pfm_idx,
                                      .umask_idx = -1,
                                      .sysfs_pmu = pmu,
                                      .sysfs_event = -1,
                                      .cls = PE_CORE,
                                      .explicit_plm = explicit_plm,
                                      .attr = *attr,
                                      .attr_plm = PFM_PLM3,
                                      .hybrid_known = 1}; /* one core PMU: never summed */
    papi_library_lock();
    int idx = intern_locked(name, &tmpl);
    papi_library_unlock();
    return idx;
}

int native_table_find(const char *name)
{
    papi_library_lock();
    int idx = find_locked(name);
    papi_library_unlock();
    return idx;
}

int native_intern_pfm(const char *name, const char *alias, int pfm_idx, int umask_idx,
                      enum pe_class cls, int explicit_plm, const struct perf_event_attr *attr,
                      int attr_plm, int enumerated)
{
    struct native_event tmpl = {.route = ROUTE_PFM,
                                .pfm_idx = pfm_idx,
                                .umask_idx = umask_idx,
                                .sysfs_pmu = -1,
                                .explicit_plm = explicit_plm,
                                .cls = cls,
                                .attr_plm = attr ? attr_plm : -1};
    if (attr)
        tmpl.attr = *attr;
    papi_library_lock();
    int idx = intern_locked(name, &tmpl);
    if (idx >= 0 && enumerated) {
        struct native_event *e = &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
        e->pfm_idx = pfm_idx;
        e->umask_idx = umask_idx;
    }
    alias_locked(idx, name, alias);
    papi_library_unlock();
    return idx;
}

void native_table_shutdown(void)
{
    int n = atomic_load(&table_count);
    for (int i = 0; i < n; i++) {
        struct native_event *e = &chunks[i >> CHUNK_BITS][i & (CHUNK_SIZE - 1)];
        free(e->name);
        pthread_mutex_destroy(&e->enc_lock);
    }
    for (int c = 0; c < MAX_CHUNKS && chunks[c]; c++) {
        free(chunks[c]);
        chunks[c] = NULL;
    }
    atomic_store(&table_count, 0);
    for (unsigned i = 0; i < hash_size; i++)
        free(hash_slots[i].alias);
    free(hash_slots);
    hash_slots = NULL;
    hash_size = 0;
    hash_used = 0;
}
