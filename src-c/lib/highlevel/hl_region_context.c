/* hl_region_context.c: what the MPI wrapper tells of its MPI_Pcontrol regions, and the
 * names of the contexts the OMPT tool asks for at its report (papi_region_context.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "hl_region_context.h"
#include "hl_state.h"

#define MPI_SLOTS 64 /* the wrapper has 16 (PMPI_MAX_REGIONS) */

static atomic_int mpi_current = -1;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static char mpi_names[MPI_SLOTS][64];

int hl_mpi_context(void)
{
    return atomic_load_explicit(&mpi_current, memory_order_relaxed);
}

void papi_mpi_region_context(int slot, const char *name)
{
    if (slot >= MPI_SLOTS)
        slot = -1; /* past what is kept: not filed under a wrong region */
    if (slot >= 0 && name) {
        pthread_mutex_lock(&names_lock);
        snprintf(mpi_names[slot], sizeof mpi_names[slot], "%s", name);
        pthread_mutex_unlock(&names_lock);
    }
    atomic_store_explicit(&mpi_current, slot, memory_order_relaxed);
}

/* A named context's region: the thread record's region with that id. */
static int named_region(long id, char *buf, unsigned long len)
{
    int found = -1;
    pthread_mutex_lock(&g_hlr_lock);
    for (struct hlr_thread *t = g_hlr_threads; t && found < 0; t = t->next) {
        pthread_mutex_lock(&t->lock);
        for (int r = 0; r < t->nregions && found < 0; r++)
            if (t->region[r].context == id)
                found = snprintf(buf, len, "%s", t->region[r].name) < 0 ? -1 : 0;
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_unlock(&g_hlr_lock);
    return found;
}

int papi_region_context_name(int kind, long id, char *buf, unsigned long len)
{
    if (!buf || len == 0)
        return -1;
    buf[0] = '\0';
    if (kind == PAPI_CONTEXT_NAMED && id > 0)
        return named_region(id, buf, len);
    if (kind != PAPI_CONTEXT_MPI || id < 0 || id >= MPI_SLOTS)
        return -1;
    pthread_mutex_lock(&names_lock);
    snprintf(buf, len, "%s", mpi_names[id]);
    pthread_mutex_unlock(&names_lock);
    return buf[0] ? 0 : -1;
}
