/* test_validate_metric: papi_validate's metric checks against the recorded count vectors
 * of metric_vectors.txt, without a PMU: the kernel's known counts put in place of the
 * counted ones (vk_known_counts), both formulas evaluated by the library (PAPIM_evaluate),
 * the verdict judged (vd_judge) with the tolerance validate_metrics.c uses: IPC and CPI on
 * the known instructions pass, a TOT_INS counting twice fails at 2x, a miss ratio counted
 * 0 fails naming the 0, a ratio over nothing counted fails as "cannot be formed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_test.h"
#include "vector_file.h"
#include "validate_run.h"

static const struct vk_kernel *kernel(const char *name)
{
    int nk;
    const struct vk_kernel *ks = vk_kernels(&nk);
    for (int i = 0; i < nk; i++)
        if (strcmp(ks[i].name, name) == 0)
            return vk_ready(&ks[i]) ? NULL : &ks[i]; /* builds its working set */
    return NULL;
}

/* The counts of "EVENT=COUNT,..." in mi's order; 0, or -1 when one is not given. */
static int counts_of(const PAPIM_metric_info_t *mi, const char *list, long long *v)
{
    for (int i = 0; i < mi->num_events; i++) {
        char key[PAPI_2MAX_STR_LEN + 2];
        snprintf(key, sizeof key, "%s=", mi->event_names[i]);
        const char *at = strstr(list, key);
        if (!at)
            return -1;
        v[i] = atoll(at + strlen(key));
    }
    return 0;
}

static void judge_vector(const PAPIM_metric_info_t *mi, const struct vk_kernel *k, double steps,
                         double secs, const long long *v, struct vd_result *r)
{
    const char *names[PAPIM_MAX_EVENTS];
    long long known[PAPIM_MAX_EVENTS];
    double tol, expected = 0, counted = 0;
    for (int i = 0; i < mi->num_events; i++)
        names[i] = mi->event_names[i];
    int put = vk_known_counts(k, mi->num_events, names, v, steps, known, &tol);
    CHECK(put > 0, "%s: kernel %s determines none of its events", mi->name, k->name);
    int bad = PAPIM_evaluate(mi->name, mi->num_events, names, v, secs, &counted) != PAPI_OK ||
              PAPIM_evaluate(mi->name, mi->num_events, names, known, secs, &expected) != PAPI_OK;
    char reason[256];
    snprintf(reason, sizeof reason, "%s cannot be formed on the counts", mi->name);
    struct vd_check c = {expected,
                         counted,
                         bad ? VD_C_BROKEN : VD_C_YES,
                         bad ? reason : NULL,
                         0,
                         tol > 0 ? tol : VR_METRIC_TOL_REL};
    vd_judge(&c, r);
}

static int check_line(const char *line, int lineno)
{
    char metric[64], kname[32], list[256], want[32], text[256];
    double steps, secs;
    if (sscanf(line, "%63s %31s %lf %lf %255s %31s \"%255[^\"]\"", metric, kname, &steps, &secs,
               list, want, text) != 7)
        return 0;
    PAPIM_metric_info_t mi;
    long long v[PAPIM_MAX_EVENTS];
    const struct vk_kernel *k = kernel(kname);
    CHECK(k != NULL, "line %d: no runnable kernel %s", lineno, kname);
    CHECK(PAPIM_query_metric(metric, &mi) == PAPI_OK, "line %d: no metric %s", lineno, metric);
    CHECK(counts_of(&mi, list, v) == 0, "line %d: %s lacks a count of %s's events", lineno, list,
          metric);
    if (!k || counts_of(&mi, list, v) != 0)
        return 1;
    struct vd_result r;
    judge_vector(&mi, k, steps, secs, v, &r);
    const char *got = r.verdict == VD_PASS ? "pass" : r.verdict == VD_FAIL ? "fail" : "other";
    CHECK(strcmp(got, want) == 0, "line %d: %s, want %s (%s)", lineno, got, want, r.why);
    CHECK(strstr(r.why, text) != NULL, "line %d: reason '%s' lacks '%s'", lineno, r.why, text);
    printf("line %d: %s on %s: %s: %s\n", lineno, metric, kname, got, r.why);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_validate_metric VECTORS\n");
        return 2;
    }
    if (strcmp(vk_isa(), "none") == 0)
        test_skip(
            "papi_validate has no inline-assembly kernels for this ISA (x86-64 and arm64 only)");
    CHECK(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init failed");
    struct vk_mem_sizes sizes = {1L << 20, 8L << 20, 0, 0}; /* the vectors' stated sizes */
    vk_mem_configure(&sizes);
    int vectors = vector_file_each(argv[1], check_line);
    CHECK(vectors >= 10, "only %d vectors read", vectors);
    return test_done("test_validate_metric");
}
