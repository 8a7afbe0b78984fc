/* hl_regions_config.c: which events the region API counts, chosen once per process at
 * the first region (hl_regions.c calls in under g_hlr_lock): PAPI_EVENTS' entries (any
 * mix of components: each opens in a probe set of its own component, as the threads'
 * sets will be made, one per component), else the default list, else the software
 * fallback; PAPI_METRICS' events beside them. Every entry not counted is kept with its
 * reason (the report's skipped_events) and said in one short notice. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "hl_regions.h"
#include "hl_state.h"

static const char *const default_events[] = {"perf::TASK-CLOCK", "PAPI_TOT_INS", "PAPI_TOT_CYC",
                                             "PAPI_FP_OPS"};
static const char *const fallback_events[] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS"};

/* Every entry not counted is kept whole with its reason (no fixed-size list to cut). */
static void add_skipped(const char *name, const char *why)
{
    struct hlr_skipped *n = realloc(g_hlr.skipped, (size_t)(g_hlr.nskipped + 1) * sizeof *n);
    if (!n)
        return;
    g_hlr.skipped = n;
    n[g_hlr.nskipped].name = strdup(name);
    n[g_hlr.nskipped].why = strdup(why);
    if (n[g_hlr.nskipped].name && n[g_hlr.nskipped].why)
        g_hlr.nskipped++;
}

static void component_name(int code, char *out, size_t len)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
    papi_strcpy(out, len, c ? c->name : "perf_event");
}

/* The probe sets that choose the events: one per component, as the threads' sets. */
struct probes {
    int n;
    int cidx[HLR_MAX_SETS], es[HLR_MAX_SETS];
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
    int code = 0, ret, probe = PAPI_NULL, cidx = 0;
    if (g_hlr.nevents >= HLR_MAX_EVENTS) {
        add_skipped(name, "more than 16 events");
        return;
    }
    if (strlen(name) >= sizeof g_hlr.name[0]) {
        add_skipped(name, "the event name is longer than 127 characters");
        return;
    }
    ret = PAPI_event_name_to_code(name, &code);
    if (ret != PAPI_OK)
        code = 0;
    if (ret == PAPI_OK && (cidx = PAPI_get_event_component(code)) < 0)
        ret = cidx;
    if (ret == PAPI_OK)
        probe = probe_of(pr, cidx, &ret);
    if (ret == PAPI_OK)
        ret = PAPI_add_event(probe, code);
    if (ret == PAPI_ECNFLCT && may_multiplex && cidx == 0 &&
        hl_metrics_multiplex(probe, name, papi_last_error_detail()) == PAPI_OK)
        ret = PAPI_add_event(probe, code); /* PAPI_METRICS: multiplexed, not dropped */
    if (ret == PAPI_OK) {
        g_hlr.code[g_hlr.nevents] = code;
        g_hlr.cidx[g_hlr.nevents] = cidx;
        papi_strcpy(g_hlr.name[g_hlr.nevents], sizeof g_hlr.name[0], name);
        component_name(code, g_hlr.component[g_hlr.nevents], sizeof g_hlr.component[0]);
        g_hlr.nevents++;
        return;
    }
    if (quiet)
        return;
    /* The name is unknown (code 0): the hardware is not the reason. */
    char *why = code == 0 ? strdup(papi_last_error_detail()) : hl_missing_reason(code);
    add_skipped(name, why ? why : "not counted (no memory to say why)");
    free(why);
}

/* g_hlr.note = the formatted reason, whole. */
__attribute__((format(printf, 1, 2))) static void set_note(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    free(g_hlr.note);
    g_hlr.note = s;
}

/* configure's one-line notice, printed only once the choice stands (a PAPI_shutdown in
 * another thread makes every probe fail: that is no diagnosis of the machine). */
static char *pending_notice;
static void notice_later(const char *msg)
{
    if (!pending_notice)
        pending_notice = strdup(msg);
}

/* The notice names this many entries and quotes this much of the first one's reason
 * (a reason with a recorded tree's path can be kilobytes long). */
#define NOTICE_NAMES 8
#define NOTICE_WHY   120

