/* sde_internal.h: libsde's own structures, shared by its files and by nothing else.
 *
 * Every counter a library registers or creates is a struct sde_counter in one global
 * table of slots (sde_table.c), found by its id (libpapi's sde component,
 * sde_registry.h) or its full name "LIB::COUNTER". Unregistering a counter or shutting
 * down its library marks it gone; its slot (the struct, never returned to malloc) is
 * then reused by a later registration, so memory stays bounded by the counters alive at
 * once. The id holds the slot and a generation, and a created counter's handle the slot
 * and a wider generation: an id or handle that PAPI or the library still holds after
 * the unregistration reads an error, never the slot's next counter (an id's 6 bits of
 * generation wrap after 64 reuses of one slot, a handle's 41 never in practice; the free
 * slots are taken oldest first). Recorders and counting sets are objects in pools of
 * their own (sde_pool.c), reused the same way, with handles of the same form; the
 * counters that read them carry the generation they were made for. */
#ifndef PAPI_SDE_INTERNAL_H
#define PAPI_SDE_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "sde_lib.h"
#include "sde_registry.h"

#define SDE_HIDDEN __attribute__((visibility("hidden")))
#define SDE_MAGIC  0x53444543u /* "SDEC": a handle libsde gave out */

enum sde_kind {
    SDE_REGISTERED,     /* the library's variable */
    SDE_CALLBACK,       /* a function of the library */
    SDE_CREATED,        /* libsde's own counter, papi_sde_inc_counter */
    SDE_GROUP,          /* SUM, MIN or MAX of other counters */
    SDE_RECORDER_COUNT, /* NAME:CNT, how many values a recorder holds */
    SDE_RECORDER_DATA,  /* NAME, the address of its values */
    SDE_RECORDER_STAT,  /* NAME:MIN, :Q1, :MED, :Q3, :MAX (recorders with a comparator) */
    SDE_COUNTING_SET,   /* NAME, the address of a list of its elements */
    SDE_PLACEHOLDER,    /* named by PAPI before its library registered it: reads 0 */
};

struct sde_library {
    uint32_t magic;
    int alive;
    char *name;
    struct sde_library *next;
};

/* "LIB::COUNTER" at most, so that PAPI's name sde:::LIB::COUNTER fits PAPI_MAX_STR_LEN
 * (128, with its NUL). */
#define SDE_PAPI_NAME_MAX (128 - 1 - 6)
#define SDE_SLOT_BITS     20 /* slots: counters alive at once */
#define SDE_GEN_BITS      6  /* id = generation << SDE_SLOT_BITS | slot, within 26 bits */
/* A handle libsde gives a library (a created counter, a recorder, a counting set) is no
 * address: bit 0 set (no object's address is odd, so a foreign pointer is refused
 * without being read), a 2-bit kind, the slot, and the slot's generation above them (41
 * bits on a 64-bit machine): a handle kept after its counter or object was unregistered
 * is refused however often the slot was reused since. */
#define SDE_HANDLE_COUNTER  2u /* the kinds: 0 recorders, 1 counting sets (their pools) */
#define SDE_HANDLE_LOW_BITS (SDE_SLOT_BITS + 3)
#define SDE_HANDLE_GEN_BITS ((int)sizeof(uintptr_t) * 8 - SDE_HANDLE_LOW_BITS)
#define SDE_HANDLE_GEN_MASK ((((uintptr_t)1 << (SDE_HANDLE_GEN_BITS - 1)) << 1) - 1)
static inline void *sde_handle_make(unsigned kind, int slot, uint64_t gen)
{
    return (void *)((((uintptr_t)gen & SDE_HANDLE_GEN_MASK) << SDE_HANDLE_LOW_BITS) |
                    ((uintptr_t)slot << 3) | ((uintptr_t)kind << 1) | 1u);
}
/* The slot of a handle of that kind, else -1. */
static inline int sde_handle_slot(uintptr_t h, unsigned kind)
{
    return (h & 7u) == ((uintptr_t)kind << 1 | 1u) ? (int)((h >> 3) & ((1u << SDE_SLOT_BITS) - 1))
                                                   : -1;
}
static inline uintptr_t sde_handle_gen(uintptr_t h)
{
    return h >> SDE_HANDLE_LOW_BITS;
}

