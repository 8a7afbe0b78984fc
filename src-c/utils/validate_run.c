/* validate_run.c: papi_validate's checks. For every event a kernel determines (the
 * presets of validate_kernels_*.c, DP_FLOPS and SP_FLOPS through the PAPIM_ API), the
 * event must be one this CPU's table defines; then each kernel is counted with the
 * event alone in a set (no multiplexing), as the difference of n and 2n iterations. */
#include "validate_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_metrics.h"
#include "util_common.h"

/* Metrics a kernel determines: operations (the kernel's count of a preset) per second. */
static const struct {
    const char *metric;
    const char *ops;
} rate_metrics[] = {{"DP_FLOPS", "PAPI_DP_OPS"}, {"SP_FLOPS", "PAPI_SP_OPS"}};
#define N_RATE_METRICS (int)(sizeof rate_metrics / sizeof rate_metrics[0])

static const char *metric_ops(const char *name)
{
    for (int i = 0; i < N_RATE_METRICS; i++)
        if (strcmp(rate_metrics[i].metric, name) == 0)
            return rate_metrics[i].ops;
    return NULL;
}

/* Does any kernel of this ISA determine event (a preset, or a metric's operations)? */
static int determined(const char *event)
{
    int nk;
    const struct vk_kernel *ks = vk_kernels(&nk);
    const char *ops = metric_ops(event);
    for (int i = 0; i < nk; i++)
        if (vk_determines(&ks[i], ops ? ops : event))
            return 1;
    return 0;
}

/* 1 when preset name is defined by this CPU's table (info filled), else 0. An
 * unavailable preset has no native events in its info; the library's note then says
 * whether the table lacks it ("no definition in the table ...", "... does not define
 * it", a rejected file) or its events do not open (defined: a check to report). */
static int preset_defined(const char *name, PAPI_event_info_t *info)
{
    int code;
    memset(info, 0, sizeof *info);
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK ||
        PAPI_get_event_info(code, info) != PAPI_OK)
        return 0;
    if (info->count > 0)
        return 1;
    return !strstr(info->note, "no definition in the") &&
           !strstr(info->note, "does not define it") && !strstr(info->note, " rejected: ");
}

int vr_check_name(const char *name, char *why, size_t len)
{
    PAPI_event_info_t info;
    PAPIM_metric_info_t mi;
    int code;
    int is_metric = metric_ops(name) != NULL || PAPIM_query_metric(name, &mi) == PAPI_OK;
    if (!is_metric &&
        (strncmp(name, "PAPI_", 5) != 0 || PAPI_event_name_to_code(name, &code) != PAPI_OK)) {
        snprintf(why, len,
                 "unknown preset or metric '%s' (papi_avail and papi_metric_avail list them)",
                 name);
        return 0;
    }
    if (!is_metric && !preset_defined(name, &info)) {
        snprintf(why, len, "%s is not defined for this CPU: %s", name,
                 info.note[0] ? info.note : "its preset table has no definition");
        return 0;
    }
    const char *ops = metric_ops(name);
    if (ops && !preset_defined(ops, &info)) {
        snprintf(why, len, "metric %s counts %s, which is not defined for this CPU: %s", name, ops,
                 info.note[0] ? info.note : "its preset table has no definition");
        return 0;
    }
    if (is_metric && PAPIM_query_metric(name, &mi) != PAPI_OK) {
        snprintf(why, len, "metric %s is not defined for this CPU (papi_metric_avail lists them)",
                 name);
        return 0;
    }
    if (!determined(name)) {
        snprintf(
            why, len,
            "no kernel of papi_validate (%s) determines %s; --list shows what each kernel checks",
            vk_isa(), name);
        return 0;
    }
    return 1;
}

static struct vr_row *new_row(struct vr_run *run, const struct vk_kernel *k, const char *event)
{
    if (run->n == run->cap) {
        int cap = run->cap ? run->cap * 2 : 64;
        struct vr_row *r = realloc(run->rows, (size_t)cap * sizeof *r);
        if (!r)
            return NULL;
        run->rows = r;
        run->cap = cap;
    }
    struct vr_row *row = &run->rows[run->n++];
    memset(row, 0, sizeof *row);
    snprintf(row->kernel, sizeof row->kernel, "%s", k->name);
    snprintf(row->event, sizeof row->event, "%s", event);
    row->iterations = run->iterations;
    return row;
}

