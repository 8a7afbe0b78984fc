/* validate_run.c: papi_validate's preset checks. For every preset a kernel determines
 * (validate_kernels_*.c), the preset must be one this CPU's table defines; then each
 * kernel is counted with the preset alone in a set (no multiplexing), as the difference
 * of n and 2n iterations. The metrics' checks are validate_metrics.c's. */
#include "validate_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_metrics.h"
#include "util_common.h"

/* 1 when preset name is defined by this CPU's table (info filled), else 0. An
 * unavailable preset has no native events in its info; the library's note then says
 * whether the table lacks it ("no definition in the table ...", "... does not define
 * it", a rejected file) or its events do not open (defined: a check to report). */
int vr_preset_defined(const char *name, PAPI_event_info_t *info)
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
    int code, nk;
    if (PAPIM_query_metric(name, &mi) == PAPI_OK)
        return vm_check_name(&mi, why, len);
    if (strncmp(name, "PAPI_", 5) != 0 || PAPI_event_name_to_code(name, &code) != PAPI_OK) {
        snprintf(why, len,
                 "unknown preset or metric '%s' (papi_avail and papi_metric_avail list them)",
                 name);
        return 0;
    }
    if (!vr_preset_defined(name, &info)) {
        snprintf(why, len, "%s is not defined for this CPU: %s", name,
                 info.note[0] ? info.note : "its preset table has no definition");
        return 0;
    }
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk; i++)
        if (vk_determines(&ks[i], name))
            return 1;
    snprintf(why, len,
             "no kernel of papi_validate (%s) determines %s; --list shows what each kernel checks",
             vk_isa(), name);
    return 0;
}

struct vr_row *vr_new_row(struct vr_run *run, const char *kernel, const char *event)
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
    snprintf(row->kernel, sizeof row->kernel, "%s", kernel);
    snprintf(row->event, sizeof row->event, "%s", event);
    row->iterations = run->iterations;
    return row;
}

void vr_judge(struct vr_run *run, struct vr_row *row, int countable, const char *reason,
              double tol_abs, double tol_rel)
{
    struct vd_check c = {row->expected, row->counted, countable, reason, tol_abs, tol_rel};
    vd_judge(&c, &row->res);
    if (row->res.verdict == VD_PASS)
        run->passed++;
    else if (row->res.verdict == VD_FAIL)
        run->failed++;
    else if (row->res.verdict == VD_NO_KERNEL)
        run->no_kernel++;
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
int vr_set_of(const char *const *names, int n, char *why, size_t len)
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

void vr_free_set(int es)
{
    if (es == PAPI_NULL)
        return;
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

/* Why kernel k cannot run here, in buf; NULL when it can. Its working set is built only
 * when es, its event set, opened (nothing is built for rows that cannot count). */
const char *vr_kernel_missing(const struct vk_kernel *k, int es, char *buf, size_t len)
{
    const char *lack = es == PAPI_NULL ? k->missing() : vk_ready(k);
    if (!lack)
        return NULL;
    snprintf(buf, len, "kernel %s cannot run here: it needs %s", k->name, lack);
    return buf;
}

/* Every row of preset name (one per kernel that determines it); -1 out of memory. */
static int check_preset(struct vr_run *run, const char *name)
{
    PAPI_event_info_t info;
    if (!vr_preset_defined(name, &info))
        return 0; /* not this CPU's preset: nothing to check */
    char why[PAPI_HUGE_STR_LEN], lack[128];
    int es = vr_set_of(&name, 1, why, sizeof why);
    int nk, ret = 0;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk && ret == 0; i++) {
        if (!vk_determines(&ks[i], name))
            continue;
        struct vr_row *row = vr_new_row(run, ks[i].name, name);
        if (!row) {
            ret = -1;
            break;
        }
        const char *missing = vr_kernel_missing(&ks[i], es, lack, sizeof lack);
        double tol_rel = vk_tol_rel(&ks[i], name) > 0 ? vk_tol_rel(&ks[i], name) : VR_TOL_REL;
        if (!missing)
            row->expected = vk_expected_per_iter(&ks[i], name) * (double)run->iterations;
        if (missing)
            vr_judge(run, row, 0, missing, VR_TOL_ABS, tol_rel);
        else if (es == PAPI_NULL || measure(run, es, &ks[i], &row->counted, why, sizeof why) < 0)
            vr_judge(run, row, 0, why, VR_TOL_ABS, tol_rel);
        else
            vr_judge(run, row, 1, NULL, VR_TOL_ABS, tol_rel);
    }
    vr_free_set(es);
    return ret;
}

/* The presets the kernels determine, each once, in the kernels' order (the memory
 * kernels' MEM_*_BW are metrics: validate_metrics.c). */
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
            if (!seen && n < max && strncmp(e, "PAPI_", 5) == 0) /* else a metric's */
                out[n++] = e;
        }
    return n;
}

/* The size in bytes of cache level (1-based; data or unified), 0 when the library has
 * none. */
static long cache_size(int level)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    if (!hw || hw->mem_hierarchy.levels < level)
        return 0;
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        const PAPI_mh_cache_info_t *c = &hw->mem_hierarchy.level[level - 1].cache[j];
        int t = PAPI_MH_CACHE_TYPE(c->type);
        if (t == PAPI_MH_TYPE_DATA || t == PAPI_MH_TYPE_UNIFIED)
            return c->size;
    }
    return 0;
}

void vr_configure_kernels(int quick)
{
    struct vk_mem_sizes s = {cache_size(2), cache_size(3), 0, quick ? VR_QUICK_SET : 0};
    vk_mem_configure(&s);
}

int vr_run_all(const struct vr_options *o, struct vr_run *run)
{
    const char *events[64];
    int ne = kernel_events(events, 64), ret = 0;
    memset(run, 0, sizeof *run);
    run->iterations = o->quick ? 50000 : 1000000;
    run->repeats = o->quick ? 1 : 3;
    vr_configure_kernels(o->quick);
    for (int i = 0; i < ne && ret == 0; i++)
        if (!o->only || strcmp(o->only, events[i]) == 0)
            ret = check_preset(run, events[i]);
    if (ret == 0)
        ret = vm_check_all(run, o->only);
    return ret;
}

void vr_free(struct vr_run *run)
{
    free(run->rows);
    memset(run, 0, sizeof *run);
}