/* The head of a recorder or counting set (sde_pool.c): a pooled object, never freed. */
struct sde_pool;
struct sde_object {
    pthread_mutex_t lock; /* over the object: taken after libsde's lock, never before */
    uint64_t gen;         /* incarnations of the slot: the handle names one */
    int live;             /* 0 once gone (its buffers freed) */
    int slot, next_free;  /* its slot; the next free one while free (under libsde's lock) */
    struct sde_pool *pool;
};

#define SDE_POOL_CHUNK_BITS 10
struct sde_pool {
    size_t size;                         /* of the whole object, sde_object first */
    unsigned tag;                        /* 0..3, in its handles: one per pool */
    void (*clear)(struct sde_object *o); /* frees what the object holds (o locked) */
    struct sde_object **chunks[(1 << SDE_SLOT_BITS) >> SDE_POOL_CHUNK_BITS];
    int n;                    /* atomic: slots ever used */
    int free_head, free_tail; /* gone slots, oldest first (libsde's lock) */
};

struct sde_counter {
    long long value;  /* SDE_CREATED: the count, changed under inc_lock, read without it */
    uint64_t inc_gen; /* its handle's generation while a live created counter, else 0:
                       * one test per inc */
    char inc_lock;    /* SDE_CREATED: a spin lock (an exchange, cheaper than a locked add) */
    uint32_t magic;
    int alive;     /* atomic: 0 once unregistered or shut down */
    int id;        /* atomic: changes when the slot is reused */
    unsigned seq;  /* odd while the slot is being reused: a lock-free reader retries */
    uint64_t gen;  /* reuses of the slot */
    int next_free; /* the slot after this one in the free list, -1 at its end */
    enum sde_kind kind;
    int mode, type;
    char *name; /* "LIB::COUNTER" */
    char *desc; /* under the lock */
    struct sde_library *lib;
    void *ptr; /* registered: the variable; callback: its parameter */
    papi_sde_fptr_t callback;
    struct sde_object *obj; /* SDE_RECORDER_*: its recorder; SDE_COUNTING_SET: its set */
    uint64_t obj_gen;       /* the generation of obj this counter was made for */
    int stat;               /* SDE_RECORDER_STAT: 0 min, 1 q1, 2 median, 3 q3, 4 max */
    uint32_t group_flags;   /* SDE_GROUP: PAPI_SDE_SUM, _MAX, _MIN */
    long long *members;     /* SDE_GROUP: keys (sde_key_of_id), under the lock */
    int nmembers, capmembers;
};

/* A created counter's spin lock (inc_lock): held for one add, so spinning is short. */
static inline void sde_counter_lock(struct sde_counter *c)
{
    while (__atomic_exchange_n(&c->inc_lock, 1, __ATOMIC_ACQUIRE)) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }
}
static inline void sde_counter_unlock(struct sde_counter *c)
{
    __atomic_store_n(&c->inc_lock, 0, __ATOMIC_RELEASE);
}

/* sde_table.c: the lock over every structure change, the table and the libraries. */
SDE_HIDDEN void sde_lock(void);
SDE_HIDDEN void sde_unlock(void);
SDE_HIDDEN int sde_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The counter of id while it is that id's (NULL once gone and its slot reused). */
SDE_HIDDEN struct sde_counter *sde_counter_of(int id);
/* A key names one counter for good: its slot and a 43-bit generation (an id's 6 bits
 * wrap after 64 reuses of the slot). -1 for a gone id; -1 for a key whose counter is
 * gone (its id, while its slot holds it, otherwise). */
SDE_HIDDEN long long sde_key_of_id(int id);
SDE_HIDDEN int sde_id_of_key(long long key);
/* Slot i of the table (0 .. sde_counter_count() - 1), whatever its id. */
SDE_HIDDEN struct sde_counter *sde_counter_at(int slot);
/* A created counter's handle: its slot and generation. */
SDE_HIDDEN void *sde_handle_of(struct sde_counter *c);
/* The table's chunks (sde_table.c), for papi_sde_inc_counter's inline lookup. */
#define SDE_CHUNK_BITS 10
SDE_HIDDEN extern struct sde_counter **sde_chunks[(1 << SDE_SLOT_BITS) >> SDE_CHUNK_BITS];
/* The counter in the slot a created counter's handle names, or NULL; its generation is
 * the caller's to check. */
