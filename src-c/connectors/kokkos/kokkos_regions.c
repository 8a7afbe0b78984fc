/* kokkos_regions.c: one thread's open Kokkos kernels and profile regions, mapped to the
 * region API. Kokkos ends a kernel by the id its begin handed out and a profile region
 * by position (popRegion names none), so each thread keeps a table of open slots: the
 * id is the slot, and the innermost profile region is the highest open one of its kind.
 * The region API accepts ends out of order, so a kernel ending inside a region that
 * began after it (never in Kokkos, possible in a tool stack) is still counted right. */
#include <stdio.h>
#include <string.h>

#include <papi.h>

#include "kokkos_regions.h"

#define KR_NAME_LEN 128 /* the region API's limit, with the terminating NUL */

struct kr_slot {
    int open;
    enum kr_kind kind;
    char name[KR_NAME_LEN];
};

static _Thread_local struct kr_slot slots[KR_MAX_OPEN];
static _Thread_local int top; /* slots at and above top are closed */

static void too_deep(const char *name)
{
    static _Thread_local int said;
    if (!said)
        fprintf(stderr,
                "papi_kokkos: more than %d Kokkos kernels and regions open in one "
                "thread: '%s' and deeper ones are not counted\n",
                KR_MAX_OPEN, name);
    said = 1;
}

uint64_t kr_begin(enum kr_kind kind, const char *name)
{
    if (!name || !*name)
        name = "(unnamed Kokkos kernel)";
    if (top >= KR_MAX_OPEN) {
        too_deep(name);
        return KR_NO_ID;
    }
    struct kr_slot *s = &slots[top];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->kind = kind;
    s->open = 1;
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

void kr_pop_profile(void)
{
    for (int i = top - 1; i >= 0; i--)
        if (slots[i].open && slots[i].kind == KR_PROFILE) {
            kr_end((uint64_t)i);
            return;
        }
}

void kr_end_all(void)
{
    while (top > 0)
        kr_end((uint64_t)(top - 1));
}
