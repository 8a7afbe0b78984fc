/* regions.c: named regions of MPI_Pcontrol (IPM's 1 "name" .. -1 "name"): entries, wall
 * time, the calling thread's counters and the rank's MPI calls and time in MPI per region, in
 * pmpi_regions_edit()->regions under pmpi_state_lock. */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "counters.h"
#include "energy_events.h"
#include "gpu_row.h"
#include "event_log.h"
#include "mpi_sample.h"
#include "papi_region_context.h"
#include "record.h"
#include "region_state.h"
#include "regions.h"
#include "run_events.h"
#include "state.h"
#include "thread_slots.h"

/* The rank's MPI totals when each open region was opened, per call (calls and ticks):
 * here, not in pmpi_region, so a row's copy of the regions stays small. Under the lock. */
static long long open_calls[PMPI_MAX_REGIONS][PMPI_NCALLS];
static long long open_ticks[PMPI_MAX_REGIONS][PMPI_NCALLS];
static long long now_calls[PMPI_NCALLS], now_ticks[PMPI_NCALLS];

/* The rank's MPI calls and their time so far, per call, summed over the thread slots
 * (read as the checkpoint thread reads them: whole values, other threads may be adding);
 * returns the rank's time in MPI (the threads' union under MPI_THREAD_MULTIPLE). */
static long long mpi_totals(long long *calls, long long *ticks)
{
    long long sum = 0;
    memset(calls, 0, sizeof now_calls);
    memset(ticks, 0, sizeof now_ticks);
    int n = pmpi_record_nslots();
    for (int t = 0; t < n; t++) {
        const struct pmpi_thread *th = &pmpi_rec.threads[t];
        sum += atomic_load_explicit(&th->mpi_ticks, memory_order_relaxed);
        for (int c = 0; c < PMPI_NCALLS; c++) {
            calls[c] += atomic_load_explicit(&th->stat[c].calls, memory_order_relaxed);
            ticks[c] += atomic_load_explicit(&th->stat[c].ns, memory_order_relaxed);
        }
    }
    return pmpi_busy_ticks(sum, pmpi_ticks());
}

/* The calls made while region r was open: listed per call (the first PMPI_REGION_CALLS
 * distinct calls), the rest counted in calls_unlisted; MPI_Pcontrol, the region's own
 * markers (and other regions'), is not an MPI call of the region. */
static void add_calls(struct pmpi_region *r, const long long *calls0, const long long *ticks0)
{
    for (int c = 0; c < PMPI_NCALLS; c++) {
        long long dc = now_calls[c] - calls0[c];
        if (c == PMPI_ID_MPI_Pcontrol || dc <= 0)
            continue;
        long long dt = now_ticks[c] - ticks0[c];
        r->mpi_calls += dc;
        int i = 0;
        while (i < r->ncalls && r->calls[i].id != c)
            i++;
        if (i == r->ncalls && r->ncalls == PMPI_REGION_CALLS) {
            r->calls_unlisted += dc;
            continue;
        }
        if (i == r->ncalls)
            r->calls[r->ncalls++] = (struct pmpi_region_call){c, 0, 0};
        r->calls[i].calls += dc;
        r->calls[i].ticks += dt > 0 ? dt : 0;
    }
}

/* The open regions, innermost last (under the lock): the OMPT tool files a parallel
 * region under the innermost one open at its fork (libpapi holds it for the tool:
 * papi_region_context.h). */
static int open_stack[PMPI_MAX_REGIONS], open_depth;

static void tell_context(int slot, int open)
{
    int i = open_depth - 1;
    if (open && open_depth < PMPI_MAX_REGIONS) {
        open_stack[open_depth++] = slot;
    } else if (!open) {
        while (i >= 0 && open_stack[i] != slot)
            i--;
        if (i < 0)
            return;
        memmove(&open_stack[i], &open_stack[i + 1], (size_t)(open_depth - i - 1) * sizeof(int));
        open_depth--;
    }
    int top = open_depth ? open_stack[open_depth - 1] : -1;
    papi_mpi_region_context(top, top >= 0 ? pmpi_regions()->regions[top].name : NULL);
}

void pmpi_region_mark(int level, const char *name)
{
    if (!name)
        return;
    struct pmpi_region *r = NULL;
    pthread_mutex_lock(&pmpi_state_lock);
    struct pmpi_regions *rs = pmpi_regions_edit();
    for (int i = 0; i < rs->nregions; i++)
        if (strcmp(rs->regions[i].name, name) == 0)
            r = &rs->regions[i];
    if (!r && level == 2 && rs->nregions < PMPI_MAX_REGIONS) {
        r = &rs->regions[rs->nregions];
        snprintf(r->name, sizeof r->name, "%s", name);
        rs->nregions++;
    }
    if (!r) {
        pthread_mutex_unlock(&pmpi_state_lock);
        return;
    }
    int slot = (int)(r - rs->regions);
    long long now[PMPI_MAX_EVENTS] = {0};
    if (level == 2 && !r->open)
        pmpi_gpu_region_begin(r); /* its flush before the counters, outside the region */
    pmpi_counters_read_self(now);
    pmpi_energy_region_read(now); /* the socket's energy: not a thread's count */
    if (level == 2 && !r->open) {
        r->open = 1;
        r->entries++;
        r->open_mpi_ticks = mpi_totals(open_calls[slot], open_ticks[slot]);
        r->open_t0 = pmpi_now_ns();
        memcpy(r->open_counts, now, sizeof now);
        pmpi_log_region(slot, 1);
        pmpi_sample_region(slot, 1);
        tell_context(slot, 1);
    } else if (level == -2 && r->open) {
        r->open = 0;
        long long wall = pmpi_now_ns() - r->open_t0;
        long long delta[PMPI_MAX_EVENTS] = {0};
        r->wall_ns += wall;
        for (int e = 0; e < pmpi_ev()->nevents; e++) {
            delta[e] = now[e] - r->open_counts[e];
            r->counts[e] += delta[e];
        }
        if (pmpi_log_on() && pmpi_ev()->nmetrics > 0) { /* this entry's metrics, for a trace */
            double v[PMPI_MAX_METRICS];
            int ok[PMPI_MAX_METRICS];
            char why[PMPI_MAX_METRICS][160];
            pmpi_counters_metrics(delta, (double)wall * 1e-9, v, ok, why, sizeof why[0]);
            pmpi_log_region_metrics(slot, v, ok, pmpi_ev()->nmetrics);
        }
        long long busy = mpi_totals(now_calls, now_ticks);
        r->mpi_ticks += busy > r->open_mpi_ticks ? busy - r->open_mpi_ticks : 0;
        add_calls(r, open_calls[slot], open_ticks[slot]);
        pmpi_gpu_region_end(r); /* after the counters: its flush outside the region */
        pmpi_log_region(slot, 0);
        pmpi_sample_region(slot, 0);
        tell_context(slot, 0);
    }
    pthread_mutex_unlock(&pmpi_state_lock);
}
