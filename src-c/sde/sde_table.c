/* sde_table.c: libsde's global state: the lock, the libraries (papi_sde_init and
 * papi_sde_shutdown), the table of counters by id (chunks that never move, so a reader
 * needs no lock) and their names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

#define CHUNK_BITS SDE_CHUNK_BITS
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define MAX_CHUNKS (1 << (SDE_SLOT_BITS - CHUNK_BITS)) /* a million counters alive at once */
#define SLOT_MASK  ((1 << SDE_SLOT_BITS) - 1)

int _sde_be_verbose = 0;
int _sde_debug = 0;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct sde_counter **sde_chunks[MAX_CHUNKS]; /* published with release stores */
static int ncounters;                        /* atomic: slots ever used */
static struct sde_library *libraries;        /* under the lock */
static int free_head = -1, free_tail = -1;   /* gone slots, oldest first (locked) */

void sde_lock(void)
{
    pthread_mutex_lock(&lock);
}

void sde_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

/* Every error goes through here: the code, and the reason on stderr when verbose. */
int sde_fail(int code, const char *fmt, ...)
{
    if (_sde_be_verbose) {
        va_list ap;
        va_start(ap, fmt);
        fputs("PAPI SDE Error: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return code;
}

struct sde_counter *sde_counter_at(int slot)
{
    if (slot < 0 || slot >= __atomic_load_n(&ncounters, __ATOMIC_ACQUIRE))
        return NULL;
    struct sde_counter **chunk = __atomic_load_n(&sde_chunks[slot >> CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk ? __atomic_load_n(&chunk[slot & (CHUNK_SIZE - 1)], __ATOMIC_ACQUIRE) : NULL;
}

struct sde_counter *sde_counter_of(int id)
{
    struct sde_counter *c = id < 0 ? NULL : sde_counter_at(id & SLOT_MASK);
    return c && __atomic_load_n(&c->id, __ATOMIC_ACQUIRE) == id ? c : NULL;
}

void *sde_handle_of(struct sde_counter *c)
{
    return sde_handle_make(SDE_HANDLE_COUNTER, c->id & SLOT_MASK, c->gen);
}

struct sde_counter *sde_handle_checked(void *handle, enum sde_kind kind, int *err)
{
    uintptr_t h = (uintptr_t)handle;
    struct sde_counter *c = sde_handle_counter(h);
    if (!c) {
        *err = sde_fail(SDE_EINVAL, "the handle is NULL or not one libsde gave out");
        return NULL;
    }
    if (sde_kind_of(c) != kind || !__atomic_load_n(&c->alive, __ATOMIC_ACQUIRE) ||
        (__atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) & SDE_HANDLE_GEN_MASK) != sde_handle_gen(h)) {
        *err = sde_fail(SDE_EINVAL, "the handle's event was unregistered or its library shut down");
        return NULL;
    }
    *err = SDE_OK;
    return c;
}

/* A key: the slot in the low SDE_SLOT_BITS, the slot's generation above (43 bits). */
#define KEY_GEN_MASK ((1ull << (63 - SDE_SLOT_BITS)) - 1)

long long sde_key_of_id(int id)
{
    struct sde_counter *c = sde_counter_of(id);
    uint64_t gen = c ? __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) : 0;
    if (!c || __atomic_load_n(&c->id, __ATOMIC_ACQUIRE) != id)
        return -1;
    return (long long)((gen & KEY_GEN_MASK) << SDE_SLOT_BITS) | (id & SLOT_MASK);
}

int sde_id_of_key(long long key)
{
    struct sde_counter *c = key < 0 ? NULL : sde_counter_at((int)(key & SLOT_MASK));
    if (!c)
        return -1;
    int id = __atomic_load_n(&c->id, __ATOMIC_ACQUIRE);
    uint64_t gen = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);
    return (long long)((gen & KEY_GEN_MASK) << SDE_SLOT_BITS) == (key & ~(long long)SLOT_MASK) ? id
                                                                                               : -1;
}

int sde_counter_count(void)
{
    return __atomic_load_n(&ncounters, __ATOMIC_ACQUIRE);
}

/* The library of a handle libsde gave out and did not shut down, else NULL. */
struct sde_library *sde_library_checked(papi_handle_t handle)
{
    for (struct sde_library *l = libraries; l; l = l->next)
        if (l == handle)
            return l->alive ? l : NULL;
    return NULL;
}

enum sde_kind sde_kind_of(const struct sde_counter *c)
{
    return __atomic_load_n(&c->kind, __ATOMIC_ACQUIRE);
}

struct sde_counter *sde_find_registered(const char *full_name)
{
    struct sde_counter *c = sde_find_locked(full_name);
    return c && sde_kind_of(c) != SDE_PLACEHOLDER ? c : NULL;
}

struct sde_counter *sde_find_locked(const char *full_name)
{
    int n = sde_counter_count();
    for (int slot = 0; slot < n; slot++) {
        struct sde_counter *c = sde_counter_at(slot);
        if (c && __atomic_load_n(&c->alive, __ATOMIC_ACQUIRE) && strcmp(c->name, full_name) == 0)
            return c;
    }
    return NULL;
}

/* A name PAPI can count: not empty, no white space, no ":::" (PAPI's component
 * separator), short enough for "LIB::NAME". */
int sde_name_ok(const char *what, const char *name)
{
    if (!name || !*name)
        return sde_fail(SDE_EINVAL, "%s is NULL or empty", what);
    if (strlen(name) >= SDE_NAME_MAX / 2)
        return sde_fail(SDE_EINVAL, "%s '%.40s...' is longer than %d characters", what, name,
                        SDE_NAME_MAX / 2 - 1);
    for (const char *p = name; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
            return sde_fail(SDE_EINVAL, "%s '%s' contains white space", what, name);
    if (strstr(name, ":::"))
        return sde_fail(SDE_EINVAL, "%s '%s' contains ':::'", what, name);
    return SDE_OK;
}

int sde_full_name(const struct sde_library *lib, const char *event_name, char *out)
{
    int ret = sde_name_ok("the event name", event_name);
    if (ret != SDE_OK)
        return ret;
    snprintf(out, SDE_NAME_MAX, "%s::%s", lib->name, event_name);
    /* Refused here, not listed and then uncountable: PAPI names the event
     * sde:::LIB::NAME, within PAPI_MAX_STR_LEN (a longer name was listed cut, and the cut
     * name counted nothing). */
    if (strlen(out) > SDE_PAPI_NAME_MAX)
        return sde_fail(SDE_EINVAL,
                        "the event sde:::%.40s... would be named with %zu characters, more "
                        "than the %d PAPI names an event with (PAPI_MAX_STR_LEN - 1)",
                        out, strlen(out) + 6, SDE_PAPI_NAME_MAX + 6);
    if (strstr(out, ":::"))
        return sde_fail(SDE_EINVAL, "the event %s contains ':::' (PAPI's component separator)",
                        out);
    return SDE_OK;
}

/* Room for one more slot (locked). */
static int grow_table(int slot)
{
    if (slot >= MAX_CHUNKS * CHUNK_SIZE)
        return sde_fail(SDE_ENOMEM, "more than %d software-defined events alive at once",
                        MAX_CHUNKS * CHUNK_SIZE);
    if (sde_chunks[slot >> CHUNK_BITS])
        return SDE_OK;
    struct sde_counter **chunk = calloc(CHUNK_SIZE, sizeof *chunk);
    if (!chunk)
        return sde_fail(SDE_ENOMEM, "no memory for the table of events");
    __atomic_store_n(&sde_chunks[slot >> CHUNK_BITS], chunk, __ATOMIC_RELEASE);
    return SDE_OK;
}

/* c becomes the counter proto describes, named name, under its slot's next id; a
 * lock-free reader that saw the slot's earlier counter sees seq change and retries. */
static void fill_slot(struct sde_counter *c, int slot, const struct sde_counter *proto, char *name)
{
    unsigned seq = c->seq;
    __atomic_store_n(&c->seq, seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    uint64_t gen = c->gen + 1;
    free(c->name);
    free(c->desc);
    free(c->members);
    *c = *proto;
    c->seq = seq + 1;
    c->gen = gen;
    c->next_free = -1;
    c->magic = SDE_MAGIC;
    c->inc_gen = proto->kind == SDE_CREATED ? gen & SDE_HANDLE_GEN_MASK : 0;
    c->name = name;
    __atomic_store_n(&c->id, (int)((gen & ((1u << SDE_GEN_BITS) - 1)) << SDE_SLOT_BITS) | slot,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&c->alive, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&c->seq, seq + 2, __ATOMIC_RELEASE);
}

/* A new counter in the oldest gone slot, else a new slot (locked). */
int sde_new_counter(const char *full, const struct sde_counter *proto, struct sde_counter **out)
{
    int ret, slot = free_head >= 0 ? free_head : ncounters;
    struct sde_counter *c = free_head >= 0 ? sde_counter_at(slot) : NULL;
    if (!c && (ret = grow_table(slot)) != SDE_OK)
        return ret;
    char *name = strdup(full);
    if (!c && name)
        c = calloc(1, sizeof *c);
    if (!c || !name) {
        if (slot == ncounters)
            free(c);
        free(name);
        return sde_fail(SDE_ENOMEM, "no memory for the event %s", full);
    }
    if (slot == free_head) {
        free_head = c->next_free;
        if (free_head < 0)
            free_tail = -1;
    }
    fill_slot(c, slot, proto, name);
    if (slot == ncounters) {
        __atomic_store_n(&sde_chunks[slot >> CHUNK_BITS][slot & (CHUNK_SIZE - 1)], c,
                         __ATOMIC_RELEASE);
        __atomic_store_n(&ncounters, slot + 1, __ATOMIC_RELEASE);
    }
    *out = c;
    return SDE_OK;
}

/* The placeholder p becomes the counter proto describes; its kind goes last, so a
 * reader sees either the placeholder or the whole counter. */
static void fill_placeholder(struct sde_counter *p, const struct sde_counter *proto)
{
    p->mode = proto->mode;
    p->type = proto->type;
    p->ptr = proto->ptr;
    p->callback = proto->callback;
    p->obj = proto->obj;
    p->obj_gen = proto->obj_gen;
    p->stat = proto->stat;
    p->group_flags = proto->group_flags;
    p->lib = proto->lib;
    __atomic_store_n(&p->kind, proto->kind, __ATOMIC_RELEASE);
    __atomic_store_n(&p->inc_gen, proto->kind == SDE_CREATED ? p->gen & SDE_HANDLE_GEN_MASK : 0,
                     __ATOMIC_RELEASE);
}

int sde_add_counter(struct sde_library *lib, const char *event_name,
                    const struct sde_counter *proto, struct sde_counter **out)
{
    char full[SDE_NAME_MAX];
    int ret = sde_full_name(lib, event_name, full);
    if (ret != SDE_OK)
        return ret;
    struct sde_counter *c = sde_find_locked(full), with_lib = *proto;
    with_lib.lib = lib;
    if (c && sde_kind_of(c) != SDE_PLACEHOLDER)
        return sde_fail(SDE_EINVAL, "the event %s is registered already", full);
    if (!c)
        return sde_new_counter(full, &with_lib, out);
    fill_placeholder(c, &with_lib);
    *out = c;
    return SDE_OK;
}

/* A gone counter's slot is reused: nothing points at it (groups, PAPI and the library
 * hold ids or handles that carry its generation), and a recorder's or counting set's
 * object goes with its NAME counter (the others read it through their generation). */
void sde_mark_gone(struct sde_counter *c)
{
    if (!__atomic_load_n(&c->alive, __ATOMIC_ACQUIRE))
        return;
    __atomic_store_n(&c->inc_gen, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&c->alive, 0, __ATOMIC_RELEASE);
    enum sde_kind k = sde_kind_of(c);
    if (k == SDE_CREATED) { /* an add under way ends; later ones see it gone */
        sde_counter_lock(c);
        sde_counter_unlock(c);
    }
    if (k == SDE_RECORDER_DATA || k == SDE_COUNTING_SET)
        sde_object_release(c->obj, c->obj_gen);
    if (k == SDE_PLACEHOLDER)
        return;
    int slot = c->id & SLOT_MASK;
    c->next_free = -1;
    if (free_tail >= 0)
        sde_counter_at(free_tail)->next_free = slot;
    else
        free_head = slot;
    free_tail = slot;
}

papi_handle_t papi_sde_init(const char *name_of_library)
{
    if (sde_name_ok("the library name", name_of_library) != SDE_OK)
        return NULL;
    sde_lock();
    struct sde_library *l;
    for (l = libraries; l; l = l->next)
        if (l->alive && strcmp(l->name, name_of_library) == 0)
            break;
    if (!l && (l = calloc(1, sizeof *l)) != NULL) {
        l->name = strdup(name_of_library);
        if (!l->name) {
            free(l);
            l = NULL;
        } else {
            l->magic = SDE_MAGIC;
            l->alive = 1;
            l->next = libraries;
            libraries = l;
        }
    }
    sde_unlock();
    if (!l)
        sde_fail(SDE_ENOMEM, "no memory for the library %s", name_of_library);
    return l;
}

int papi_sde_shutdown(papi_handle_t handle)
{
    sde_lock();
    struct sde_library *lib = sde_library_checked(handle);
    if (lib) {
        lib->alive = 0;
        int n = sde_counter_count();
        for (int slot = 0; slot < n; slot++) {
            struct sde_counter *c = sde_counter_at(slot);
            if (c && c->lib == lib)
                sde_mark_gone(c);
        }
    }
    sde_unlock();
    return lib ? SDE_OK : sde_fail(SDE_EINVAL, "the handle is not a library's live handle");
}

/* The registry's entry (sde_registry.c), defined here: a library linked with libsde.a
 * pulls this file in with papi_sde_init, and so the entry libpapi looks up with it. */
__attribute__((visibility("default"))) const struct sde_registry_api *papi_compat_sde_registry(void)
{
    return &sde_registry;
}

__attribute__((visibility("default"))) const struct sde_registry_keys *
papi_compat_sde_registry_keys(void)
{
    return &sde_registry_keys;
}