/* The events PAPI_EVENTS lists (comma-separated, spaces around names ignored). */
static void configure_from_env(struct probes *probe, const char *env)
{
    g_hlr.source = "PAPI_EVENTS";
    char *list = strdup(env); /* the whole list, however long */
    if (!list) {
        set_note("no memory to read PAPI_EVENTS: no event counted");
        notice_later("PAPI_hl_region_begin: no memory to read PAPI_EVENTS: no event counted");
        return;
    }
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        int instant = hl_event_suffix(tok), before = g_hlr.nevents;
        if (*tok)
            try_event(probe, tok, 0, 0);
        if (g_hlr.nevents > before)
            g_hlr.instant[before] = instant;
    }
    free(list);
    if (g_hlr.nskipped) { /* one short line; the report's note has every reason whole */
        char *msg = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&msg, &len);
        if (f) {
            fprintf(f,
                    "PAPI_hl_region_begin: PAPI_EVENTS entries not counted (%d): ", g_hlr.nskipped);
            for (int i = 0; i < g_hlr.nskipped && i < NOTICE_NAMES; i++)
                fprintf(f, "%s%s", i ? ", " : "", g_hlr.skipped[i].name);
            if (g_hlr.nskipped > NOTICE_NAMES)
                fprintf(f, ", ...");
            const char *why = g_hlr.skipped[0].why ? g_hlr.skipped[0].why : "";
            const char *end = strstr(why, ". "); /* its first sentence */
            int n = end ? (int)(end - why) : (int)strlen(why);
            fprintf(f, " (%s%.*s%s); the whole reasons: the region report's note",
                    g_hlr.nskipped > 1 ? "the first: " : "", n > NOTICE_WHY ? NOTICE_WHY : n, why,
                    n > NOTICE_WHY ? " [...]" : "");
            if (fclose(f) != 0) {
                free(msg);
                msg = NULL;
            }
        }
        notice_later(msg ? msg : "PAPI_hl_region_begin: some PAPI_EVENTS entries are not counted");
        free(msg);
    }
}

static int counted(const char *name)
{
    for (int i = 0; i < g_hlr.nevents; i++)
        if (strcmp(g_hlr.name[i], name) == 0)
            return 1;
    return 0;
}

/* A metric already planned (a group and a name may both bring it). */
static int metric_configured(const char *name)
{
    for (int k = 0; k < g_hlr.nmetrics; k++)
        if (strcmp(g_hlr.metric[k].name, name) == 0)
            return 1;
    return 0;
}

/* One metric of PAPI_METRICS: its events added to the process's, its formula planned
 * over them; a metric that cannot be computed here is skipped with the reason. */
static void configure_metric(struct probes *probe, const char *name)
{
    PAPIM_metric_info_t info;
    char why[PAPI_HUGE_STR_LEN + 64];
    memset(&info, 0, sizeof info);
    if (g_hlr.nmetrics == HLR_MAX_METRICS) {
        add_skipped(name, "more than 8 metrics");
        return;
    }
    if (PAPIM_query_metric(name, &info) != PAPI_OK || !info.countable) {
        snprintf(why, sizeof why, "metric: %s",
                 info.reason[0] ? info.reason : papi_last_error_detail());
        add_skipped(name, why);
        return;
    }
    for (int i = 0; i < info.num_events; i++)
        if (!counted(info.event_names[i]))
            try_event(probe, info.event_names[i], 0, 1);
    if (metric_plan_make(name, g_hlr.nevents, (const char(*)[PAPI_MAX_STR_LEN])g_hlr.name,
                         &g_hlr.metric[g_hlr.nmetrics]) != PAPI_OK) {
        snprintf(why, sizeof why, "metric: %s", papi_last_error_detail());
        add_skipped(name, why);
        return;
    }
    g_hlr.nmetrics++;
}

/* One entry of PAPI_METRICS (a metric or a group) configured; an unknown one is skipped
 * with the reason, the others are still computed. */
static void configure_metric_entry(struct probes *probe, const char *entry)
{
    char names[HLR_MAX_METRICS * 2][PAPI_MIN_STR_LEN];
    int n = 0;
    if (PAPIM_expand(entry, names, HLR_MAX_METRICS * 2, &n) != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN + 64];
        snprintf(why, sizeof why, "PAPI_METRICS: %s", papi_last_error_detail());
        add_skipped(entry, why);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!metric_configured(names[i]))
            configure_metric(probe, names[i]);
}

/* PAPI_METRICS: metric and group names (papi_metrics(3)), beside the events. */
static void configure_metrics(struct probes *probe, const char *env)
{
    int skipped = g_hlr.nskipped;
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
    if (g_hlr.nskipped > skipped)
        notice_later("PAPI_hl_region_begin: some PAPI_METRICS metrics are not computed (the "
                     "region report's skipped_events says why)");
}

