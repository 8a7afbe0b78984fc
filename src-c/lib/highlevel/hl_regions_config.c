/* hl_regions_config.c: which events the region API counts, chosen once per process at
 * the first region (hl_regions.c calls in under g_hlr_lock and stores what is returned:
 * nothing here writes a global): PAPI_EVENTS' entries (any mix of components: each opens
 * in a probe set of its own component, as the threads' sets will be made, one per
 * component), else the default list, else the software fallback; PAPI_METRICS' events
 * beside them. Every entry not counted is kept with its reason (the report's
 * skipped_events) and said in one short notice. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "default_events.h"
#include "env.h"
#include "hl_metrics_mpx.h"
#include "hl_notice.h"
#include "hl_regions_config.h"
#include "hl_switches.h"
#include "str_append.h"

/* Every entry not counted is kept whole with its reason (no fixed-size list to cut). */
static void add_skipped(struct hlr_config *c, const char *name, const char *why)
{
    struct hlr_skipped *n = realloc(c->skipped, (size_t)(c->nskipped + 1) * sizeof *n);
    if (!n)
        return;
    c->skipped = n;
    n[c->nskipped].name = strdup(name);
    n[c->nskipped].why = strdup(why);
    if (n[c->nskipped].name && n[c->nskipped].why)
        c->nskipped++;
}

static void component_name(int code, char *out, size_t len)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
    papi_strcpy(out, len, c ? c->name : "perf_event");
}

/* Event code's unit into units[len] (PAPI_get_event_info's, as papi_native_avail lists
 * it; "" for a plain count) and its scope in the file (region.schema.json): "device"
 * when its component counts system-wide only (PAPI_GRN_SYS: a GPU, the node's counters,
 * a socket's energy, the uncore: the same value whichever thread reads it), else
 * "thread". (papi_run's run_report.c says the same of its events.) */
static const char *event_meta(int code, char *units, size_t len)
{
    PAPI_event_info_t info;
    units[0] = '\0';
    if (PAPI_get_event_info(code, &info) == PAPI_OK)
        papi_strcpy(units, len, info.units);
    const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
    return c && c->available_granularities == PAPI_GRN_SYS ? "device" : "thread";
}

/* Whether event code reads an absolute value (a temperature, a power, a GPU metric's
 * maximum or ratio: PAPI_VALUETYPE_ABSOLUTE), whose value at a region's end is the
 * region's, not a difference (PAPI 7 takes a difference unless the entry says =instant). */
static bool absolute_value(int code)
{
    PAPI_event_info_t info;
    return PAPI_get_event_info(code, &info) == PAPI_OK &&
           info.value_type == PAPI_VALUETYPE_ABSOLUTE;
}

/* One choice of the events: the configuration it fills, the probe sets that choose the
 * events (one per component, as the threads' sets) and the notice it says once the
 * choice stands. */
struct probes {
    struct hlr_config *c;
    int n;
    int cidx[HLR_MAX_SETS], es[HLR_MAX_SETS];
    char *pending_notice;
};

/* The probe set of component cidx, created at its first event; PAPI_NULL with the error
 * in *ret when it cannot be. */
static int probe_of(struct probes *p, int cidx, int *ret)
{
    for (int k = 0; k < p->n; k++)
        if (p->cidx[k] == cidx)
            return p->es[k];
    if (p->n == HLR_MAX_SETS) {
        *ret = papi_error(PAPI_ECOUNT, "events of more than %d components", HLR_MAX_SETS);
        return PAPI_NULL;
    }
    int es = PAPI_NULL;
    if ((*ret = hl_region_eventset(&es, cidx)) != PAPI_OK)
        return PAPI_NULL;
    p->cidx[p->n] = cidx;
    p->es[p->n++] = es;
    return es;
}

static void probes_empty(struct probes *p)
{
    for (int k = 0; k < p->n; k++)
        PAPI_cleanup_eventset(p->es[k]);
}

static void probes_free(struct probes *p)
{
    for (int k = 0; k < p->n; k++) {
        PAPI_cleanup_eventset(p->es[k]);
        PAPI_destroy_eventset(&p->es[k]);
    }
    p->n = 0;
}

/* The CPU component's probe (where PAPI_METRICS multiplexes), PAPI_NULL when none. */
static int cpu_probe(struct probes *p)
{
    for (int k = 0; k < p->n; k++)
        if (p->cidx[k] == 0)
            return p->es[k];
    return PAPI_NULL;
}

/* Keep name in the configuration if it opens in its component's probe set; else note
 * why not. */
