/* energy_events.c: the energy among the rank's events (energy_events.h). An event is
 * energy when its unit is one (PAPI_get_event_info); a socket-wide powercap sum is its
 * socket's, read by every rank of the socket (socket_counters.c), any other (a GPU's, a
 * powercap zone's) is its node's, read by each rank in its component's set. */
#include <string.h>

#include "component_counters.h"
#include "energy_events.h"
#include "papi.h"
#include "run_events.h"
#include "socket_counters.h"
#include "socket_layout.h"
#include "state.h"
#include "json_writer.h"

static enum pmpi_energy_scope scope[PMPI_MAX_EVENTS];
static double per_count[PMPI_MAX_EVENTS];

double pmpi_energy_unit_joules(const char *unit)
{
    static const struct {
        const char *unit;
        double joules;
    } units[] = {{"J", 1.0}, {"mJ", 1e-3}, {"uJ", 1e-6}, {"nJ", 1e-9}};
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].unit) == 0)
            return units[i].joules;
    return 0.0;
}

void pmpi_energy_events_init(void)
{
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        PAPI_event_info_t info;
        int code = 0;
        scope[e] = PMPI_ENERGY_NONE;
        per_count[e] = 0.0;
        if (PAPI_event_name_to_code(pmpi_ev()->event_counted[e], &code) != PAPI_OK ||
            PAPI_get_event_info(code, &info) != PAPI_OK)
            continue;
        per_count[e] = pmpi_energy_unit_joules(info.units);
        if (per_count[e] > 0)
            scope[e] = pmpi_socket_wide_event(pmpi_ev()->event_names[e]) ? PMPI_ENERGY_SOCKET
                       : pmpi_component_event(e)                         ? PMPI_ENERGY_NODE
                                                                         : PMPI_ENERGY_NONE;
    }
}

enum pmpi_energy_scope pmpi_energy_scope(int e)
{
    return e >= 0 && e < pmpi_ev()->nevents ? scope[e] : PMPI_ENERGY_NONE;
}

double pmpi_energy_joules_per_count(int e)
{
    return pmpi_energy_scope(e) != PMPI_ENERGY_NONE ? per_count[e] : 0.0;
}

int pmpi_energy_counted(int e)
{
    switch (pmpi_energy_scope(e)) {
    case PMPI_ENERGY_SOCKET:
        return pmpi_socket_counters_open(e);
    case PMPI_ENERGY_NODE:
        return pmpi_component_counting(e);
    default:
        return 0;
    }
}

void pmpi_energy_region_read(long long *counts)
{
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        if (scope[e] == PMPI_ENERGY_SOCKET) {
            pmpi_socket_counters_read(counts); /* adds the socket set's events, once */
            return;
        }
}

/* The ranks a figure of scope s is shared by: the socket's, the node's; 1 when the
 * node's ranks were not laid out (each rank then reads for itself). */
static int shared_by(enum pmpi_energy_scope s)
{
    const struct pmpi_socket_share *sh = pmpi_socket();
    int n = s == PMPI_ENERGY_SOCKET ? (sh ? sh->shared_by : 0) : pmpi_node_ranks();
    return n > 0 ? n : 1;
}

void pmpi_energy_region_json(struct jw *w, const long long *counts, long long wall_ns)
{
    int first = 1;
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        if (!pmpi_energy_counted(e))
            continue;
        if (first)
            jw_obj_begin(w, "energy");
        first = 0;
        double joules = (double)counts[e] * per_count[e];
        jw_obj_begin(w, pmpi_ev()->event_names[e]);
        jw_digits(w, "joules", joules, 9);
        if (wall_ns > 0)
            jw_digits(w, "watts", joules / ((double)wall_ns * 1e-9), 9);
        else
            jw_null(w, "watts");
        jw_int(w, "shared_by", shared_by(scope[e]));
        jw_str(w, "scope", scope[e] == PMPI_ENERGY_SOCKET ? "socket" : "node");
        jw_obj_end(w);
    }
    if (!first)
        jw_obj_end(w);
}
