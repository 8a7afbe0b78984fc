/* sde_cset.c: counting sets, which count how many times each distinct element is in
 * them (insert adds one, remove takes one away). Elements are equal when their first
 * hashable_size bytes and their type_id are. The set's event reads as the address of a
 * list of cset_list_object_t (sde_lib.h), a snapshot owned by libsde and valid until
 * the set is read again. */
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

#define BUCKETS 256

struct cset_entry {
    uint32_t count, type_id;
    size_t size, hashable;
    struct cset_entry *next;
    unsigned char data[]; /* size bytes */
};

struct sde_cset {
    struct sde_object obj;       /* first: pooled (sde_pool.c); its lock is over the rest */
    struct sde_counter *counter; /* its event, alive while the set is */
    struct cset_entry *bucket[BUCKETS];
    cset_list_object_t *snapshot; /* the last read's list */
};

static void free_list(cset_list_object_t *l);

/* A gone set's entries and list (o locked). */
static void clear_cset(struct sde_object *o)
{
    struct sde_cset *s = (struct sde_cset *)o;
    for (int b = 0; b < BUCKETS; b++)
        for (struct cset_entry *e = s->bucket[b], *next; e; e = next) {
            next = e->next;
            free(e);
        }
    memset(s->bucket, 0, sizeof s->bucket);
    free_list(s->snapshot);
    s->snapshot = NULL;
    s->counter = NULL;
}

static struct sde_pool csets = {.size = sizeof(struct sde_cset),
                                .tag = 1,
                                .clear = clear_cset,
                                .free_head = -1,
                                .free_tail = -1};

int papi_sde_create_counting_set(papi_handle_t handle, const char *cset_name, void **cset_handle)
{
    if (!cset_handle)
        return sde_fail(SDE_EINVAL, "cset_handle is NULL (%s)", cset_name ? cset_name : "NULL");
    int ret;
    sde_lock();
    struct sde_library *lib = sde_library_checked(handle);
    struct sde_object *o = lib ? sde_pool_take(&csets) : NULL;
    if (!lib) {
        ret = sde_fail(SDE_EINVAL, "the handle is not a library's live handle");
    } else if (!o) {
        ret = sde_fail(SDE_ENOMEM, "no memory for a counting set");
    } else {
        struct sde_cset *s = (struct sde_cset *)o;
        pthread_mutex_unlock(&o->lock);
        struct sde_counter proto = {.kind = SDE_COUNTING_SET,
                                    .mode = PAPI_SDE_INSTANT,
                                    .type = PAPI_SDE_long_long,
                                    .obj = o,
                                    .obj_gen = o->gen};
        ret = sde_add_counter(lib, cset_name, &proto, &s->counter);
        if (ret == SDE_OK)
            *cset_handle = sde_object_handle(o);
        else
            sde_object_release(o, o->gen);
    }
    sde_unlock();
    return ret;
}

static unsigned hash_of(const void *element, size_t n, uint32_t type_id)
{
    uint64_t h = 1469598103934665603ull ^ type_id; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)element)[i]) * 1099511628211ull;
    return (unsigned)(h % BUCKETS);
}

/* The live set of a handle, locked, when element is not NULL; else NULL with *err. */
static struct sde_cset *cset_locked(void *cset_handle, const void *element, int *err)
{
    struct sde_object *o = cset_handle ? sde_pool_lock(&csets, cset_handle) : NULL;
    if (!o) {
        *err = sde_fail(SDE_EINVAL, "the counting set handle is NULL, not a counting set, or "
                                    "its set was unregistered or its library shut down");
        return NULL;
    }
    struct sde_cset *s = (struct sde_cset *)o;
    if (!element) {
        *err = sde_fail(SDE_EINVAL, "the element is NULL (%s)", s->counter->name);
        pthread_mutex_unlock(&o->lock);
        return NULL;
    }
    *err = SDE_OK;
    return s;
}

/* Where the entry equal to element is linked (locked); *link is NULL when none is. */
static struct cset_entry **find(struct sde_cset *s, size_t hashable, const void *element,
                                uint32_t type_id)
{
    struct cset_entry **link = &s->bucket[hash_of(element, hashable, type_id)];
    for (; *link; link = &(*link)->next)
        if ((*link)->type_id == type_id && (*link)->hashable == hashable &&
            memcmp((*link)->data, element, hashable) == 0)
            break;
    return link;
}

int papi_sde_counting_set_insert(void *cset_handle, size_t element_size, size_t hashable_size,
                                 const void *element, uint32_t type_id)
{
    int ret;
    struct sde_cset *s = cset_locked(cset_handle, element, &ret);
    if (!s)
        return ret;
    if (hashable_size > element_size || element_size == 0) {
        ret = sde_fail(SDE_EINVAL, "hashable_size %zu > element_size %zu, or 0 (%s)", hashable_size,
                       element_size, s->counter->name);
        pthread_mutex_unlock(&s->obj.lock);
        return ret;
    }
    struct cset_entry **link = find(s, hashable_size, element, type_id);
    if (*link) {
        (*link)->count++;
    } else if ((*link = malloc(sizeof **link + element_size)) != NULL) {
        **link = (struct cset_entry){
            .count = 1, .type_id = type_id, .size = element_size, .hashable = hashable_size};
        memcpy((*link)->data, element, element_size);
    } else {
        ret = sde_fail(SDE_ENOMEM, "no memory to insert into %s", s->counter->name);
    }
    pthread_mutex_unlock(&s->obj.lock);
    return ret;
}

int papi_sde_counting_set_remove(void *cset_handle, size_t hashable_size, const void *element,
                                 uint32_t type_id)
{
    int ret;
    struct sde_cset *s = cset_locked(cset_handle, element, &ret);
    if (!s)
        return ret;
    struct cset_entry **link = find(s, hashable_size, element, type_id);
    struct cset_entry *e = *link;
    if (!e) {
        ret = sde_fail(SDE_EINVAL, "the element is not in %s", s->counter->name);
    } else if (--e->count == 0) {
        *link = e->next;
        free(e);
    }
    pthread_mutex_unlock(&s->obj.lock);
    return ret;
}

static void free_list(cset_list_object_t *l)
{
    while (l) {
        cset_list_object_t *next = l->next;
        free(l);
        l = next;
    }
}

/* A new list of the entries (locked), each object followed by a copy of its element. */
static cset_list_object_t *list_of(const struct sde_cset *s)
{
    cset_list_object_t *head = NULL;
    for (int b = 0; b < BUCKETS; b++)
        for (const struct cset_entry *e = s->bucket[b]; e; e = e->next) {
            cset_list_object_t *o = malloc(sizeof *o + e->size);
            if (!o) {
                free_list(head);
                return NULL;
            }
            o->count = e->count;
            o->type_id = e->type_id;
            o->type_size = e->size;
            o->ptr = o + 1;
            memcpy(o->ptr, e->data, e->size);
            o->next = head;
            head = o;
        }
    return head;
}

int sde_cset_snapshot(struct sde_object *o, uint64_t gen, long long *out)
{
    struct sde_cset *s = (struct sde_cset *)sde_object_lock(o, gen);
    if (!s)
        return SDE_ENOEVNT;
    free_list(s->snapshot);
    s->snapshot = list_of(s);
    *out = (long long)(intptr_t)s->snapshot;
    pthread_mutex_unlock(&o->lock);
    return SDE_OK;
}
