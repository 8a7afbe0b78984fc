/* regions.c: named regions of MPI_Pcontrol (+-2): entries, wall time and the calling
 * thread's counters per region, in pmpi_run.regions under pmpi_run.lock. */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "counters.h"
#include "regions.h"
#include "state.h"

void pmpi_region_mark(int level, const char *name)
{
    if (!name)
        name = "unnamed"; /* Fortran: MPI_Pcontrol has only the level there */
    struct pmpi_region *r = NULL;
    pthread_mutex_lock(&pmpi_run.lock);
    for (int i = 0; i < pmpi_run.nregions; i++)
        if (strcmp(pmpi_run.regions[i].name, name) == 0)
            r = &pmpi_run.regions[i];
    if (!r && level == 2 && pmpi_run.nregions < PMPI_MAX_REGIONS) {
        r = &pmpi_run.regions[pmpi_run.nregions];
        snprintf(r->name, sizeof r->name, "%s", name);
        pmpi_run.nregions++;
    }
    if (!r) {
        pthread_mutex_unlock(&pmpi_run.lock);
        return;
    }
    long long now[PMPI_MAX_EVENTS] = {0};
    pmpi_counters_read_self(now);
    if (level == 2 && !r->open) {
        r->open = 1;
        r->entries++;
        r->open_t0 = pmpi_now_ns();
        memcpy(r->open_counts, now, sizeof now);
    } else if (level == -2 && r->open) {
        r->open = 0;
        r->wall_ns += pmpi_now_ns() - r->open_t0;
        for (int e = 0; e < pmpi_run.nevents; e++)
            r->counts[e] += now[e] - r->open_counts[e];
    }
    pthread_mutex_unlock(&pmpi_run.lock);
}
