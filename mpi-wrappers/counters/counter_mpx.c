/* counter_mpx.c: multiplexing of the rank's counters. A named metric (PAPI_MPI_METRICS)
 * whose events do not fit in one counting group beside the others is not dropped: the
 * rank's event sets become multiplexed (the kernel rotates the events on the counters
 * and each count is scaled to the time it ran); PAPI_MULTIPLEX asks for the same. Rank 0
 * says so once on stderr and every row carries "multiplexed" with the reason. Each
 * metric of a row carries the running fraction of its events: the least, over the
 * rank's threads, of PAPI_get_event_running_fraction since the set started (1.0 when
 * not multiplexed). Socket-wide events (socket_counters.c) are never multiplexed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "papi.h"
#include "papi_metrics.h"
#include "counter_mpx.h"
#include "run_events.h"
#include "state.h"

static int on;
static char note[PAPI_HUGE_STR_LEN + PMPI_NAME_LEN * 2];
static double retired_frac[PMPI_MAX_EVENTS]; /* least fraction of the ended threads */
static double row_frac[PMPI_MAX_EVENTS];     /* the row being read: ended and live */

void pmpi_mpx_init(void)
{
    for (int e = 0; e < PMPI_MAX_EVENTS; e++)
        retired_frac[e] = row_frac[e] = 1.0;
    const char *env = env_get("PAPI_MULTIPLEX");
    if (env) {
        on = 1;
        snprintf(note, sizeof note, "PAPI_MULTIPLEX: the rank's event sets are multiplexed");
    }
}

int pmpi_mpx_on(void)
{
    return on;
}

const char *pmpi_mpx_note(void)
{
    return on ? note : NULL;
}

void pmpi_mpx_force(const char *event, const char *why)
{
    on = 2;
    snprintf(note, sizeof note,
             "PAPI_MPI_METRICS: %s does not fit in one counting group with the other events "
             "(%s): the rank's event sets are multiplexed and each metric carries the running "
             "fraction of its events",
             event, why);
}

void pmpi_mpx_unforce(void)
{
    if (on == 2)
        on = 0;
}

int pmpi_mpx_make(int es)
{
    if (!on)
        return PAPI_OK;
    int ret = PAPI_multiplex_init();
    if (ret == PAPI_OK && PAPI_get_eventset_component(es) < 0)
        ret = PAPI_assign_eventset_component(es, 0);
    if (ret == PAPI_OK)
        ret = PAPI_set_multiplex(es);
    return ret;
}

void pmpi_mpx_row_begin(void)
{
    memcpy(row_frac, retired_frac, sizeof row_frac);
}

void pmpi_mpx_fold(int es, const int *idx, int n, int retire)
{
    double f[PMPI_MAX_EVENTS];
    int got = n < PMPI_MAX_EVENTS ? n : PMPI_MAX_EVENTS;
    if (!on || got < 1 || PAPI_get_event_running_fraction(es, f, &got) != PAPI_OK)
        return;
    double *into = retire ? retired_frac : row_frac;
    for (int i = 0; i < got; i++)
        if (f[i] < into[idx[i]])
            into[idx[i]] = f[i];
}

void pmpi_mpx_metric_fractions(double *out)
{
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        PAPIM_metric_info_t m;
        out[k] = 1.0;
        if (!on || PAPIM_query_metric(pmpi_ev()->metric_names[k], &m) != PAPI_OK)
            continue;
        for (int i = 0; i < m.num_events; i++)
            for (int e = 0; e < pmpi_ev()->nevents; e++)
                if (strcmp(m.event_names[i], pmpi_ev()->event_names[e]) == 0 &&
                    row_frac[e] < out[k])
                    out[k] = row_frac[e];
    }
}