static void try_event(struct probes *pr, const char *name, int quiet, int may_multiplex)
{
    struct hlr_config *c = pr->c;
    int code = 0, ret, probe = PAPI_NULL, cidx = 0;
    if (c->nevents >= HLR_MAX_EVENTS) {
        add_skipped(c, name, "more than 16 events");
        return;
    }
    if (strlen(name) >= sizeof c->name[0]) {
        add_skipped(c, name, "the event name is longer than 127 characters");
        return;
    }
    ret = PAPI_event_name_to_code(name, &code);
    if (ret != PAPI_OK)
        code = 0;
    if (ret == PAPI_OK && (cidx = PAPI_get_event_component(code)) < 0)
        ret = cidx;
    for (int k = 0; ret == PAPI_OK && k < c->nevents; k++)
        if (c->code[k] == code) { /* the set would refuse it (PAPI_ECNFLCT): say why */
            if (!quiet)
                add_skipped(c, name, "listed twice: counted once, as the earlier entry");
            return;
        }
    if (ret == PAPI_OK)
        probe = probe_of(pr, cidx, &ret);
    if (ret == PAPI_OK)
        ret = PAPI_add_event(probe, code);
    if (ret == PAPI_ECNFLCT && may_multiplex && cidx == 0 &&
        hl_metrics_multiplex(probe, name, papi_last_error_detail()) == PAPI_OK)
        ret = PAPI_add_event(probe, code); /* PAPI_METRICS: multiplexed, not dropped */
    if (ret == PAPI_OK) {
        c->code[c->nevents] = code;
        c->cidx[c->nevents] = cidx;
        papi_strcpy(c->name[c->nevents], sizeof c->name[0], name);
        component_name(code, c->component[c->nevents], sizeof c->component[0]);
        c->scope[c->nevents] = event_meta(code, c->units[c->nevents], sizeof c->units[0]);
        c->nevents++;
        return;
    }
    if (quiet)
        return;
    /* The name is unknown (code 0): the hardware is not the reason. */
    char *why = code == 0 ? strdup(papi_last_error_detail()) : hl_missing_reason(code);
    add_skipped(c, name, why ? why : "not counted (no memory to say why)");
    free(why);
}

/* configure's one-line notice, printed only once the choice stands (a PAPI_shutdown in
 * another thread makes every probe fail: that is no diagnosis of the machine). */
static void notice_later(struct probes *probe, const char *msg)
{
    if (!probe->pending_notice)
        probe->pending_notice = strdup(msg);
}

/* The notice names this many entries and quotes this much of the first one's reason
 * (a reason with a recorded tree's path can be kilobytes long). */
#define NOTICE_NAMES 8
#define NOTICE_WHY   120

/* The events PAPI_EVENTS lists (comma-separated, spaces around names ignored). */
static void configure_from_env(struct probes *probe, const char *env)
{
    struct hlr_config *c = probe->c;
    c->source = "PAPI_EVENTS";
    char *list = strdup(env); /* the whole list, however long */
    if (!list) {
        str_setf(&c->note, "no memory to read PAPI_EVENTS: no event counted");
        notice_later(probe,
                     "PAPI_hl_region_begin: no memory to read PAPI_EVENTS: no event counted");
        return;
    }
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        int instant = hl_event_suffix(tok), before = c->nevents;
        if (*tok)
            try_event(probe, tok, 0, 0);
        if (c->nevents > before) /* no suffix: the event's kind (a value, or a count) */
            c->instant[before] = instant >= 0 ? instant : absolute_value(c->code[before]);
    }
    free(list);
    if (c->nskipped) { /* one short line; the report's note has every reason whole */
        char *msg = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&msg, &len);
        if (f) {
            fprintf(f, "PAPI_hl_region_begin: PAPI_EVENTS entries not counted (%d): ", c->nskipped);
            for (int i = 0; i < c->nskipped && i < NOTICE_NAMES; i++)
                fprintf(f, "%s%s", i ? ", " : "", c->skipped[i].name);
            if (c->nskipped > NOTICE_NAMES)
                fprintf(f, ", ...");
            const char *why = c->skipped[0].why ? c->skipped[0].why : "";
            const char *end = strstr(why, ". "); /* its first sentence */
            int n = end ? (int)(end - why) : (int)strlen(why);
            fprintf(f, " (%s%.*s%s); the whole reasons: the region report's note",
                    c->nskipped > 1 ? "the first: " : "", n > NOTICE_WHY ? NOTICE_WHY : n, why,
                    n > NOTICE_WHY ? " [...]" : "");
            if (fclose(f) != 0) {
                free(msg);
                msg = NULL;
            }
        }
        notice_later(probe,
                     msg ? msg : "PAPI_hl_region_begin: some PAPI_EVENTS entries are not counted");
        free(msg);
    }
}

