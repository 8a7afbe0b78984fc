/* ompt_regions.c: the table of parallel regions by code address and context
 * (ompt_regions.h). Open addressing over a fixed array: a slot's key (the address in the
 * low 48 bits, the context above) is set once, by compare-and-swap, and never changes,
 * so a lookup needs no lock and a region keeps its index for the run. The thread whose
 * compare-and-swap set a key keeps the code's object and file address (the symbolizer's
 * sym_object_of: once per region, never again on the hot path), for a library the
 * program unloads before finalize names it (issue 69 N9). */
#include <stdatomic.h>
#include <string.h>

#include "ompt_keys.h"
#include "ompt_regions.h"
#include "symbolizer.h"

#define CONTEXT_SHIFT 48
#define ADDRESS_MASK  ((1ULL << CONTEXT_SHIFT) - 1)

static _Atomic uint64_t region_keys[OMPT_REGIONS_MAX];

/* The objects regions' code lay in: a slot claimed by compare-and-swap (0 free, 1 being
 * written, 2 written) and never freed; two threads keeping one new object at once may
 * take two slots of one path (it is then opened twice at finalize, no more). */
static struct {
    atomic_int state;
    char path[OMPT_OBJECT_PATH];
} objects[OMPT_OBJECTS_MAX];
/* Per region: its object (index + 1; 0: not kept), published after its file address. */
static atomic_int region_object[OMPT_REGIONS_MAX];
static uintptr_t region_file_address[OMPT_REGIONS_MAX];

/* The object slot of path, taken when new; -1 when the slots are full. Lock-free. */
static int object_slot(const char *path)
{
    size_t len = strlen(path) + 1;
    for (int k = 0; k < OMPT_OBJECTS_MAX; k++) {
        int state = atomic_load_explicit(&objects[k].state, memory_order_acquire);
        if (state == 0 && atomic_compare_exchange_strong(&objects[k].state, &state, 1)) {
            memcpy(objects[k].path, path, len);
            atomic_store_explicit(&objects[k].state, 2, memory_order_release);
            return k;
        }
        if (state == 2 && strcmp(objects[k].path, path) == 0)
            return k;
    }
    return -1;
}

/* Region i's object and file address, while its object is loaded: the code address is
 * a call's return address, so the object is the one holding the call (address - 1).
 * dladdr1 takes the loader's lock (recursive) and allocates nothing. */
static void keep_object(int i, uintptr_t address)
{
    char path[OMPT_OBJECT_PATH];
    uintptr_t at;
    if (address <= OMPT_REGION_NO_ADDRESS ||
        sym_object_of(address - 1, path, sizeof path, &at) != 0 ||
        strlen(path) + 1 >= sizeof path) /* (a path cut short would name another file) */
        return;
    int k = object_slot(path);
    if (k < 0)
        return;
    region_file_address[i] = at + 1;
    atomic_store_explicit(&region_object[i], k + 1, memory_order_release);
}

int ompt_region_index(const void *codeptr_ra, unsigned ctx)
{
    uint64_t key = codeptr_ra ? (uint64_t)(uintptr_t)codeptr_ra : OMPT_REGION_NO_ADDRESS;
    if (key & ~ADDRESS_MASK)
        return -1; /* no code in Linux's user space: counted as dropped, not misfiled */
    key |= (uint64_t)(ctx & 0xffffu) << CONTEXT_SHIFT;
    int claimed = 0, i = ompt_key_slot(region_keys, OMPT_REGIONS_MAX, key, 1, &claimed);
    if (claimed)
        keep_object(i, (uintptr_t)codeptr_ra);
    return i;
}

static uint64_t key_of(int i)
{
    if (i < 0 || i >= OMPT_REGIONS_MAX)
        return 0;
    return atomic_load_explicit(&region_keys[i], memory_order_acquire);
}

uintptr_t ompt_region_address(int i)
{
    return (uintptr_t)(key_of(i) & ADDRESS_MASK);
}

unsigned ompt_region_context(int i)
{
    return (unsigned)(key_of(i) >> CONTEXT_SHIFT);
}

int ompt_region_object(uintptr_t address, const char **path, uintptr_t *file_address)
{
    for (int i = 0; address > OMPT_REGION_NO_ADDRESS && i < OMPT_REGIONS_MAX; i++) {
        int k = atomic_load_explicit(&region_object[i], memory_order_acquire) - 1;
        if (k >= 0 && ompt_region_address(i) == address) {
            *path = objects[k].path;
            *file_address = region_file_address[i];
            return k;
        }
    }
    return -1;
}