/* No hardware counts here: software events instead of failing (or none at all). */
static void configure_fallback(struct probes *probe)
{
    char *why = hl_missing_reason(PAPI_TOT_CYC);
    probes_empty(probe);
    g_hlr.nevents = 0;
    for (size_t i = 0; i < sizeof fallback_events / sizeof *fallback_events; i++)
        try_event(probe, fallback_events[i], 0, 0);
    g_hlr.source = "fallback";
    if (g_hlr.nevents > 0) {
        set_note("no PAPI_EVENTS and none of PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS "
                 "counts here (%s); counting software events perf::TASK-CLOCK and "
                 "perf::PAGE-FAULTS",
                 why ? why : "no memory to say why");
    } else { /* seccomp, perf_event_paranoid 3: not even software events */
        set_note("no event counts here, software events neither (%s); the regions "
                 "record real time only",
                 why ? why : "no memory to say why");
        char *msg = NULL; /* the whole reason, whatever its length */
        if (g_hlr.note && asprintf(&msg, "PAPI_hl_region_begin: %s", g_hlr.note) < 0)
            msg = NULL;
        notice_later(msg ? msg : "PAPI_hl_region_begin: no event counts here");
        free(msg);
    }
    free(why);
}

/* The default events; the fallback when none of the hardware ones counts. */
static void configure_default(struct probes *probe)
{
    int hardware = 0;
    for (size_t i = 0; i < sizeof default_events / sizeof *default_events; i++) {
        int before = g_hlr.nevents;
        try_event(probe, default_events[i], 1, 0);
        hardware += i > 0 && g_hlr.nevents > before;
    }
    g_hlr.source = "default";
    if (!hardware)
        configure_fallback(probe);
}

/* What configure chose, dropped: a shutdown in another thread made it meaningless. */
static void forget_configuration(void)
{
    for (int i = 0; i < g_hlr.nskipped; i++) {
        free(g_hlr.skipped[i].name);
        free(g_hlr.skipped[i].why);
    }
    free(g_hlr.skipped);
    free(g_hlr.note);
    free(pending_notice);
    g_hlr.skipped = NULL;
    g_hlr.note = pending_notice = NULL;
    g_hlr.nskipped = g_hlr.nevents = g_hlr.nmetrics = 0;
    memset(g_hlr.instant, 0, sizeof g_hlr.instant);
    g_hlr.source = NULL;
}

/* The events grouped by component: g_hlr.set in order of first appearance. */
void hlr_group_sets(void)
{
    g_hlr.nsets = 0;
    for (int i = 0; i < g_hlr.nevents; i++) {
        int k = 0;
        while (k < g_hlr.nsets && g_hlr.set[k].cidx != g_hlr.cidx[i])
            k++;
        if (k == g_hlr.nsets) { /* configure kept at most HLR_MAX_SETS components */
            g_hlr.set[k].cidx = g_hlr.cidx[i];
            g_hlr.set[k].n = 0;
            g_hlr.nsets++;
        }
        g_hlr.set[k].idx[g_hlr.set[k].n++] = i;
    }
    g_hlr.direct = g_hlr.nsets == 1;
}

int hlr_configure(void)
{
    struct probes probe = {0};
    unsigned gen = atomic_load(&g_papi_generation);
    g_hlr.generation = gen;
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
    hlr_group_sets();
    if (atomic_load(&g_papi_generation) != gen || g_papi.init_state == PAPI_NOT_INITED) {
        forget_configuration();
        return papi_error(PAPI_ENOINIT, "PAPI_hl_region_begin: PAPI_shutdown in another thread "
                                        "while the region events were chosen");
    }
    if (pending_notice)
        hl_notice_once(pending_notice);
    free(pending_notice);
    pending_notice = NULL;
    return PAPI_OK;
}

/* After PAPI_shutdown + PAPI_library_init the codes of the first generation mean
 * nothing: resolve the names again. Caller holds g_hlr_lock. */
int hlr_resolve_again(void)
{
    for (int i = 0; i < g_hlr.nevents; i++) {
        int ret = PAPI_event_name_to_code(g_hlr.name[i], &g_hlr.code[i]);
        if (ret == PAPI_ENOINIT) /* a PAPI_shutdown in another thread, not the event */
            return ret;
        if (ret != PAPI_OK)
            return papi_error(PAPI_ENOEVNT,
                              "PAPI_hl_region_begin: event %s is no longer known "
                              "after PAPI_library_init",
                              g_hlr.name[i]);
        g_hlr.cidx[i] = PAPI_get_event_component(g_hlr.code[i]);
    }
    hlr_group_sets();
    g_hlr.generation = atomic_load(&g_papi_generation);
    return PAPI_OK;
}
