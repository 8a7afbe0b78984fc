/* hl_switches.c: two switches of PAPI 7's region API, read from the environment as its
 * papi_hl.c reads them (set at all = on):
 *   PAPI_MULTIPLEX   the region event sets (and the probe set that chooses their events)
 *                    are multiplexed on the CPU component, so PAPI_EVENTS may name more
 *                    events than the PMU has counters; each is scaled to the time it ran.
 *                    When multiplexing cannot be had, the sets count without it and the
 *                    region API says why (once).
 *   PAPI_HL_VERBOSE  every notice of the region API is said, not only the first, and
 *                    what the switches turned on (read in hl_notice.c).
 *   PAPI_HL_THREAD_MULTIPLE  unset or 1 (the default): one record per thread. Any other
 *                    value (0): PAPI 7.0 then names every thread by the process id, so
 *                    the process keeps one record, one event set (opened by the thread
 *                    that begins the first region) and one region stack, whichever thread
 *                    marks the regions; meant for a master thread measuring node or
 *                    device counters while other threads work.
 * and the "=instant" / "=delta" suffix of a PAPI_EVENTS entry.
 * Kept apart from hl_regions.c, which only asks for its event sets here. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "hl_metrics_mpx.h"
#include "hl_notice.h"
#include "hl_switches.h"

/* Said once (a failure at each set under PAPI_HL_VERBOSE): on, or why not. */
static void say_multiplex(int ret)
{
    static atomic_int said;
    int first = !atomic_exchange(&said, 1);
    if (ret == PAPI_OK) {
        if (first && hl_verbose())
            hl_notice_once("PAPI_MULTIPLEX: the region event sets are multiplexed");
        return;
    }
    if (!first && !hl_verbose())
        return;
    char *msg = NULL;
    if (asprintf(&msg, "PAPI_MULTIPLEX: the region event sets are not multiplexed: %s",
                 papi_last_error_detail()) < 0)
        msg = NULL;
    hl_notice_once(msg ? msg : "PAPI_MULTIPLEX: the region event sets are not multiplexed");
    free(msg);
}

/* A new event set for the region API in *es, multiplexed when PAPI_MULTIPLEX asks or
 * PAPI_METRICS needs more events than fit (hl_metrics_mpx.c). Only the CPU component's
 * set: the other components' counters are not scheduled on the PMU (PAPI 7 multiplexes
 * the CPU component alone too). */
int hl_region_eventset(int *es, int cidx)
{
    int ret = PAPI_create_eventset(es);
    if (ret != PAPI_OK || cidx != 0 ||
        (env_get("PAPI_MULTIPLEX") == NULL && !hl_metrics_multiplexed()))
        return ret;
    int mpx = PAPI_multiplex_init();
    if (mpx == PAPI_OK)
        mpx = PAPI_assign_eventset_component(*es, 0);
    if (mpx == PAPI_OK)
        mpx = PAPI_set_multiplex(*es);
    say_multiplex(mpx);
    return PAPI_OK; /* without multiplexing the set still counts what fits */
}

/* Read once, as PAPI reads it at its first region: records already made keep their kind. */
int hl_thread_multiple(void)
{
    static atomic_int state; /* 0 not read yet, 1 per thread, 2 per process */
    int s = atomic_load_explicit(&state, memory_order_relaxed);
    if (__builtin_expect(s == 0, 0)) {
        const char *v = env_get("PAPI_HL_THREAD_MULTIPLE");
        s = v == NULL || atoi(v) == 1 ? 1 : 2; /* PAPI 7.0's test */
        atomic_store_explicit(&state, s, memory_order_relaxed);
    }
    return s == 1;
}

struct hlr_thread **hl_record_slot(struct hlr_thread **slot)
{
    static struct hlr_thread *process_record;
    return hl_thread_multiple() ? slot : &process_record;
}

/* Only a trailing suffix counts: "cpu::event=0x76,umask=0x1" keeps its fields. */
int hl_event_suffix(char *entry)
{
    static const char *const suffix[] = {"=delta", "=instant"};
    size_t len = strlen(entry);
    for (int k = 0; k < 2; k++) {
        size_t n = strlen(suffix[k]);
        if (len > n && strcmp(entry + len - n, suffix[k]) == 0) {
            entry[len - n] = '\0';
            return k;
        }
    }
    return -1;
}
