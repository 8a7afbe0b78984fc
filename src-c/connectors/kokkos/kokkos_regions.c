/* kokkos_regions.c: one thread's open Kokkos kernels and profile regions, mapped to the
 * region API. Kokkos ends a kernel by the id its begin handed out and a profile region
 * by position (popRegion names none), so each thread keeps a table of open slots: the
 * id is the slot, and the innermost profile region is the highest open one of its kind.
 * The region API accepts ends out of order, so a kernel ending inside a region that
 * began after it (never in Kokkos, possible in a tool stack) is still counted right. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <papi.h>

#include "kokkos_regions.h"

#define KR_NAME_LEN 128 /* the region API's limit, with the terminating NUL */

struct kr_slot {
    int open;
    enum kr_kind kind;
    /* Profile pushes refused (past KR_MAX_OPEN) while this was the innermost open
     * profile region: their pops come before this region's own. */
    uint64_t refused_inside;
    char name[KR_NAME_LEN];
};

static _Thread_local struct kr_slot slots[KR_MAX_OPEN];
static _Thread_local int top;                    /* slots at and above top are closed */
static _Thread_local uint64_t refused_outermost; /* refused with no profile region open */

static void too_deep(const char *name)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&said))
        fprintf(stderr,
                "papi_kokkos: more than %d Kokkos kernels and regions open in one "
                "thread: '%s' and deeper ones are not counted (their ends end nothing)\n",
                KR_MAX_OPEN, name);
}

/* The innermost open profile region of this thread, or -1. */
static int innermost_profile(void)
{
    for (int i = top - 1; i >= 0; i--)
        if (slots[i].open && slots[i].kind == KR_PROFILE)
            return i;
    return -1;
}

uint64_t kr_begin(enum kr_kind kind, const char *name)
{
    if (!name || !*name)
        name = "(unnamed Kokkos kernel)";
    if (top >= KR_MAX_OPEN) {
        too_deep(name);
        /* A refused kernel's end comes back with KR_NO_ID; a refused profile region's
         * pop names nothing, so it is counted where kr_pop_profile will meet it first. */
        if (kind == KR_PROFILE) {
            int in = innermost_profile();
            if (in >= 0)
                slots[in].refused_inside++;
            else
                refused_outermost++;
        }
        return KR_NO_ID;
    }
    struct kr_slot *s = &slots[top];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->kind = kind;
    s->open = 1;
    s->refused_inside = 0;
    /* A refused begin (bad PAPI_EVENTS ...) was reported by the region API, once; the
     * slot stays, so the matching end stays matched. */
    PAPI_hl_region_begin(s->name);
    return (uint64_t)top++;
}

void kr_end(uint64_t id)
{
    if (id >= (uint64_t)top || !slots[id].open)
        return;
    PAPI_hl_region_end(slots[id].name);
    slots[id].open = 0;
    while (top > 0 && !slots[top - 1].open)
        top--;
}

/* The pop of the innermost push: a refused one ends nothing. */
void kr_pop_profile(void)
{
    int in = innermost_profile();
    if (in >= 0 && slots[in].refused_inside > 0)
        slots[in].refused_inside--;
    else if (in >= 0)
        kr_end((uint64_t)in);
    else if (refused_outermost > 0)
        refused_outermost--;
}

void kr_end_all(void)
{
    while (top > 0)
        kr_end((uint64_t)(top - 1));
    refused_outermost = 0;
}
