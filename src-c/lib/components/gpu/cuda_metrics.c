/* cuda_metrics.c: a chip's metric list, from the cache or through the Profiler Host API
 * (cuda_metrics.h). The host object is made from the chip's name alone (no counter
 * availability image, which needs a context): listing creates no CUDA context. The cache
 * file is written whole under a temporary name and renamed, so a reader never sees half
 * of one; a cache that cannot be written is no error (the next probe lists again). A
 * privileged process (env_get: AT_SECURE) reads no cache directory and lists every time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "component.h"
#include "cuda_libs.h"
#include "cuda_metrics.h"
#include "env.h"

#define CACHE_MAGIC "# papi-compat cuda metrics 1"

void cuda_metrics_free(struct cuda_metric_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->m[i].name);
        free(l->m[i].units);
        free(l->m[i].descr);
    }
    free(l->m);
    memset(l, 0, sizeof *l);
}

static int append(struct cuda_metric_list *l, const char *name, const char *units,
                  const char *descr)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        struct cuda_metric *m = realloc(l->m, (size_t)cap * sizeof *m);
        if (!m)
            return PAPI_ENOMEM;
        l->m = m;
        l->cap = cap;
    }
    struct cuda_metric *e = &l->m[l->n];
    e->name = strdup(name);
    e->units = strdup(units ? units : "");
    e->descr = strdup(descr ? descr : "");
    if (!e->name || !e->units || !e->descr) {
        free(e->name);
        free(e->units);
        free(e->descr);
        return PAPI_ENOMEM;
    }
    l->n++;
    return PAPI_OK;
}

/* ---- the cache --------------------------------------------------------------------- */
static int cache_path(const char *chip, int driver, char *path, size_t len)
{
    const char *xdg = env_get("XDG_CACHE_HOME"), *home = env_get("HOME");
    char dir[3072];
    if (xdg && xdg[0] == '/')
        snprintf(dir, sizeof dir, "%s/papi-compat", xdg);
    else if (home && home[0] == '/')
        snprintf(dir, sizeof dir, "%s/.cache/papi-compat", home);
    else
        return -1;
    for (const char *c = chip; *c; c++)
        if (*c == '/' || *c == '\t' || *c == '\n')
            return -1; /* a name that is no file name: not cached */
    return (size_t)snprintf(path, len, "%s/cuda-%s-driver%d-cupti%u.tsv", dir, chip, driver,
                            cuda_lib.cupti.version) < len
               ? 0
               : -1;
}

/* Strip the line's end; split "name\tunits\tdescr". */
static int parse_line(char *line, char **name, char **units, char **descr)
{
    line[strcspn(line, "\n")] = '\0';
    char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t2)
        return -1;
    *t1 = *t2 = '\0';
    *name = line;
    *units = t1 + 1;
    *descr = t2 + 1;
    return 0;
}

static int cache_read(const char *path, struct cuda_metric_list *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int ok = getline(&line, &cap, f) > 0 && strncmp(line, CACHE_MAGIC, strlen(CACHE_MAGIC)) == 0;
    while (ok && getline(&line, &cap, f) > 0) {
        char *name, *units, *descr;
        ok = parse_line(line, &name, &units, &descr) == 0 &&
             append(out, name, units, descr) == PAPI_OK;
    }
    free(line);
    fclose(f);
    if (!ok || out->n == 0) {
        cuda_metrics_free(out);
        return -1; /* damaged: listed anew and rewritten */
    }
    out->from_cache = 1;
    return 0;
}

static void make_parent(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                return;
            *p = '/';
        }
}

static void cache_write(const char *path, const struct cuda_metric_list *l)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    make_parent(path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int ok = fprintf(f, "%s\n", CACHE_MAGIC) > 0;
    for (int i = 0; ok && i < l->n; i++)
        ok = fprintf(f, "%s\t%s\t%s\n", l->m[i].name, l->m[i].units, l->m[i].descr) > 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

/* ---- the Profiler Host API ----------------------------------------------------------- */
/* Tabs and newlines would break the cache's lines: blanks instead. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r')
            *s = ' ';
}

static int list_base(CUpti_Profiler_Host_Object *host, CUpti_MetricType type, const char *base,
                     struct cuda_metric_list *out)
{
    CUpti_Profiler_Host_GetMetricProperties_Params prop = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetMetricProperties_Params, metricType),
        .pHostObject = host,
        .pMetricName = base};
    char descr[1024] = "", units[128] = "";
    if (cuda_lib.cuptiProfilerHostGetMetricProperties(&prop) == CUPTI_SUCCESS) {
        snprintf(descr, sizeof descr, "%s", prop.pDescription ? prop.pDescription : "");
        snprintf(units, sizeof units, "%s", prop.pDimUnit ? prop.pDimUnit : "");
        one_line(descr);
        one_line(units);
    }
    CUpti_Profiler_Host_GetSubMetrics_Params sub = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetSubMetrics_Params, ppSubMetrics),
        .pHostObject = host,
        .metricType = type,
        .pMetricName = base};
    if (cuda_lib.cuptiProfilerHostGetSubMetrics(&sub) != CUPTI_SUCCESS || sub.numOfSubmetrics == 0)
        return append(out, base, units, descr); /* no rollup (launch__grid_size): alone */
    for (size_t i = 0; i < sub.numOfSubmetrics; i++) {
        char name[512];
        if ((size_t)snprintf(name, sizeof name, "%s%s", base, sub.ppSubMetrics[i]) >= sizeof name)
            continue;
        one_line(name);
        int ret = append(out, name, units, descr);
        if (ret != PAPI_OK)
            return ret;
    }
    return PAPI_OK;
}

static int list_host(const char *chip, struct cuda_metric_list *out, char *reason, size_t len)
{
    CUpti_Profiler_Host_Initialize_Params init = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_Initialize_Params, pHostObject),
        .profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER,
        .pChipName = chip};
    CUptiResult r = cuda_lib.cuptiProfilerHostInitialize(&init);
    if (r != CUPTI_SUCCESS) {
        snprintf(reason, len, "cuptiProfilerHostInitialize for chip %s failed: %s", chip,
                 cuda_cupti_words(r));
        return PAPI_ECMP;
    }
    int ret = PAPI_OK;
    for (CUpti_MetricType t = 0; ret == PAPI_OK && t < CUPTI_METRIC_TYPES; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params base = {
            .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics),
            .pHostObject = init.pHostObject,
            .metricType = t};
        if (cuda_lib.cuptiProfilerHostGetBaseMetrics(&base) != CUPTI_SUCCESS)
            continue;
        for (size_t i = 0; ret == PAPI_OK && i < base.numMetrics; i++)
            ret = list_base(init.pHostObject, t, base.ppMetricNames[i], out);
    }
    CUpti_Profiler_Host_Deinitialize_Params fini = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_Deinitialize_Params, pHostObject),
        .pHostObject = init.pHostObject};
    cuda_lib.cuptiProfilerHostDeinitialize(&fini);
    if (ret == PAPI_OK && out->n == 0) {
        snprintf(reason, len, "CUPTI lists no metric for chip %s", chip);
        ret = PAPI_ECMP;
    }
    if (ret != PAPI_OK)
        cuda_metrics_free(out);
    return ret;
}

int cuda_metrics_list(const char *chip, int driver, struct cuda_metric_list *out, char *reason,
                      size_t len)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    int cached = cache_path(chip, driver, path, sizeof path) == 0;
    if (cached && cache_read(path, out) == 0)
        return PAPI_OK;
    int ret = list_host(chip, out, reason, len);
    if (ret == PAPI_OK && cached)
        cache_write(path, out);
    return ret;
}
