/* metrics_api.c: papi_metrics.h's calls over the table in force (metric_table.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_table.h"
#include "papi_globals.h"
#include "preset_tables.h"

/* The table, locked, or NULL (unlocked) with the error to return in *ret. */
static struct metric_table *table_or_error(int *ret)
{
    if (g_papi.init_state == PAPI_NOT_INITED) {
        *ret = papi_error(PAPI_ENOINIT, "metrics: PAPI_library_init has not been called");
        return NULL;
    }
    metric_table_lock();
    struct metric_table *t = metric_table_get();
    if (!t) {
        metric_table_unlock();
        *ret = PAPI_EINVAL; /* the reason is recorded by metric_table_get */
    }
    return t;
}

/* The number of metrics (groups: 0) or of groups (groups: 1) of the table in force, or the
 * error. */
static int table_count(int groups)
{
    int ret;
    struct metric_table *t = table_or_error(&ret);
    if (!t)
        return ret;
    int n = groups ? t->ngroups : t->count;
    metric_table_unlock();
    return n;
}

/* For caller's info (not NULL) of one of the table's metrics (groups: 0) or groups (groups:
 * 1): the table, locked, when index is one of them; NULL (unlocked) with the error in *ret
 * otherwise. */
static struct metric_table *table_at(const char *caller, const void *info, int index, int groups,
                                     int *ret)
{
    if (!info) {
        *ret = papi_error(PAPI_EINVAL, "%s: info is NULL", caller);
        return NULL;
    }
    struct metric_table *t = table_or_error(ret);
    if (!t)
        return NULL;
    int n = groups ? t->ngroups : t->count;
    if (index < 0 || index >= n) {
        metric_table_unlock();
        *ret = papi_error(PAPI_ENOEVNT, "%s index %d: this machine's table has %d",
                          groups ? "group" : "metric", index, n);
        return NULL;
    }
    return t;
}

/* A name this CPU's table does not define: which table was looked in, and for the
 * standard names why this CPU has none. */
static int unknown_metric(const char *name)
{
    static const char standard[] =
        " IPC CPI DP_FLOPS SP_FLOPS HP_FLOPS L1D_MISS_RATIO L2_MISS_RATIO L3_MISS_RATIO "
        "BR_MISP_RATIO MEM_READ_BW MEM_WRITE_BW MEM_BW TOPDOWN_RETIRING "
        "TOPDOWN_BAD_SPECULATION TOPDOWN_FRONTEND_BOUND TOPDOWN_BACKEND_BOUND ";
    char key[PAPI_MIN_STR_LEN + 2];
    snprintf(key, sizeof key, " %.*s ", PAPI_MIN_STR_LEN - 1, name);
    const char *cpu = preset_detected_cpu();
    if (!strstr(standard, key))
        return papi_error(PAPI_ENOEVNT,
                          "no metric or group named '%.64s' for this CPU (metric table '%s'; "
                          "papi_metric_avail lists them)",
                          name, cpu ? cpu : "generic");
    if (!cpu)
        return papi_error(PAPI_ENOEVNT,
                          "metric '%s' is not defined here: no CPU metric table applies (no "
                          "CPU PMU was recognised), only the generic one (CPU_UTILIZATION)",
                          name);
    return papi_error(PAPI_ENOEVNT,
                      "metric '%s' is not defined for this CPU (metric table '%s'): this CPU "
                      "has no counter its vendor documents for it, or Linux does not expose "
                      "one (share/papi/papi_metrics.csv lists each CPU's metrics)",
                      name, cpu);
}

/* Metric name of the table, resolved, with the table locked; NULL (unlocked) with the
 * error in *ret when there is no table or no such metric. */
static struct metric *locked_metric(const char *name, int *ret)
{
    struct metric_table *t = table_or_error(ret);
    if (!t)
        return NULL;
    struct metric *m = metric_find(t, name);
    if (!m) {
        metric_table_unlock();
        *ret = unknown_metric(name);
        return NULL;
    }
    if ((*ret = metric_resolve(m)) != PAPI_OK) {
        metric_table_unlock();
        return NULL;
    }
    return m;
}