static inline struct sde_counter *sde_handle_counter(uintptr_t h)
{
    int slot = sde_handle_slot(h, SDE_HANDLE_COUNTER);
    struct sde_counter **chunk =
        slot < 0 ? NULL : __atomic_load_n(&sde_chunks[slot >> SDE_CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk ? __atomic_load_n(&chunk[slot & ((1 << SDE_CHUNK_BITS) - 1)], __ATOMIC_ACQUIRE)
                 : NULL;
}
SDE_HIDDEN enum sde_kind sde_kind_of(const struct sde_counter *c); /* atomic load */
/* SDE_OK when name is one PAPI can count (not empty, no white space, no ":::"). */
SDE_HIDDEN int sde_name_ok(const char *what, const char *name);
/* A new counter under a new id, as proto says (locked). */
SDE_HIDDEN int sde_new_counter(const char *full, const struct sde_counter *proto,
                               struct sde_counter **out);
SDE_HIDDEN int sde_counter_count(void);                                   /* slots in use or free */
SDE_HIDDEN struct sde_library *sde_library_checked(papi_handle_t handle); /* locked */
/* The live counter of that name, placeholders too (their kind says so). */
SDE_HIDDEN struct sde_counter *sde_find_locked(const char *full_name);
/* The same, registered counters only. */
SDE_HIDDEN struct sde_counter *sde_find_registered(const char *full_name);
SDE_HIDDEN int sde_full_name(const struct sde_library *lib, const char *event_name, char *out);
/* A new live counter named lib::event_name, or the placeholder of that name made one
 * (locked; SDE_EINVAL when the name is taken). */
SDE_HIDDEN int sde_add_counter(struct sde_library *lib, const char *event_name,
                               const struct sde_counter *proto, struct sde_counter **out);
/* Unregistered, or its library shut down: every later use is refused (locked). */
SDE_HIDDEN void sde_mark_gone(struct sde_counter *c);
/* The live counter of kind behind a handle, or NULL with the error in *err. */
SDE_HIDDEN struct sde_counter *sde_handle_checked(void *handle, enum sde_kind kind, int *err);

/* sde_registry.c: what libpapi's sde component reads (sde_registry.h). */
SDE_HIDDEN extern const struct sde_registry_api sde_registry;
SDE_HIDDEN extern const struct sde_registry_keys sde_registry_keys;

/* sde_read.c: a counter's value now. */
SDE_HIDDEN int sde_read_counter(int id, struct sde_reading *out);

/* sde_pool.c (the pool's calls under libsde's lock). A live object in the oldest free
 * slot or a new one, its generation advanced, returned locked; NULL without memory. */
SDE_HIDDEN struct sde_object *sde_pool_take(struct sde_pool *p);
/* o gone (its clear called) and its slot free, if o is still generation gen. */
SDE_HIDDEN void sde_object_release(struct sde_object *o, uint64_t gen);
/* The handle of o for the library: slot and generation, never an address. */
SDE_HIDDEN void *sde_object_handle(const struct sde_object *o);
/* The live object of a handle of p, or of o at generation gen, locked; else NULL. */
SDE_HIDDEN struct sde_object *sde_pool_lock(struct sde_pool *p, void *handle);
SDE_HIDDEN struct sde_object *sde_object_lock(struct sde_object *o, uint64_t gen);

/* sde_recorder.c and sde_cset.c: the values of their events; SDE_ENOEVNT when the object
 * is no longer generation gen. */
SDE_HIDDEN int sde_recorder_count(struct sde_object *o, uint64_t gen, long long *out);
SDE_HIDDEN int sde_recorder_data(struct sde_object *o, uint64_t gen, long long *out);
SDE_HIDDEN int sde_recorder_stat(struct sde_object *o, uint64_t gen, int stat, long long *out);
SDE_HIDDEN int sde_cset_snapshot(struct sde_object *o, uint64_t gen, long long *out);

#endif
