/* eventset_events.c: adding and removing events. Adding opens only the perf events
 * the new entry needs (natives shared with entries already in the set are reused);
 * a failure leaves the set exactly as it was. */
#include <string.h>

#include "papi_internal.h"

int es_entry_index(const struct eventset *es, int code)
{
    for (int i = 0; i < es->nentries; i++)
        if (es->ent[i].code == code)
            return i;
    return -1;
}

static int find_native(const struct eventset *es, int code)
{
    for (int i = 0; i < es->nnat; i++)
        if (es->nat[i].code == code)
            return i;
    return -1;
}

static int event_component(int code, const struct preset_def *def)
{
    if (def)
        return CMP_PERF_EVENT;
    struct native_event *e = native_lookup(code);
    return e ? e->component : -1;
}

/* Drop native ni from the arrays (it is closed), keeping indices dense. */
static void compact_native(struct eventset *es, int ni)
{
    for (int i = ni; i < es->nnat - 1; i++)
        es->nat[i] = es->nat[i + 1];
    es->nnat--;
    for (int e = 0; e < es->nentries; e++)
        for (int t = 0; t < es->ent[e].nterms; t++)
            if (es->ent[e].term[t] > ni)
                es->ent[e].term[t]--;
    for (int g = 0; g < es->ngrp; g++)
        if (es->grp[g].leader > ni)
            es->grp[g].leader--;
}

/* Open every native that has no descriptor (after a leader was closed or the set was
 * reconfigured), keeping each one's current value. */
static int open_missing(struct eventset *es)
{
    /* Groups that lost their leader are dropped; their members get new groups. */
    int ng = 0, remap[ES_MAX_GROUPS];
    for (int g = 0; g < es->ngrp; g++) {
        remap[g] = -1;
        if (es->grp[g].leader >= 0 && es->nat[es->grp[g].leader].fd >= 0) {
            remap[g] = ng;
            es->grp[ng++] = es->grp[g];
        }
    }
    for (int i = 0; i < es->nnat; i++)
        if (es->nat[i].fd >= 0)
            es->nat[i].group = remap[es->nat[i].group];
    es->ngrp = ng;
    for (int i = 0; i < es->nnat; i++) {
        struct es_native *n = &es->nat[i];
        if (n->fd >= 0)
            continue;
        uint64_t value = n->last_raw - n->baseline;
        int ret = perf_open_native(es, i);
        if (ret != PAPI_OK)
            return ret;
        n->baseline = (uint64_t)0 - value; /* reads as the value it had */
    }
    return PAPI_OK;
}

int es_reopen_all(struct eventset *es)
{
    for (int i = 0; i < es->nnat; i++) {
        int ret = native_encode(es->nat[i].code, es->domain, &es->nat[i].attr);
        if (ret != PAPI_OK)
            return ret;
    }
    es_close_all(es);
    for (int i = 0; i < es->nnat; i++) {
        es->nat[i].last_raw = es->nat[i].baseline = 0;
    }
    int ret = open_missing(es);
    if (ret != PAPI_OK)
        es_close_all(es);
    return ret;
}

static void release_natives(struct eventset *es, const int *terms, int nterms)
{
    /* Highest index first so compaction does not shift the ones still to release. */
    int order[PRESET_MAX_TERMS];
    memcpy(order, terms, sizeof(int) * (size_t)nterms);
    for (int a = 0; a < nterms; a++)
        for (int b = a + 1; b < nterms; b++)
            if (order[b] > order[a]) {
                int t = order[a];
                order[a] = order[b];
                order[b] = t;
            }
    int closed_leader = 0;
    for (int k = 0; k < nterms; k++) {
        int ni = order[k];
        if (k > 0 && order[k] == order[k - 1])
            continue;
        if (--es->nat[ni].refs > 0)
            continue;
        int g = es->nat[ni].group;
        if (es->nat[ni].fd >= 0 && g >= 0 && es->grp[g].leader == ni)
            closed_leader = 1;
        perf_close_native(es, ni);
        compact_native(es, ni);
    }
    if (closed_leader)
        open_missing(es);
}

