/* papif_overflow.c: the Fortran side of PAPI_overflow_frequency and
 * PAPI_get_overflow_callchain (extensions of this library). A Fortran handler is an
 * INTEGER function without arguments (PAPIF_thread_init's kind): the C handler calls the
 * one given for the event set, and the Fortran code asks PAPIF_get_overflow_callchain for
 * the chain (its first address is the interrupted PC). */
#include <stdatomic.h>
#include <stdint.h>

#include "papi.h"
#include "papif_helpers.h"

/* Event set handles are small integers; a set beyond the table is refused. */
#define FORTRAN_HANDLER_SETS 1024

static _Atomic(int (*)(void)) fortran_handler[FORTRAN_HANDLER_SETS];

/* Runs in the signal handler: an atomic load and the user's function. */
static void call_fortran_handler(int EventSet, void *address, long long vector, void *ctx)
{
    (void)address, (void)vector, (void)ctx;
    int (*fn)(void) = EventSet >= 0 && EventSet < FORTRAN_HANDLER_SETS
                          ? atomic_load(&fortran_handler[EventSet])
                          : NULL;
    if (fn)
        (void)fn();
}

int papifh_overflow_frequency(int EventSet, int EventCode, int hz, int flags, int (*handler)(void))
{
    if (EventSet < 0 || EventSet >= FORTRAN_HANDLER_SETS || !handler) /* PAPI says why */
        return PAPI_overflow_frequency(EventSet, EventCode, hz, flags, NULL);
    int (*old)(void) = atomic_exchange(&fortran_handler[EventSet], handler);
    int ret = PAPI_overflow_frequency(EventSet, EventCode, hz, flags, call_fortran_handler);
    if (ret != PAPI_OK)
        atomic_store(&fortran_handler[EventSet], old); /* a refused call changes nothing */
    return ret;
}

int papifh_get_overflow_callchain(long long *pcs, int max)
{
    void *chain[256];
    if (!pcs || max < 1)
        return PAPI_get_overflow_callchain(NULL, 0);
    int n = PAPI_get_overflow_callchain(chain, max < 256 ? max : 256);
    for (int i = 0; i < n; i++)
        pcs[i] = (long long)(uintptr_t)chain[i];
    return n;
}
