/* sde_pool.c: the slots that recorders and counting sets live in. An object is never
 * freed: once gone, its buffers are (by its pool's clear) and its slot is reused, oldest
 * first, so memory stays bounded by the objects alive at once. The handle a library holds
 * is not the object's address but its slot, its pool's tag (a recorder's handle is no
 * counting set's) and the slot's generation, with bit 0 set (no object's address is odd,
 * so a foreign pointer is refused without being read): a handle kept after its object
 * was unregistered names an older generation and is refused however often the slot was
 * reused since (41 bits of generation on a 64-bit machine). */
#include <stdlib.h>

#include "sde_internal.h"

#define POOL_CHUNK_BITS SDE_POOL_CHUNK_BITS
#define POOL_CHUNK      (1 << POOL_CHUNK_BITS)
#define POOL_SLOT_BITS  SDE_SLOT_BITS
#define POOL_SLOTS      (1 << POOL_SLOT_BITS)
#define POOL_LOW_BITS   (POOL_SLOT_BITS + 3) /* bit 0 set, 2 bits of tag, the slot */
#define POOL_GEN_BITS   ((int)sizeof(uintptr_t) * 8 - POOL_LOW_BITS)
#define POOL_GEN_MASK   ((((uintptr_t)1 << (POOL_GEN_BITS - 1)) << 1) - 1)

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
    return (void *)((((uintptr_t)o->gen & POOL_GEN_MASK) << POOL_LOW_BITS) |
                    ((uintptr_t)o->slot << 3) | ((uintptr_t)o->pool->tag << 1) | 1u);
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
    if ((h & 7u) != ((uintptr_t)p->tag << 1 | 1u))
        return NULL;
    struct sde_object *o = object_at(p, (int)((h >> 3) & (POOL_SLOTS - 1)));
    if (!o)
        return NULL;
    pthread_mutex_lock(&o->lock);
    if (o->live && (o->gen & POOL_GEN_MASK) == h >> POOL_LOW_BITS)
        return o;
    pthread_mutex_unlock(&o->lock);
    return NULL;
}