/* A metric's event already counted: a PAPI_EVENTS entry may name it otherwise
 * (cuda:::sm__cycles_active.sum:device=0 for a formula's cuda:::sm__cycles_active.sum),
 * and adding it again would fail; metric_plan_make finds it by its code. */
static int counted(const struct hlr_config *c, const char *name)
{
    int code = 0;
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK)
        code = 0;
    for (int i = 0; i < c->nevents; i++)
        if (strcmp(c->name[i], name) == 0 || (code && c->code[i] == code))
            return 1;
    return 0;
}

/* A metric already planned (a group and a name may both bring it). */
static int metric_configured(const struct hlr_config *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metric[k].name, name) == 0)
            return 1;
    return 0;
}

/* One metric of PAPI_METRICS: its events added to the process's, its formula planned
 * over them; a metric that cannot be computed here is skipped with the reason. */
static void configure_metric(struct probes *probe, const char *name)
{
    struct hlr_config *c = probe->c;
    PAPIM_metric_info_t info;
    char why[PAPI_HUGE_STR_LEN + 64];
    memset(&info, 0, sizeof info);
    if (c->nmetrics == HLR_MAX_METRICS) {
        add_skipped(c, name, "more than 8 metrics");
        return;
    }
    if (PAPIM_query_metric(name, &info) != PAPI_OK || !info.countable) {
        snprintf(why, sizeof why, "metric: %s",
                 info.reason[0] ? info.reason : papi_last_error_detail());
        add_skipped(c, name, why);
        return;
    }
    for (int i = 0; i < info.num_events; i++)
        if (!counted(c, info.event_names[i]))
            try_event(probe, info.event_names[i], 0, 1);
    if (metric_plan_make(name, c->nevents, (const char(*)[PAPI_MAX_STR_LEN])c->name,
                         &c->metric[c->nmetrics]) != PAPI_OK) {
        snprintf(why, sizeof why, "metric: %s", papi_last_error_detail());
        add_skipped(c, name, why);
        return;
    }
    c->nmetrics++;
}

/* One entry of PAPI_METRICS (a metric or a group) configured; an unknown one is skipped
 * with the reason, the others are still computed. */
static void configure_metric_entry(struct probes *probe, const char *entry)
{
    struct hlr_config *c = probe->c;
    char names[HLR_MAX_METRICS * 2][PAPI_MIN_STR_LEN];
    int n = 0;
    if (PAPIM_expand(entry, names, HLR_MAX_METRICS * 2, &n) != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN + 64];
        snprintf(why, sizeof why, "PAPI_METRICS: %s", papi_last_error_detail());
        add_skipped(c, entry, why);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!metric_configured(c, names[i]))
            configure_metric(probe, names[i]);
}

/* PAPI_METRICS: metric and group names (papi_metrics(3)), beside the events. */
static void configure_metrics(struct probes *probe, const char *env)
{
    struct hlr_config *c = probe->c;
    int skipped = c->nskipped;
    char entry[PAPI_MIN_STR_LEN];
    for (const char *p = env; *p;) {
        size_t len = strcspn(p, ", \t");
        if (len > 0) {
            snprintf(entry, sizeof entry, "%.*s",
                     (int)(len < sizeof entry ? len : sizeof entry - 1), p);
            configure_metric_entry(probe, entry);
        }
        p += len;
        p += strspn(p, ", \t");
    }
    if (c->nskipped > skipped)
        notice_later(probe, "PAPI_hl_region_begin: some PAPI_METRICS metrics are not computed (the "
                            "region report's skipped_events says why)");
}

/* No hardware counts here: software events instead of failing (or none at all). */
static void configure_fallback(struct probes *probe)
{
    struct hlr_config *c = probe->c;
    char *why = hl_missing_reason(PAPI_TOT_CYC);
    probes_empty(probe);
    c->nevents = 0;
    for (int i = 0; i < DEFAULT_SOFTWARE_N; i++)
        try_event(probe, default_software_events[i], 0, 0);
    c->source = "fallback";
    if (c->nevents > 0) {
        str_setf(&c->note,
                 "no PAPI_EVENTS and none of PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS "
                 "counts here (%s); counting software events perf::TASK-CLOCK and "
                 "perf::PAGE-FAULTS",
                 why ? why : "no memory to say why");
    } else { /* seccomp, perf_event_paranoid 3: not even software events */
        str_setf(&c->note,
                 "no event counts here, software events neither (%s); the regions "
                 "record real time only",
                 why ? why : "no memory to say why");
        char *msg = NULL; /* the whole reason, whatever its length */
        if (c->note && asprintf(&msg, "PAPI_hl_region_begin: %s", c->note) < 0)
            msg = NULL;
        notice_later(probe, msg ? msg : "PAPI_hl_region_begin: no event counts here");
        free(msg);
    }
    free(why);
}

