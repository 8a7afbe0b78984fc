/* eventset_events.c: adding and removing events. Adding opens, through the set's
 * component, only the native events the new entry needs (natives shared with entries already in the set are reused);
 * a failure leaves the set exactly as it was. */
#include <stdlib.h>
#include <string.h>

#include "component_registry.h"
#include "eventset_events.h"
#include "events.h"
#include "eventset_handles.h"
#include "call_guard.h"
#include "preset_tables.h"

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
        return PRESET_COMPONENT;
    return event_component_of(code) ? cmp_of_code(code) : -1;
}

/* Drop native ni from the arrays (its component slot is removed), keeping indices dense
 * as the component's slots are. */
static void compact_native(struct eventset *es, int ni)
{
    for (int i = ni; i < es->nnat - 1; i++) {
        es->nat[i] = es->nat[i + 1];
        es->cnt[i] = es->cnt[i + 1];
        es->base[i] = es->base[i + 1];
    }
    es->nnat--;
    for (int e = 0; e < es->nentries; e++)
        for (int t = 0; t < es->ent[e].nterms; t++)
            if (es->ent[e].term[t] > ni)
                es->ent[e].term[t]--;
}

void es_update_plain(struct eventset *es)
{
    int direct = es->nentries == es->nnat;
    for (int e = 0; e < es->nentries && direct; e++)
        direct = !es->ent[e].derived && es->ent[e].term[0] == e;
    es->direct = direct;
    es->plain = direct && !es->multiplexed && es->cmp && es->cmp->read_values;
}

/* Capacity for want elements: doubling from 4. */
static int next_cap(int cap, int want)
{
    int n = cap ? cap : 4;
    while (n < want)
        n *= 2;
    return n;
}

static int grow(void **arr, int n, size_t size)
{
    void *p = realloc(*arr, (size_t)n * size);
    if (!p)
        return -1;
    *arr = p;
    return 0;
}

int es_reserve(struct eventset *es, int nentries, int nnat)
{
    int want_e = es->nentries + nentries, want_n = es->nnat + nnat;
    if (want_e > es->cap_entries) {
        int n = next_cap(es->cap_entries, want_e);
        if (grow((void **)&es->ent, n, sizeof *es->ent))
            goto fail;
        es->cap_entries = n;
    }
    if (want_n > es->cap_natives) {
        /* The per-native arrays grow together; one that grew before a failure stays
         * larger than cap_natives says, which is harmless. */
        int n = next_cap(es->cap_natives, want_n);
        if (grow((void **)&es->nat, n, sizeof *es->nat) ||
            grow((void **)&es->cnt, n, sizeof *es->cnt) ||
            grow((void **)&es->base, n, sizeof *es->base))
            goto fail;
        es->cap_natives = n;
    }
    return PAPI_OK;
fail:
    return papi_error(PAPI_ENOMEM, "no memory for %d more events in EventSet %d", nentries,
                      es->handle);
}

void es_free_arrays(struct eventset *es)
{
    free(es->ent);
    free(es->nat);
    free(es->cnt);
    free(es->base);
    es->ent = NULL;
    es->nat = NULL;
    es->cnt = NULL;
    es->base = NULL;
}

static struct cmp_target target_of(const struct eventset *es)
{
    struct cmp_target t = {
        .domain = es->domain,
        .granularity = es->granularity,
        .tid = (es->state & PAPI_ATTACHED) ? es->attach_tid : 0,
        .cpu = es->cpu,
        .inherit = es->inherit,
        .multiplex = es->multiplexed,
    };
    return t;
}

/* The component context of the set, created with the set's first event. */
static int ensure_context(struct eventset *es, int cidx)
{
    if (es->ctx)
        return PAPI_OK;
    struct papi_component *cmp = component_get(cidx);
    if (!cmp)
        return PAPI_ENOCMP;
    struct cmp_target t = target_of(es);
    int ret = cmp->ctx_create(cmp, &t, &es->ctx);
    if (ret == PAPI_OK)
        es->cmp = cmp;
    return ret;
}

/* Open native i (already in nat[]) into the context's next slot. */
static int open_native(struct eventset *es, int i)
{
    int slot;
    int ret = es->cmp->add(es->ctx, cmp_local(es->nat[i].code), &slot);
    if (ret != PAPI_OK)
        return ret;
    if (slot != i) {
        es->cmp->remove(es->ctx, slot);
        return papi_error(PAPI_EBUG, "component %s put native %d in slot %d", es->cmp->name, i,
                          slot);
    }
    memset(&es->cnt[i], 0, sizeof es->cnt[i]);
    if (es->nat[i].period && es->cmp->set_overflow)
        ret = es->cmp->set_overflow(es->ctx, i, es->nat[i].period);
    return ret;
}

void es_close_all(struct eventset *es)
{
    /* First: no read may start on the context about to go (the general path says so). */
    __atomic_store_n(&es->reader, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&es->fast_read, NULL, __ATOMIC_RELEASE);
    if (es->cmp)
        es->cmp->ctx_destroy(es->ctx);
    es->ctx = NULL;
}

int es_reopen_all(struct eventset *es)
{
    es_close_all(es);
    if (es->nnat == 0)
        return PAPI_OK;
    int ret = ensure_context(es, es->cidx);
    for (int i = 0; i < es->nnat && ret == PAPI_OK; i++) {
        es->base[i] = 0;
        es->nat[i].enabled_base = es->nat[i].running_base = 0;
        ret = open_native(es, i);
    }
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
    for (int k = 0; k < nterms; k++) {
        int ni = order[k];
        if (k > 0 && order[k] == order[k - 1])
            continue;
        if (--es->nat[ni].refs > 0)
            continue;
        if (ni < es->nnat && es->ctx)
            es->cmp->remove(es->ctx, ni);
        compact_native(es, ni);
    }
    es_update_plain(es);
    if (es->nnat == 0)
        es_close_all(es);
}