static int fill_info(struct metric *m, PAPIM_metric_info_t *info)
{
    int ret = metric_resolve(m);
    if (ret != PAPI_OK)
        return ret;
    const struct metric_state *r = m->r;
    memset(info, 0, sizeof *info);
    papi_strcpy(info->name, sizeof info->name, m->name);
    papi_strcpy(info->unit, sizeof info->unit, m->unit);
    papi_strcpy(info->formula, sizeof info->formula, m->formula_text);
    papi_strcpy(info->description, sizeof info->description, m->description);
    papi_strcpy(info->table, sizeof info->table, m->table);
    info->uses_time = r->f.uses_time;
    /* More than PAPIM_MAX_EVENTS: not resolved, and the reason says how many. */
    info->num_events = r->nevents < PAPIM_MAX_EVENTS ? r->nevents : PAPIM_MAX_EVENTS;
    for (int i = 0; i < info->num_events; i++)
        papi_strcpy(info->event_names[i], sizeof info->event_names[0], r->events[i]);
    info->resolved = r->resolved;
    info->countable = r->countable;
    papi_strcpy(info->reason, sizeof info->reason, r->reason);
    return PAPI_OK;
}

int PAPIM_num_metrics(void)
{
    return table_count(0);
}

int PAPIM_get_metric_info(int index, PAPIM_metric_info_t *info)
{
    int ret;
    struct metric_table *t = table_at("PAPIM_get_metric_info", info, index, 0, &ret);
    if (!t)
        return ret;
    ret = fill_info(&t->v[index], info);
    metric_table_unlock();
    return ret;
}

int PAPIM_query_metric(const char *name, PAPIM_metric_info_t *info)
{
    if (!name || !info)
        return papi_error(PAPI_EINVAL, "PAPIM_query_metric: name or info is NULL");
    int ret;
    struct metric *m = locked_metric(name, &ret);
    if (!m)
        return ret;
    ret = fill_info(m, info);
    metric_table_unlock();
    return ret;
}

int PAPIM_num_groups(void)
{
    return table_count(1);
}

int PAPIM_get_group_info(int index, PAPIM_group_info_t *info)
{
    int ret;
    struct metric_table *t = table_at("PAPIM_get_group_info", info, index, 1, &ret);
    if (!t)
        return ret;
    const struct metric_group *g = &t->g[index];
    memset(info, 0, sizeof *info);
    papi_strcpy(info->name, sizeof info->name, g->name);
    papi_strcpy(info->description, sizeof info->description, g->description);
    info->num_metrics = g->n;
    for (int k = 0; k < g->n; k++)
        papi_strcpy(info->metrics[k], sizeof info->metrics[0], g->members[k]);
    metric_table_unlock();
    return PAPI_OK;
}

static int add_name(char names[][PAPI_MIN_STR_LEN], int max, int *count, const char *name)
{
    for (int i = 0; i < *count; i++)
        if (strcmp(names[i], name) == 0)
            return PAPI_OK;
    if (*count == max)
        return papi_error(PAPI_EINVAL, "more than %d metrics asked for", max);
    papi_strcpy(names[(*count)++], PAPI_MIN_STR_LEN, name);
    return PAPI_OK;
}

int PAPIM_expand(const char *list, char names[][PAPI_MIN_STR_LEN], int max, int *count)
{
    if (!list || !names || !count || max < 1)
        return papi_error(PAPI_EINVAL, "PAPIM_expand: NULL argument or max < 1");
    int ret;
    struct metric_table *t = table_or_error(&ret);
    if (!t)
        return ret;
    int n = 0;
    ret = PAPI_OK;
    const char *p = list;
    while (ret == PAPI_OK && *p) {
        size_t len = strcspn(p, ", \t");
        char one[PAPI_MIN_STR_LEN];
        if (len >= sizeof one) {
            ret = papi_error(PAPI_EINVAL, "metric name too long in '%.64s'", p);
            break;
        }
        memcpy(one, p, len);
        one[len] = '\0';
        p += len;
        p += strspn(p, ", \t");
        if (!len)
            continue;
        const struct metric_group *g = metric_group_find(t, one);
        if (g)
            for (int k = 0; k < g->n && ret == PAPI_OK; k++)
                ret = add_name(names, max, &n, g->members[k]);
        else if (metric_find(t, one))
            ret = add_name(names, max, &n, one);
        else
            ret = unknown_metric(one);
    }
    metric_table_unlock();
    if (ret == PAPI_OK)
        *count = n; /* nothing changes on an error */
    return ret;
}

/* The event names a caller gave: PAPIM_evaluate's array of pointers or a plan's table. */
struct given {
    int n;
    const char *const *list;
    const char (*table)[PAPI_MAX_STR_LEN];
};

static const char *given_name(const struct given *g, int k)
{
    return g->list ? g->list[k] : g->table[k];
}

/* The index among the given names of the metric's event wanted: that name, else another
 * name of the same event (cuda:::sm__cycles_active.sum:device=0 for a formula's
 * cuda:::sm__cycles_active.sum: one event, counted once, whichever name the user gave);
 * g->n when none. */
