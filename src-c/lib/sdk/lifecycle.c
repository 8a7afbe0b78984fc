/* lifecycle.c: the registry through which the library's lifecycle reaches its layers.
 * The core's library_init.c notifies; event sets, presets, components and hardware
 * information register what they want done, so the orchestrator names none of them.
 * Lock-free (a compare-and-swap per free slot): notify runs inside fork(), where a
 * mutex taken by another thread of the parent would stay locked forever. */
#include <stdatomic.h>

#include "papi_sdk.h"

#define PER_STAGE 8

static _Atomic(papi_life_fn) table[PAPI_LIFE_STAGES][PER_STAGE];
static _Atomic(papi_life_fn) fork_table[PER_STAGE]; /* PAPI_LIFE_FORK_CHILD's own */

static int add(_Atomic(papi_life_fn) *slots, papi_life_fn fn)
{
    for (int i = 0; i < PER_STAGE; i++) {
        papi_life_fn seen = NULL;
        if (atomic_compare_exchange_strong(&slots[i], &seen, fn) || seen == fn)
            return 1;
    }
    return 0;
}

int papi_lifecycle_register(enum papi_life_stage stage, papi_life_fn fn)
{
    if ((unsigned)stage >= PAPI_LIFE_STAGES || !fn)
        return papi_error(PAPI_EINVAL, "lifecycle stage %d or callback is not valid", (int)stage);
    if (add(table[stage], fn))
        return PAPI_OK;
    return papi_error(PAPI_ENOMEM, "lifecycle stage %d already has %d callbacks", (int)stage,
                      PER_STAGE);
}

int papi_lifecycle_register_fork(papi_life_fn fn)
{
    if (!fn)
        return papi_error(PAPI_EINVAL, "the fork callback is NULL");
    if (add(fork_table, fn))
        return PAPI_OK;
    return papi_error(PAPI_ENOMEM, "the fork notification already has %d callbacks", PER_STAGE);
}

PAPI_FORK_CHILD_CODE static void run(_Atomic(papi_life_fn) *slots, const struct papi_life *ev)
{
    for (int i = 0; i < PER_STAGE; i++) {
        papi_life_fn fn = atomic_load(&slots[i]);
        if (!fn)
            break; /* slots fill in order */
        fn(ev);
    }
}

PAPI_FORK_CHILD_CODE void papi_lifecycle_notify(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_FORK_CHILD) {
        run(fork_table, ev);
        return;
    }
    for (int s = 0; s < PAPI_LIFE_STAGES; s++)
        run(table[s], ev);
}
