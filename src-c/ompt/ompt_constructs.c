/* ompt_constructs.c: the constructs' table and the locks' init sites
 * (ompt_constructs.h). Open addressing over fixed arrays, keys set once by
 * compare-and-swap (ompt_keys.h, as the regions' table): a lookup takes no lock. */
#include <stdatomic.h>
#include <stddef.h>

#include "ompt_constructs.h"
#include "ompt_keys.h"
#include "trace_openmp.h"

#define ADDRESS_BITS 48
#define ADDRESS_MASK ((1ULL << ADDRESS_BITS) - 1)
#define KIND_SHIFT   ADDRESS_BITS       /* 5 bits: the kind */
#define REGION_SHIFT (ADDRESS_BITS + 5) /* 11 bits: the region + 1 (0: none) */

static _Atomic uint64_t construct_keys[OMPT_CONSTRUCTS_MAX];
static atomic_uint construct_schedules[OMPT_CONSTRUCTS_MAX];
static _Atomic uint64_t lock_ids[OMPT_LOCK_SITES_MAX];
static _Atomic uintptr_t lock_site[OMPT_LOCK_SITES_MAX];
static _Atomic uint64_t dropped;

static const char *const kind_names[OMPT_C_KINDS] = {
    [OMPT_C_LOOP] = "loop",
    [OMPT_C_SECTIONS] = "sections",
    [OMPT_C_SINGLE] = "single",
    [OMPT_C_WORKSHARE] = "workshare",
    [OMPT_C_DISTRIBUTE] = "distribute",
    [OMPT_C_TASKLOOP] = "taskloop",
    [OMPT_C_SCOPE] = "scope",
    [OMPT_C_CRITICAL] = "critical",
    [OMPT_C_LOCK] = "lock",
    [OMPT_C_NEST_LOCK] = "nest_lock",
    [OMPT_C_ORDERED] = "ordered",
    [OMPT_C_ATOMIC] = "atomic",
    [OMPT_C_TASK] = "task",
    [OMPT_C_TASKWAIT] = "taskwait",
    [OMPT_C_TASKGROUP] = "taskgroup",
    [OMPT_C_BARRIER] = "barrier",
    [OMPT_C_REDUCTION] = "reduction",
    [OMPT_C_MASKED] = "masked",
    [OMPT_C_TARGET] = "target",
};

const char *ompt_construct_kind_name(int kind)
{
    return kind > 0 && kind < OMPT_C_KINDS ? kind_names[kind] : "unknown";
}

int ompt_construct_index(int kind, const void *codeptr, int region)
{
    uint64_t address = codeptr ? (uint64_t)(uintptr_t)codeptr : OMPT_REGION_NO_ADDRESS;
    if ((address & ~ADDRESS_MASK) || region >= OMPT_REGIONS_MAX)
        return -1;
    uint64_t key = address | (uint64_t)kind << KIND_SHIFT | (uint64_t)(region + 1) << REGION_SHIFT;
    return ompt_key_slot(construct_keys, OMPT_CONSTRUCTS_MAX, key, 1, NULL);
}

int ompt_construct_at(int i, uintptr_t *address, int *region)
{
    uint64_t k = i >= 0 && i < OMPT_CONSTRUCTS_MAX
                     ? atomic_load_explicit(&construct_keys[i], memory_order_acquire)
                     : 0;
    *address = (uintptr_t)(k & ADDRESS_MASK);
    *region = (int)(k >> REGION_SHIFT) - 1;
    return (int)(k >> KIND_SHIFT & 0x1f);
}

void ompt_construct_add_schedule(int i, unsigned schedule)
{
    atomic_fetch_or_explicit(&construct_schedules[i], schedule, memory_order_relaxed);
}

unsigned ompt_construct_schedules(int i)
{
    return atomic_load_explicit(&construct_schedules[i], memory_order_relaxed);
}

void ompt_lock_site_set(uint64_t id, const void *codeptr)
{
    int i = id && codeptr ? ompt_key_slot(lock_ids, OMPT_LOCK_SITES_MAX, id, 1, NULL) : -1;
    if (i >= 0) /* a lock initialised again (its memory reused) takes its new site */
        atomic_store_explicit(&lock_site[i], (uintptr_t)codeptr, memory_order_release);
}

const void *ompt_lock_site(uint64_t id)
{
    int i = id ? ompt_key_slot(lock_ids, OMPT_LOCK_SITES_MAX, id, 0, NULL) : -1;
    return i < 0 ? NULL : (const void *)atomic_load_explicit(&lock_site[i], memory_order_acquire);
}

void ompt_construct_count_drop(void)
{
    atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
}

uint64_t ompt_construct_drops(void)
{
    return atomic_load_explicit(&dropped, memory_order_relaxed);
}

int ompt_construct_trace_kind(int kind)
{
    switch (kind) {
    case OMPT_C_LOOP:
    case OMPT_C_DISTRIBUTE:
    case OMPT_C_TASKLOOP:
        return TRACE_OMP_LOOP;
    case OMPT_C_SECTIONS:
        return TRACE_OMP_SECTIONS;
    case OMPT_C_SINGLE:
        return TRACE_OMP_SINGLE;
    case OMPT_C_WORKSHARE:
    case OMPT_C_SCOPE:
        return TRACE_OMP_WORKSHARE;
    case OMPT_C_CRITICAL:
        return TRACE_OMP_CRITICAL;
    case OMPT_C_LOCK:
    case OMPT_C_NEST_LOCK:
        return TRACE_OMP_LOCK;
    case OMPT_C_ORDERED:
        return TRACE_OMP_ORDERED;
    case OMPT_C_ATOMIC:
        return TRACE_OMP_ATOMIC;
    case OMPT_C_REDUCTION:
        return TRACE_OMP_REDUCTION;
    case OMPT_C_MASKED:
        return TRACE_OMP_MASKED;
    case OMPT_C_TARGET:
        return TRACE_OMP_TARGET;
    default:
        return -1;
    }
}
