/* validate_metrics.c: papi_validate's metric checks. Every metric this CPU defines gets
 * rows, counted over one run of 2n iterations with the metric's events in one set:
 *  - a rate of what a kernel does per iteration (DP_FLOPS, SP_FLOPS: PAPI_DP_OPS and
 *    PAPI_SP_OPS per second; MEM_READ_BW, MEM_WRITE_BW, MEM_BW: the stream kernels'
 *    bytes per second): a row per kernel, expected = per iteration x 2n / the seconds
 *    of the same run;
 *  - a formula over presets a kernel determines (IPC, CPI, the miss ratios): the formula
 *    on the kernel's known counts in place of the counted ones (the rest as counted in
 *    the same run) against the formula on the counts (IPC: the known instructions over
 *    the cycles counted): a row for the kernel that determines most of them;
 *  - else one row "no kernel" (a metric is never left out silently). */
#include <stdio.h>
#include <string.h>

#include "util_common.h"
#include "validate_run.h"

/* What a rate metric counts per second, as the kernels' tables name it. */
static const char *quantity(const char *metric)
{
    if (strcmp(metric, "DP_FLOPS") == 0)
        return "PAPI_DP_OPS";
    if (strcmp(metric, "SP_FLOPS") == 0)
        return "PAPI_SP_OPS";
    return metric; /* MEM_READ_BW ...: the stream kernels' bytes */
}

static int is_rate(const PAPIM_metric_info_t *mi)
{
    int nk;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk && mi->uses_time; i++)
        if (vk_determines(&ks[i], quantity(mi->name)))
            return 1;
    return 0;
}

/* The runnable kernel that determines most of mi's events (exact ones weigh more), or
 * NULL: none, or an event that is not a preset (a kernel knows presets only). */
static const struct vk_kernel *formula_kernel(const PAPIM_metric_info_t *mi)
{
    int nk, best_score = 0;
    const struct vk_kernel *ks = vk_kernels(&nk), *best = NULL;
    for (int e = 0; e < mi->num_events; e++)
        if (strncmp(mi->event_names[e], "PAPI_", 5) != 0)
            return NULL;
    for (int i = 0; i < nk; i++) {
        int score = 0;
        for (int e = 0; e < mi->num_events; e++)
            if (vk_determines(&ks[i], mi->event_names[e]))
                score += vk_tol_rel(&ks[i], mi->event_names[e]) > 0 ? 1 : 2;
        if (score > best_score && !ks[i].missing())
            best = &ks[i], best_score = score;
    }
    return best;
}

/* 0 when mi counts a preset this CPU's table does not define (why says which). */
static int presets_defined(const PAPIM_metric_info_t *mi, char *why, size_t len)
{
    PAPI_event_info_t info;
    for (int e = 0; e < mi->num_events; e++) {
        const char *name = mi->event_names[e];
        if (strncmp(name, "PAPI_", 5) == 0 && !vr_preset_defined(name, &info)) {
            snprintf(why, len, "metric %s counts %s, which is not defined for this CPU: %.600s",
                     mi->name, name,
                     info.note[0] ? info.note : "its preset table has no definition");
            return 0;
        }
    }
    return 1;
}

int vm_check_name(const PAPIM_metric_info_t *mi, char *why, size_t len)
{
    if (!presets_defined(mi, why, len))
        return 0;
    if (is_rate(mi) || formula_kernel(mi))
        return 1;
    snprintf(why, len,
             "no kernel of papi_validate (%s) determines metric %s (%.512s); --list shows what each "
             "kernel checks",
             vk_isa(), mi->name, mi->formula);
    return 0;
}

/* Counts of mi's events (set es) over k->run(2n), and its seconds; 0 or -1 with why. */
static int count_metric(const struct vr_run *run, int es, const struct vk_kernel *k, long long *v,
                        double *secs, char *why, size_t len)
{
    k->run(run->iterations); /* warm */
    int r = PAPI_start(es);
    long long t0 = PAPI_get_real_nsec();
    if (r == PAPI_OK)
        k->run(2 * run->iterations);
    long long t1 = PAPI_get_real_nsec();
    if (r == PAPI_OK)
        r = PAPI_stop(es, v);
    *secs = (double)(t1 - t0) * 1e-9;
    if (r != PAPI_OK)
        util_error_detail(r, why, len);
    return r == PAPI_OK ? 0 : -1;
}

/* mi's value on counts v; 0, or -1 with why ("on the counts" or "on the known counts"). */
/* mi's value on counts v; 0, or -1 with why ("on the counts" or "on the known counts"). */
static int evaluate(const PAPIM_metric_info_t *mi, const long long *v, double secs,
                    const char *which, double *out, char *why, size_t len)
{
    const char *names[PAPIM_MAX_EVENTS];
    for (int i = 0; i < mi->num_events; i++)
        names[i] = mi->event_names[i];
    int r = PAPIM_evaluate(mi->name, mi->num_events, names, v, secs, out);
    if (r == PAPI_OK)
        return 0;
    char detail[512];
    util_error_detail(r, detail, sizeof detail);
    snprintf(why, len, "%s cannot be formed %s: %s", mi->name, which, detail);
    return -1;
}

