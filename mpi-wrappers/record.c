/* record.c: the slow parts of recording: calls counted outside the generated wrappers,
 * the Fortran forwarders' bookkeeping and the tick-to-ns ratio. Reaches only the thread
 * slots and the state below it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "record.h"

void pmpi_count_call(int id, long long t0)
{
    if (atomic_load(&pmpi_rec.state) == PMPI_OFF)
        return;
    struct pmpi_thread *th = pmpi_tls ? pmpi_tls : pmpi_thread_slot_slow();
    long long dt = pmpi_ticks() - t0;
    atomic_fetch_add(&th->stat[id].calls, 1);
    atomic_fetch_add(&th->stat[id].ns, dt);
}

/* Fortran forwarders (generated): the user's return address becomes the site of the C
 * wrapper the binding reaches; a binding that enters PMPI_* directly reaches none, and
 * the forwarder counts the call (calls and time; those bindings move no buffer). */
long long pmpi_fortran_enter(void *return_address)
{
    pmpi_fcall.site = return_address;
    pmpi_fcall.counted = 0;
    return pmpi_active() ? pmpi_ticks() : 0;
}

void pmpi_fortran_leave_bytes(int id, long long t0, long long sent, long long recvd)
{
    struct pmpi_frame f = {t0};
    void *site = pmpi_fcall.site;
    pmpi_fcall.site = NULL;
    if (!pmpi_fcall.counted)
        pmpi_leave(&f, id, sent, recvd, site);
    pmpi_fcall.counted = 0;
}

void pmpi_fortran_leave(int id, long long t0)
{
    pmpi_fortran_leave_bytes(id, t0, 0, 0);
}

double pmpi_ns_per_tick(long long end_ns, long long end_tick)
{
    return end_tick > pmpi_run.tick_init
               ? (double)(end_ns - pmpi_run.t_init) / (double)(end_tick - pmpi_run.tick_init)
               : 1.0;
}

void *pmpi_next_symbol(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        fprintf(stderr, "papi_mpi: %s not found after the wrapper library (%s)\n", name,
                dlerror());
        abort();
    }
    return p;
}