static void judge(struct vr_run *run, struct vr_row *row, int countable, const char *reason,
                  double tol_abs, double tol_rel)
{
    struct vd_check c = {row->expected, row->counted, countable, reason, tol_abs, tol_rel};
    vd_judge(&c, &row->res);
    if (row->res.verdict == VD_PASS)
        run->passed++;
    else if (row->res.verdict == VD_FAIL)
        run->failed++;
    else
        run->not_countable++;
}

/* One count of es over k->run(n); 0 or -1 with why. */
static int count_once(int es, const struct vk_kernel *k, long n, long long *v, char *why,
                      size_t len)
{
    int r = PAPI_start(es);
    if (r == PAPI_OK) {
        k->run(n);
        r = PAPI_stop(es, v);
    }
    if (r != PAPI_OK) {
        util_error_detail(r, why, len);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Events of k->run(2n) minus those of k->run(n), the median of run->repeats pairs (after
 * one run that warms caches and the library's paths). */
static int measure(const struct vr_run *run, int es, const struct vk_kernel *k, double *counted,
                   char *why, size_t len)
{
    double d[9];
    long long a, b;
    long n = run->iterations;
    if (count_once(es, k, n, &a, why, len) < 0)
        return -1;
    for (int i = 0; i < run->repeats && i < 9; i++) {
        if (count_once(es, k, n, &a, why, len) < 0 || count_once(es, k, 2 * n, &b, why, len) < 0)
            return -1;
        d[i] = (double)(b - a);
    }
    qsort(d, (size_t)run->repeats, sizeof d[0], cmp_double);
    *counted = d[run->repeats / 2];
    return 0;
}

/* The set for one event, or PAPI_NULL with why. */
static int set_of(const char *const *names, int n, char *why, size_t len)
{
    int es = PAPI_NULL;
    int r = PAPI_create_eventset(&es);
    for (int i = 0; r == PAPI_OK && i < n; i++)
        r = PAPI_add_named_event(es, names[i]);
    if (r == PAPI_OK)
        return es;
    util_error_detail(r, why, len);
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return PAPI_NULL;
}

static void free_set(int es)
{
    if (es == PAPI_NULL)
        return;
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

/* Why kernel k cannot run here, in buf; NULL when it can. */
static const char *kernel_missing(const struct vk_kernel *k, char *buf, size_t len)
{
    const char *lack = k->missing();
    if (!lack)
        return NULL;
    snprintf(buf, len, "kernel %s cannot run here: it needs %s", k->name, lack);
    return buf;
}

/* Every row of preset name (one per kernel that determines it); -1 out of memory. */
static int check_preset(struct vr_run *run, const char *name)
{
    PAPI_event_info_t info;
    if (!preset_defined(name, &info))
        return 0; /* not this CPU's preset: nothing to check */
    char why[PAPI_HUGE_STR_LEN], lack[128];
    int es = set_of(&name, 1, why, sizeof why);
    int nk, ret = 0;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk && ret == 0; i++) {
        if (!vk_determines(&ks[i], name))
            continue;
        struct vr_row *row = new_row(run, &ks[i], name);
        if (!row) {
            ret = -1;
            break;
        }
        const char *missing = kernel_missing(&ks[i], lack, sizeof lack);
        double tol_rel = vk_tol_rel(&ks[i]) > 0 ? vk_tol_rel(&ks[i]) : VR_TOL_REL;
        if (!missing)
            row->expected = vk_expected_per_iter(&ks[i], name) * (double)run->iterations;
        if (missing)
            judge(run, row, 0, missing, VR_TOL_ABS, tol_rel);
        else if (es == PAPI_NULL || measure(run, es, &ks[i], &row->counted, why, sizeof why) < 0)
            judge(run, row, 0, why, VR_TOL_ABS, tol_rel);
        else
            judge(run, row, 1, NULL, VR_TOL_ABS, tol_rel);
    }
    free_set(es);
    return ret;
}

/* Metric value over k->run(2n) and the kernel's operations per second over the same
 * seconds; 0, or -1 with why. */
static int measure_rate(const struct vr_run *run, int es, const PAPIM_metric_info_t *mi,
                        const struct vk_kernel *k, const char *ops, struct vr_row *row, char *why,
                        size_t len)
{
    long long v[PAPIM_MAX_EVENTS];
    const char *names[PAPIM_MAX_EVENTS];
    long n2 = 2 * run->iterations;
    for (int i = 0; i < mi->num_events; i++)
        names[i] = mi->event_names[i];
    k->run(run->iterations); /* warm */
    int r = PAPI_start(es);
    long long t0 = PAPI_get_real_nsec();
    if (r == PAPI_OK)
        k->run(n2);
    long long t1 = PAPI_get_real_nsec();
    if (r == PAPI_OK)
        r = PAPI_stop(es, v);
    double secs = (double)(t1 - t0) * 1e-9;
    if (r == PAPI_OK)
        r = PAPIM_evaluate(mi->name, mi->num_events, names, v, secs, &row->counted);
    if (r != PAPI_OK) {
        util_error_detail(r, why, len);
        return -1;
    }
    row->iterations = n2;
    row->seconds = secs;
    row->expected = vk_expected_per_iter(k, ops) * (double)n2 / secs;
    return 0;
}

/* Every row of rate metric i (per second: the tolerance's events over the seconds). */
static int check_metric(struct vr_run *run, int m)
{
    PAPIM_metric_info_t mi;
    PAPI_event_info_t info;
    /* A metric over a preset this CPU's table does not define is not this CPU's either. */
    if (PAPIM_query_metric(rate_metrics[m].metric, &mi) != PAPI_OK ||
        !preset_defined(rate_metrics[m].ops, &info))
        return 0;
    char why[PAPI_HUGE_STR_LEN], lack[128];
    const char *names[PAPIM_MAX_EVENTS];
    for (int i = 0; i < mi.num_events; i++)
        names[i] = mi.event_names[i];
    snprintf(why, sizeof why, "%s", mi.reason);
    int es = mi.countable ? set_of(names, mi.num_events, why, sizeof why) : PAPI_NULL;
    int nk;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk; i++) {
        if (!vk_determines(&ks[i], rate_metrics[m].ops))
            continue;
        struct vr_row *row = new_row(run, &ks[i], mi.name);
        if (!row) {
            free_set(es);
            return -1;
        }
        row->is_metric = 1;
        const char *missing = kernel_missing(&ks[i], lack, sizeof lack);
        if (missing)
            judge(run, row, 0, missing, 0, VR_TOL_REL);
        else if (es == PAPI_NULL ||
                 measure_rate(run, es, &mi, &ks[i], rate_metrics[m].ops, row, why, sizeof why) < 0)
            judge(run, row, 0, why, 0, VR_TOL_REL);
        else
            judge(run, row, 1, NULL, VR_TOL_ABS / row->seconds, VR_TOL_REL);
    }
    free_set(es);
    return 0;
}

/* The presets the kernels determine, each once, in the kernels' order. */
static int kernel_events(const char **out, int max)
{
    int nk, n = 0;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < VK_MAX_EXPECT && ks[i].expect[j].event; j++) {
            const char *e = ks[i].expect[j].event;
            int seen = 0;
            for (int k = 0; k < n && !seen; k++)
                seen = strcmp(out[k], e) == 0;
            if (!seen && n < max)
                out[n++] = e;
        }
    return n;
}

/* The level-2 cache's size in bytes (data or unified), 0 when the library has none. */
static long l2_size(void)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    if (!hw || hw->mem_hierarchy.levels < 2)
        return 0;
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        const PAPI_mh_cache_info_t *c = &hw->mem_hierarchy.level[1].cache[j];
        int t = PAPI_MH_CACHE_TYPE(c->type);
        if (t == PAPI_MH_TYPE_DATA || t == PAPI_MH_TYPE_UNIFIED)
            return c->size;
    }
    return 0;
}

void vr_configure_kernels(void)
{
    vk_mem_configure(l2_size());
}

int vr_run_all(const struct vr_options *o, struct vr_run *run)
{
    const char *events[64];
    int ne = kernel_events(events, 64), ret = 0;
    memset(run, 0, sizeof *run);
    run->iterations = o->quick ? 50000 : 1000000;
    run->repeats = o->quick ? 1 : 3;
    vk_mem_configure(l2_size());
    for (int i = 0; i < ne && ret == 0; i++)
        if (!o->only || strcmp(o->only, events[i]) == 0)
            ret = check_preset(run, events[i]);
    for (int m = 0; m < N_RATE_METRICS && ret == 0; m++)
        if (!o->only || strcmp(o->only, rate_metrics[m].metric) == 0)
            ret = check_metric(run, m);
    return ret;
}

void vr_free(struct vr_run *run)
{
    free(run->rows);
    memset(run, 0, sizeof *run);
}