/* The row of metric mi over kernel k: a rate (q: the quantity per iteration) or a
 * formula (q NULL) with k's known counts put in. */
static void judge_metric(struct vr_run *run, struct vr_row *row, int es,
                         const PAPIM_metric_info_t *mi, const struct vk_kernel *k, const char *q)
{
    long long v[PAPIM_MAX_EVENTS], known[PAPIM_MAX_EVENTS];
    const char *names[PAPIM_MAX_EVENTS];
    char why[PAPI_HUGE_STR_LEN];
    double secs, n2 = 2.0 * (double)run->iterations, tol;
    row->iterations = 2 * run->iterations;
    if (count_metric(run, es, k, v, &secs, why, sizeof why) < 0) {
        vr_judge(run, row, VD_C_NO, why, 0, 0);
        return;
    }
    row->seconds = secs;
    for (int i = 0; i < mi->num_events; i++)
        names[i] = mi->event_names[i];
    vk_known_counts(k, mi->num_events, names, v, n2, known, &tol);
    if (evaluate(mi, v, secs, "on the counts", &row->counted, why, sizeof why) < 0 ||
        (!q &&
         evaluate(mi, known, secs, "on the known counts", &row->expected, why, sizeof why) < 0)) {
        vr_judge(run, row, VD_C_BROKEN, why, 0, 0);
        return;
    }
    if (q) {
        row->expected = vk_expected_per_iter(k, q) * n2 / secs;
        tol = vk_tol_rel(k, q);
    }
    vr_judge(run, row, VD_C_YES, NULL, q && tol == 0 ? VR_TOL_ABS / secs : 0,
             tol > 0 ? tol
             : q     ? VR_TOL_REL
                     : VR_METRIC_TOL_REL);
}

/* The row of mi over kernel k (a rate when q, else a formula); -1 out of memory. */
static int metric_row(struct vr_run *run, int es, const char *why_not,
                      const PAPIM_metric_info_t *mi, const struct vk_kernel *k, const char *q)
{
    char lack[128];
    struct vr_row *row = vr_new_row(run, k->name, mi->name);
    if (!row)
        return -1;
    row->is_metric = 1;
    const char *missing = vr_kernel_missing(k, es, lack, sizeof lack);
    if (missing || es == PAPI_NULL)
        vr_judge(run, row, VD_C_NO, missing ? missing : why_not, 0, 0);
    else
        judge_metric(run, row, es, mi, k, q);
    return 0;
}

/* Every row of metric mi; -1 out of memory. */
static int check_metric(struct vr_run *run, const PAPIM_metric_info_t *mi)
{
    char why[PAPI_HUGE_STR_LEN];
    const char *names[PAPIM_MAX_EVENTS];
    const struct vk_kernel *fk = is_rate(mi) ? NULL : formula_kernel(mi);
    int defined = presets_defined(mi, why, sizeof why);
    if (!defined || (!is_rate(mi) && !fk)) { /* one row: why it is not checked */
        struct vr_row *row = vr_new_row(run, "-", mi->name);
        if (!row)
            return -1;
        row->is_metric = 1;
        vm_check_name(mi, why, sizeof why);
        vr_judge(run, row, defined ? VD_C_NO_KERNEL : VD_C_NO, why, 0, 0);
        return 0;
    }
    for (int i = 0; i < mi->num_events; i++)
        names[i] = mi->event_names[i];
    snprintf(why, sizeof why, "%s", mi->reason[0] ? mi->reason : "its events cannot be counted");
    int es = mi->countable ? vr_set_of(names, mi->num_events, why, sizeof why) : PAPI_NULL;
    int nk, ret = 0;
    const struct vk_kernel *ks = vk_kernels(&nk);
    if (fk)
        ret = metric_row(run, es, why, mi, fk, NULL);
    for (int i = 0; i < nk && !fk && ret == 0; i++)
        if (vk_determines(&ks[i], quantity(mi->name)))
            ret = metric_row(run, es, why, mi, &ks[i], quantity(mi->name));
    vr_free_set(es);
    return ret;
}

int vm_check_all(struct vr_run *run, const char *only)
{
    PAPIM_metric_info_t mi;
    int n = PAPIM_num_metrics();
    for (int m = 0; m < n; m++) {
        if (PAPIM_get_metric_info(m, &mi) != PAPI_OK || (only && strcmp(only, mi.name) != 0))
            continue;
        if (check_metric(run, &mi) < 0)
            return -1;
    }
    return 0;
}