/* The default events; the fallback when none of the hardware ones counts. */
static void configure_default(struct probes *probe)
{
    struct hlr_config *c = probe->c;
    int hardware = 0;
    try_event(probe, DEFAULT_CPU_TIME_EVENT, 1, 0);
    for (int i = 0; i < DEFAULT_HARDWARE_N; i++) {
        int before = c->nevents;
        try_event(probe, default_hardware_events[i], 1, 0);
        hardware += c->nevents > before;
    }
    c->source = "default";
    if (!hardware)
        configure_fallback(probe);
}

void hlr_config_free(struct hlr_config *c)
{
    for (int i = 0; i < c->nskipped; i++) {
        free(c->skipped[i].name);
        free(c->skipped[i].why);
    }
    free(c->skipped);
    free(c->note);
    memset(c, 0, sizeof *c);
}

/* The events grouped by component: c->set in order of first appearance. */
static void group_sets(struct hlr_config *c)
{
    c->nsets = 0;
    for (int i = 0; i < c->nevents; i++) {
        int k = 0;
        while (k < c->nsets && c->set[k].cidx != c->cidx[i])
            k++;
        if (k == c->nsets) { /* configure kept at most HLR_MAX_SETS components */
            c->set[k].cidx = c->cidx[i];
            c->set[k].n = 0;
            c->nsets++;
        }
        c->set[k].idx[c->set[k].n++] = i;
    }
    c->direct = c->nsets == 1;
}

int hlr_configure(struct hlr_config *c)
{
    memset(c, 0, sizeof *c);
    struct probes probe = {.c = c};
    unsigned gen = atomic_load(&g_papi_generation);
    c->generation = gen;
    const char *env = env_get("PAPI_EVENTS");
    if (env && *env)
        configure_from_env(&probe, env);
    else
        configure_default(&probe);
    const char *metrics = env_get("PAPI_METRICS");
    if (metrics && *metrics) {
        configure_metrics(&probe, metrics);
        if (cpu_probe(&probe) != PAPI_NULL)
            hl_metrics_check_fit(cpu_probe(&probe));
    }
    probes_free(&probe);
    group_sets(c);
    if (atomic_load(&g_papi_generation) != gen || g_papi.init_state == PAPI_NOT_INITED) {
        free(probe.pending_notice);
        hlr_config_free(c);
        return papi_error(PAPI_ENOINIT, "PAPI_hl_region_begin: PAPI_shutdown in another thread "
                                        "while the region events were chosen");
    }
    if (probe.pending_notice)
        hl_notice_once(probe.pending_notice);
    free(probe.pending_notice);
    return PAPI_OK;
}

/* After PAPI_shutdown + PAPI_library_init the codes of the first generation mean
 * nothing: resolve the names again. */
int hlr_resolve_again(struct hlr_config *c)
{
    for (int i = 0; i < c->nevents; i++) {
        int ret = PAPI_event_name_to_code(c->name[i], &c->code[i]);
        if (ret == PAPI_ENOINIT) /* a PAPI_shutdown in another thread, not the event */
            return ret;
        if (ret != PAPI_OK)
            return papi_error(PAPI_ENOEVNT,
                              "PAPI_hl_region_begin: event %s is no longer known "
                              "after PAPI_library_init",
                              c->name[i]);
        c->cidx[i] = PAPI_get_event_component(c->code[i]);
    }
    group_sets(c);
    c->generation = atomic_load(&g_papi_generation);
    return PAPI_OK;
}

int hlr_set_start(const struct hlr_config *c, int k, int made, int es, int *out)
{
    const struct hlr_set *set = &c->set[k];
    int ret = made;
    for (int j = 0; ret == PAPI_OK && j < set->n; j++)
        ret = PAPI_add_event(es, c->code[set->idx[j]]);
    if (ret == PAPI_OK)
        ret = PAPI_start(es);
    if (ret != PAPI_OK && es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    *out = es;
    return ret;
}