static int given_index(const struct given *g, const char *wanted)
{
    for (int k = 0; k < g->n; k++)
        if (given_name(g, k) && strcmp(given_name(g, k), wanted) == 0)
            return k;
    int code = 0, other = 0;
    if (PAPI_event_name_to_code(wanted, &code) != PAPI_OK)
        return g->n;
    for (int k = 0; k < g->n; k++)
        if (given_name(g, k) && PAPI_event_name_to_code(given_name(g, k), &other) == PAPI_OK &&
            other == code)
            return k;
    return g->n;
}

/* The summed value of term t from the caller's events, or -1 (the reason recorded). */
static int term_value(const struct metric *m, const struct metric_state *r, int t, int n,
                      const char *const event_names[], const long long values[], double *out)
{
    double sum = 0;
    for (int i = r->term_first[t]; i < r->term_first[t] + r->term_count[t]; i++) {
        const struct given g = {.n = n, .list = event_names};
        int k = given_index(&g, r->events[i]);
        if (k == n)
            return papi_error(PAPI_EINVAL, "metric %s needs the count of %s, which was not given",
                              m->name, r->events[i]);
        sum += (double)values[k] * r->factor[i];
    }
    if (r->term_count[t] == 0)
        return papi_error(PAPI_EINVAL, "metric %s: %s names no event here (%s)", m->name,
                          r->f.term[t], r->reason);
    *out = sum;
    return PAPI_OK;
}

int PAPIM_evaluate(const char *name, int n, const char *const event_names[],
                   const long long values[], double seconds, double *result)
{
    if (!name || !result || n < 0 || (n > 0 && (!event_names || !values)))
        return papi_error(PAPI_EINVAL, "PAPIM_evaluate: NULL argument or n < 0");
    int ret;
    struct metric *m = locked_metric(name, &ret);
    if (!m)
        return ret;
    double terms[METRIC_MAX_TERMS];
    for (int k = 0; k < m->r->f.nterms; k++)
        if ((ret = term_value(m, m->r, k, n, event_names, values, &terms[k])) != PAPI_OK) {
            metric_table_unlock();
            return ret;
        }
    char why[PAPI_HUGE_STR_LEN], formula[PAPI_HUGE_STR_LEN];
    double v;
    ret = metric_formula_eval(&m->r->f, terms, seconds, &v, why, sizeof why);
    papi_strcpy(formula, sizeof formula, m->formula_text);
    metric_table_unlock();
    if (ret != PAPI_OK)
        return papi_error(ret, "metric %s = %s: %s", name, formula, why);
    *result = v;
    return PAPI_OK;
}

int metric_plan_make(const char *name, int n, const char (*names)[PAPI_MAX_STR_LEN],
                     struct metric_plan *p)
{
    int ret;
    struct metric *m = locked_metric(name, &ret);
    if (!m)
        return ret;
    memset(p, 0, sizeof *p);
    papi_strcpy(p->name, sizeof p->name, m->name);
    papi_strcpy(p->unit, sizeof p->unit, m->unit);
    const struct metric_state *r = m->r;
    p->f = r->f;
    ret = PAPI_OK;
    if (r->nevents > PAPIM_MAX_EVENTS)
        ret = papi_error(PAPI_EINVAL, "metric %s: %s", m->name, r->reason);
    for (int k = 0; k < r->f.nterms && ret == PAPI_OK; k++) {
        if (r->term_count[k] == 0)
            ret =
                papi_error(PAPI_EINVAL, "metric %s: %s names no event here", m->name, r->f.term[k]);
        p->first[k] = p->nidx;
        for (int i = 0; i < r->term_count[k] && ret == PAPI_OK; i++) {
            const char *ev = r->events[r->term_first[k] + i];
            const struct given g = {.n = n, .table = names};
            int j = given_index(&g, ev);
            if (j == n)
                ret = papi_error(PAPI_EINVAL, "metric %s needs %s, which is not counted", m->name,
                                 ev);
            p->factor[p->nidx] = r->factor[r->term_first[k] + i];
            p->idx[p->nidx++] = j;
        }
        p->count[k] = p->nidx - p->first[k];
    }
    metric_table_unlock();
    return ret;
}

int metric_plan_eval(const struct metric_plan *p, const long long *values, double seconds,
                     double *result, char *err, size_t errlen)
{
    double terms[METRIC_MAX_TERMS];
    for (int k = 0; k < p->f.nterms; k++) {
        terms[k] = 0;
        for (int i = p->first[k]; i < p->first[k] + p->count[k]; i++)
            terms[k] += (double)values[p->idx[i]] * p->factor[i];
    }
    return metric_formula_eval(&p->f, terms, seconds, result, err, errlen);
}