int es_add_code(struct eventset *es, int code)
{
    const struct preset_def *def = NULL;
    int codes[PRESET_MAX_TERMS], nterms;

    if (es_entry_index(es, code) >= 0)
        return papi_error(PAPI_ECNFLCT, "event 0x%x is already in EventSet %d", (unsigned)code,
                          es->handle);
    if (es->nentries >= ES_MAX_ENTRIES)
        return papi_error(PAPI_ECOUNT, "EventSet %d is full (%d events)", es->handle, ES_MAX_ENTRIES);
    if (IS_PRESET(code)) {
        def = preset_lookup(code);
        if (!def) {
            char name[PAPI_MAX_STR_LEN] = "?";
            preset_code_to_name(code, name, sizeof name);
            return papi_error(PAPI_ENOEVNT, "preset %s is not available on this machine", name);
        }
        nterms = def->nterms;
        memcpy(codes, def->native_code, sizeof(int) * (size_t)nterms);
    } else if (IS_NATIVE(code) && native_lookup(code)) {
        nterms = 1;
        codes[0] = code;
    } else {
        return papi_error(PAPI_ENOEVNT, "0x%x is not a known event code", (unsigned)code);
    }
    int cidx = event_component(code, def);
    if (es->cidx >= 0 && cidx != es->cidx)
        return papi_error(PAPI_ECNFLCT,
                          "event 0x%x belongs to component %d, EventSet %d to component %d",
                          (unsigned)code, cidx, es->handle, es->cidx);
    int new_natives = 0;
    for (int t = 0; t < nterms; t++)
        if (find_native(es, codes[t]) < 0)
            new_natives++;
    if (es->nnat + new_natives > ES_MAX_NATIVES)
        return papi_error(PAPI_ECOUNT, "EventSet %d cannot hold more than %d native events",
                          es->handle, ES_MAX_NATIVES);

    int saved_cidx = es->cidx;
    es->cidx = cidx;
    struct es_entry *ent = &es->ent[es->nentries];
    memset(ent, 0, sizeof *ent);
    ent->code = code;
    ent->preset = def;
    int opened = 0, ret = PAPI_OK;
    for (int t = 0; t < nterms; t++) {
        int ni = find_native(es, codes[t]);
        if (ni < 0) {
            ni = es->nnat;
            struct es_native *n = &es->nat[ni];
            memset(n, 0, sizeof *n);
            n->code = codes[t];
            n->fd = -1;
            n->group = -1;
            ret = native_encode(codes[t], es->domain, &n->attr);
            if (ret == PAPI_OK)
                ret = perf_open_native(es, ni);
            if (ret != PAPI_OK)
                break;
            es->nnat++;
        }
        es->nat[ni].refs++;
        ent->term[t] = ni;
        opened++;
    }
    if (ret != PAPI_OK) {
        release_natives(es, ent->term, opened);
        es->cidx = saved_cidx;
        return ret;
    }
    ent->nterms = nterms;
    es->nentries++;
    return PAPI_OK;
}

int es_remove_code(struct eventset *es, int code)
{
    int e = es_entry_index(es, code);
    if (e < 0)
        return papi_error(PAPI_EINVAL, "event 0x%x is not in EventSet %d", (unsigned)code, es->handle);
    struct es_entry ent = es->ent[e];
    for (int i = e; i < es->nentries - 1; i++)
        es->ent[i] = es->ent[i + 1];
    es->nentries--;
    release_natives(es, ent.term, ent.nterms);
    if (es->nentries == 0)
        es->cidx = -1;
    return PAPI_OK;
}

static int check_modifiable(int EventSet, struct eventset **es)
{
    int ret = es_get(EventSet, es);
    if (ret != PAPI_OK)
        return ret;
    if ((*es)->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it before changing its events",
                          EventSet);
    if ((*es)->overflow || (*es)->profile)
        return papi_error(PAPI_EINVAL,
                          "EventSet %d has overflow or profiling enabled: turn it off first",
                          EventSet);
    return PAPI_OK;
}

int PAPI_add_event(int EventSet, int EventCode)
{
    struct eventset *es;
    int ret = check_modifiable(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    return es_add_code(es, EventCode);
}

int PAPI_remove_event(int EventSet, int EventCode)
{
    struct eventset *es;
    int ret = check_modifiable(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    return es_remove_code(es, EventCode);
}

/* The documented partial-success return: a positive value is the number of events
 * that were added (or removed) before the one that failed; errors are negative. */
int PAPI_add_events(int EventSet, int *Events, int number)
{
    struct eventset *es;
    int ret = check_modifiable(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!Events || number <= 0)
        return papi_error(PAPI_EINVAL, "Events is NULL or number (%d) is not positive", number);
    for (int i = 0; i < number; i++) {
        ret = es_add_code(es, Events[i]);
        if (ret != PAPI_OK)
            return i > 0 ? i : ret;
    }
    return PAPI_OK;
}

int PAPI_remove_events(int EventSet, int *Events, int number)
{
    struct eventset *es;
    int ret = check_modifiable(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!Events || number <= 0)
        return papi_error(PAPI_EINVAL, "Events is NULL or number (%d) is not positive", number);
    for (int i = 0; i < number; i++) {
        ret = es_remove_code(es, Events[i]);
        if (ret != PAPI_OK)
            return i > 0 ? i : ret;
    }
    return PAPI_OK;
}

int PAPI_add_named_event(int EventSet, const char *EventName)
{
    int code, ret;
    struct eventset *es;
    if ((ret = check_modifiable(EventSet, &es)) != PAPI_OK)
        return ret;
    if ((ret = PAPI_event_name_to_code(EventName, &code)) != PAPI_OK)
        return ret;
    return es_add_code(es, code);
}

int PAPI_remove_named_event(int EventSet, const char *EventName)
{
    int code, ret;
    struct eventset *es;
    if ((ret = check_modifiable(EventSet, &es)) != PAPI_OK)
        return ret;
    if ((ret = PAPI_event_name_to_code(EventName, &code)) != PAPI_OK)
        return ret;
    return es_remove_code(es, code);
}
