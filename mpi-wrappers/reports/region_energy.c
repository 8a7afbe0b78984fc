/* region_energy.c: each region's energy over the job. A rank's energy in a region is its
 * socket's (node device's) while it was inside: every rank of the socket sees the same
 * socket, so adding the ranks' values would count it once per rank. Each rank adds its
 * value divided by k, the ranks of its socket (node) that have the region and the event:
 * the socket is counted once (exactly when they were inside at the same time, their mean
 * otherwise). Three fixed-size reductions: the k's over the socket and node groups, then
 * the sums to rank 0. */
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "energy_events.h"
#include "idle_wait.h"
#include "region_energy.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "socket_layout.h"
#include "json_writer.h"

#define CELLS (PMPI_MAX_REGIONS * PMPI_MAX_EVENTS)

/* Rank 0's result: per region (names' order) and event, joules and the ranks that had it. */
static struct {
    int n;
    char name[PMPI_MAX_REGIONS][PMPI_NAME_LEN];
    double joules[CELLS], ranks[CELLS];
} job;

int pmpi_region_energy_any(void)
{
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (pmpi_energy_scope(e) != PMPI_ENERGY_NONE)
            return 1;
    return 0;
}

/* This rank's region called name in row, or NULL. */
static const struct pmpi_region *region_of(const struct pmpi_row *row, const char *name)
{
    for (int j = 0; j < row->nregions; j++)
        if (strcmp(row->regions[j].name, name) == 0)
            return &row->regions[j];
    return NULL;
}

void pmpi_region_energy_reduce(const struct pmpi_row *row, const char (*names)[PMPI_NAME_LEN],
                               int n, FILE *fp)
{
    static int have[CELLS], k_socket[CELLS], k_node[CELLS];
    static double in[2 * CELLS], out[2 * CELLS];
    int ne = pmpi_ev()->nevents;
    job.n = 0;
    if (!pmpi_region_energy_any() || n <= 0) /* the same on every rank: the events are the job's */
        return;
    if (n > PMPI_MAX_REGIONS)
        n = PMPI_MAX_REGIONS;
    if (!pmpi_socket_layout_tried()) /* a GPU's energy without PAPI_MPI_METRICS */
        pmpi_socket_layout(pmpi_id()->rank);
    for (int i = 0; i < n; i++) {
        const struct pmpi_region *r = row->counters_read ? region_of(row, names[i]) : NULL;
        for (int e = 0; e < ne; e++)
            have[i * ne + e] = r && r->entries > 0 && pmpi_energy_counted(e);
    }
    pmpi_layout_group_sum(0, have, k_socket, n * ne);
    pmpi_layout_group_sum(1, have, k_node, n * ne);
    for (int i = 0; i < n; i++) {
        const struct pmpi_region *r = region_of(row, names[i]);
        for (int e = 0; e < ne; e++) {
            int c = i * ne + e;
            int k = pmpi_energy_scope(e) == PMPI_ENERGY_SOCKET ? k_socket[c] : k_node[c];
            in[c] =
                have[c] && k > 0 ? (double)r->counts[e] * pmpi_energy_joules_per_count(e) / k : 0.0;
            in[CELLS + c] = have[c];
        }
    }
    MPI_Request req; /* as every step of the finalize sequence: wait without a core */
    pmpi_idle_complete(
        PMPI_Ireduce(in, out, 2 * CELLS, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &req), &req);
    if (pmpi_id()->rank != 0)
        return;
    job.n = n;
    for (int i = 0; i < n; i++) {
        snprintf(job.name[i], PMPI_NAME_LEN, "%s", names[i]);
        for (int e = 0; e < ne; e++) {
            job.joules[i * ne + e] = out[i * ne + e];
            job.ranks[i * ne + e] = out[CELLS + i * ne + e];
        }
    }
    fprintf(fp, "papi_mpi: energy per region (each socket, GPU or node device counted once):\n");
    for (int i = 0; i < n; i++) {
        fprintf(fp, "  %-24s", names[i]);
        for (int e = 0, first = 1; e < ne; e++) {
            if (pmpi_energy_scope(e) == PMPI_ENERGY_NONE)
                continue;
            fprintf(fp, "%s%s %.6g J", first ? " " : ", ", pmpi_ev()->event_names[e],
                    out[i * ne + e]);
            first = 0;
        }
        fputc('\n', fp);
    }
}

void pmpi_region_energy_head_json(struct jw *w)
{
    int ne = pmpi_ev()->nevents;
    if (job.n == 0)
        return;
    jw_break(w, "\n");
    jw_obj_begin(w, "region_energy");
    jw_str(w, "rule", PMPI_REGION_ENERGY_RULE);
    jw_obj_begin(w, "regions");
    for (int i = 0; i < job.n; i++) {
        jw_break(w, "\n  ");
        jw_obj_begin(w, job.name[i]);
        for (int e = 0; e < ne; e++) {
            if (pmpi_energy_scope(e) == PMPI_ENERGY_NONE)
                continue;
            jw_obj_begin(w, pmpi_ev()->event_names[e]);
            jw_digits(w, "joules", job.joules[i * ne + e], 9);
            jw_fixed(w, "ranks", job.ranks[i * ne + e], 0);
            jw_str(w, "scope", pmpi_energy_scope(e) == PMPI_ENERGY_SOCKET ? "socket" : "node");
            jw_obj_end(w);
        }
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_end(w);
}