int es_add_code(struct eventset *es, int code)
{
    const struct preset_def *def = NULL;
    int codes[PRESET_MAX_TERMS], nterms;

    if (es_entry_index(es, code) >= 0)
        return papi_error(PAPI_ECNFLCT, "event 0x%x is already in EventSet %d", (unsigned)code,
                          es->handle);
    if (es->nentries >= ES_MAX_ENTRIES)
        return papi_error(PAPI_ECOUNT, "EventSet %d is full (%d events)", es->handle,
                          ES_MAX_ENTRIES);
    if (IS_PRESET(code)) {
        def = preset_lookup(code);
        if (!def) {
            char name[PAPI_MAX_STR_LEN] = "?";
            preset_code_to_name(code, name, sizeof name);
            return preset_unavailable_error(code, name);
        }
        nterms = def->nterms;
        memcpy(codes, def->native_code, sizeof(int) * (size_t)nterms);
    } else if (event_native_exists(code)) {
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

    int ret = es_reserve(es, 1, new_natives);
    if (ret != PAPI_OK)
        return ret;
    int saved_cidx = es->cidx;
    ret = ensure_context(es, cidx);
    if (ret != PAPI_OK)
        return ret;
    es->cidx = cidx;
    struct es_entry *ent = &es->ent[es->nentries];
    memset(ent, 0, sizeof *ent);
    ent->code = code;
    ent->preset = def;
    ent->derived = def && def->op != DERIVE_NONE;
    int opened = 0;
    for (int t = 0; t < nterms; t++) {
        int ni = find_native(es, codes[t]);
        if (ni < 0) {
            ni = es->nnat;
            memset(&es->nat[ni], 0, sizeof es->nat[ni]);
            es->base[ni] = 0;
            es->nat[ni].code = codes[t];
            ret = open_native(es, ni);
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
    es_update_plain(es);
    return PAPI_OK;
}

int es_remove_code(struct eventset *es, int code)
{
    int e = es_entry_index(es, code);
    if (e < 0)
        return papi_error(PAPI_EINVAL, "event 0x%x is not in EventSet %d", (unsigned)code,
                          es->handle);
    struct es_entry ent = es->ent[e];
    for (int i = e; i < es->nentries - 1; i++)
        es->ent[i] = es->ent[i + 1];
    es->nentries--;
    release_natives(es, ent.term, ent.nterms);
    if (es->nentries == 0)
        es->cidx = -1;
    return PAPI_OK;
}

/* Adding is allowed with overflow or profiling armed, as in PAPI 7 (PAPI's ctest
 * overflow_twoevents adds and arms events interleaved): the new entry goes after the
 * armed ones, whose positions and natives do not move. Removing would move them. */
static int check_modifiable_for(int EventSet, struct eventset **es, int adding)
{
    int ret = es_get(EventSet, es);
    if (ret != PAPI_OK)
        return ret;
    if ((*es)->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it before changing its events",
                          EventSet);
    if (!adding && ((*es)->overflow || (*es)->profile))
        return papi_error(PAPI_EINVAL,
                          "EventSet %d has overflow or profiling enabled: turn it off first",
                          EventSet);
    return PAPI_OK;
}

/* The event set checked for adding (or removing), then that of the event (by its code, or
 * by its name when named: resolved once the set is known good, so a bad set is told
 * first): PAPI_add_event, PAPI_remove_event and their named forms. */
static int one_event(int EventSet, int adding, int code, const char *name, int named)
{
    struct eventset *es;
    int ret = check_modifiable_for(EventSet, &es, adding);
    if (ret == PAPI_OK && named)
        ret = PAPI_event_name_to_code(name, &code);
    if (ret != PAPI_OK)
        return ret;
    return adding ? es_add_code(es, code) : es_remove_code(es, code);
}

int PAPI_add_event(int EventSet, int EventCode)
{
    PAPI_CALL_GUARD();
    return one_event(EventSet, 1, EventCode, NULL, 0);
}

int PAPI_remove_event(int EventSet, int EventCode)
{
    PAPI_CALL_GUARD();
    return one_event(EventSet, 0, EventCode, NULL, 0);
}

/* The documented partial-success return of PAPI_add_events and PAPI_remove_events: each
 * event in turn added (or removed); a positive value is the number of events that were
 * before the one that failed; errors are negative. */
static int each_event(int EventSet, const int *Events, int number, int adding)
{
    struct eventset *es;
    int ret = check_modifiable_for(EventSet, &es, adding);
    if (ret != PAPI_OK)
        return ret;
    if (!Events || number <= 0)
        return papi_error(PAPI_EINVAL, "Events is NULL or number (%d) is not positive", number);
    for (int i = 0; i < number; i++) {
        ret = adding ? es_add_code(es, Events[i]) : es_remove_code(es, Events[i]);
        if (ret != PAPI_OK)
            return i > 0 ? i : ret;
    }
    return PAPI_OK;
}

int PAPI_add_events(int EventSet, int *Events, int number)
{
    PAPI_CALL_GUARD();
    return each_event(EventSet, Events, number, 1);
}

int PAPI_remove_events(int EventSet, int *Events, int number)
{
    PAPI_CALL_GUARD();
    return each_event(EventSet, Events, number, 0);
}

int PAPI_add_named_event(int EventSet, const char *EventName)
{
    PAPI_CALL_GUARD();
    return one_event(EventSet, 1, 0, EventName, 1);
}

int PAPI_remove_named_event(int EventSet, const char *EventName)
{
    PAPI_CALL_GUARD();
    return one_event(EventSet, 0, 0, EventName, 1);
}
