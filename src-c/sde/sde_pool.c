/* sde_pool.c: the slots that recorders and counting sets live in. An object is never
 * freed: once gone, its buffers are (by its pool's clear) and its slot is reused, oldest
 * first, so memory stays bounded by the objects alive at once. The handle a library holds
 * is its slot, its pool's kind (a recorder's handle is no counting set's) and the slot's
 * generation (sde_handle_make, sde_internal.h): one kept after its object was
 * unregistered is refused however often the slot was reused since. */
#include <stdlib.h>

#include "sde_internal.h"

#define POOL_CHUNK_BITS SDE_POOL_CHUNK_BITS
#define POOL_CHUNK      (1 << POOL_CHUNK_BITS)
#define POOL_SLOT_BITS  SDE_SLOT_BITS
#define POOL_SLOTS      (1 << POOL_SLOT_BITS)

static struct sde_object *object_at(struct sde_pool *p, int slot)
{
    if (slot < 0 || slot >= __atomic_load_n(&p->n, __ATOMIC_ACQUIRE))
        return NULL;
    struct sde_object **chunk =
        __atomic_load_n(&p->chunks[slot >> POOL_CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk ? __atomic_load_n(&chunk[slot & (POOL_CHUNK - 1)], __ATOMIC_ACQUIRE) : NULL;
}

struct sde_object *sde_pool_take(struct sde_pool *p)
{
    struct sde_object *o = NULL;
    if (p->free_head >= 0) {
        o = object_at(p, p->free_head);
        p->free_head = o->next_free;
        if (p->free_head < 0)
            p->free_tail = -1;
    } else {
        int slot = p->n;
        if (slot >= POOL_SLOTS)
            return NULL;
        struct sde_object ***chunk = &p->chunks[slot >> POOL_CHUNK_BITS];
        if (!*chunk) {
            struct sde_object **fresh = calloc(POOL_CHUNK, sizeof *fresh);
            if (!fresh)
                return NULL;
            __atomic_store_n(chunk, fresh, __ATOMIC_RELEASE);
        }
        if (!(o = calloc(1, p->size)))
            return NULL;
        pthread_mutex_init(&o->lock, NULL);
        o->slot = slot;
        o->pool = p;
        __atomic_store_n(&(*chunk)[slot & (POOL_CHUNK - 1)], o, __ATOMIC_RELEASE);
        __atomic_store_n(&p->n, slot + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_lock(&o->lock);
    o->gen++;
    o->live = 1;
    o->next_free = -1;
    return o;
}

void sde_object_release(struct sde_object *o, uint64_t gen)
{
    pthread_mutex_lock(&o->lock);
    int was_live = o->live && o->gen == gen;
    if (was_live) {
        o->live = 0;
        o->pool->clear(o);
    }
    pthread_mutex_unlock(&o->lock);
    if (!was_live)
        return;
    struct sde_pool *p = o->pool;
    if (p->free_tail >= 0)
        object_at(p, p->free_tail)->next_free = o->slot;
    else
        p->free_head = o->slot;
    p->free_tail = o->slot;
}

void *sde_object_handle(const struct sde_object *o)
{
    return sde_handle_make(o->pool->tag, o->slot, o->gen);
}

struct sde_object *sde_object_lock(struct sde_object *o, uint64_t gen)
{
    pthread_mutex_lock(&o->lock);
    if (o->live && o->gen == gen)
        return o;
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

struct sde_object *sde_pool_lock(struct sde_pool *p, void *handle)
{
    uintptr_t h = (uintptr_t)handle;
    struct sde_object *o = object_at(p, sde_handle_slot(h, p->tag));
    if (!o)
        return NULL;
    pthread_mutex_lock(&o->lock);
    if (o->live && (o->gen & SDE_HANDLE_GEN_MASK) == sde_handle_gen(h))
        return o;
    pthread_mutex_unlock(&o->lock);
    return NULL;
}
