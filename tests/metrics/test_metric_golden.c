/* test_metric_golden: every formula of every CPU table of presets/papi_metrics.csv on
 * count vectors whose results were worked out by hand here, zero denominators among
 * them; and the parser's refusals, each naming its line. White box (the table and the
 * formula code are internal), so it links the static library.
 * Usage: test_metric_golden <papi_metrics.csv> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_table.h"
#include "papi_test.h"

/* A metric's formula on term values a, b, c, d (in the order the formula first names
 * them) and seconds, with the value worked out by hand; NAN: a division by zero. */
struct golden {
    const char *metric;
    double a, b, c, d, seconds, expect;
};

static const struct golden goldens[] = {
    /* {perf::TASK-CLOCK} / 1e9 / time: 1.5 s of CPU in 2 s is 0.75 CPUs. */
    {"CPU_UTILIZATION", 1.5e9, 0, 0, 0, 2, 0.75},
    {"CPU_UTILIZATION", 0, 0, 0, 0, 2, 0},
    {"CPU_UTILIZATION", 1e9, 0, 0, 0, 0, NAN},
    /* PAPI_TOT_INS / PAPI_TOT_CYC, and its inverse. */
    {"IPC", 3000, 1200, 0, 0, 1, 2.5},
    {"IPC", 3000, 0, 0, 0, 1, NAN},
    {"CPI", 1200, 3000, 0, 0, 1, 0.4},
    {"CPI", 1200, 0, 0, 0, 1, NAN},
    /* PAPI_DP_OPS / time, PAPI_SP_OPS / time. */
    {"DP_FLOPS", 8e9, 0, 0, 0, 4, 2e9},
    {"DP_FLOPS", 8e9, 0, 0, 0, 0, NAN},
    {"SP_FLOPS", 6e9, 0, 0, 0, 3, 2e9},
    /* PAPI_L1_DCM / (PAPI_LD_INS + PAPI_SR_INS): 50 misses in 400 + 100 accesses. */
    {"L1D_MISS_RATIO", 50, 400, 100, 0, 1, 0.1},
    {"L1D_MISS_RATIO", 50, 0, 0, 0, 1, NAN},
    {"L2_MISS_RATIO", 30, 120, 0, 0, 1, 0.25},
    {"L3_MISS_RATIO", 7, 0, 0, 0, 1, NAN},
    {"L3_MISS_RATIO", 7, 28, 0, 0, 1, 0.25},
    {"BR_MISP_RATIO", 5, 200, 0, 0, 1, 0.025},
    /* CAS counts (one term: the pattern's PMUs already summed) * 64 bytes / time. */
    {"MEM_READ_BW", 1e9, 0, 0, 0, 2, 32e9},
    {"MEM_WRITE_BW", 5e8, 0, 0, 0, 2, 16e9},
    {"MEM_BW", 1e9, 5e8, 0, 0, 2, 48e9},
    {"MEM_BW", 1e9, 5e8, 0, 0, 0, NAN},
    /* Intel: topdown-* / slots. */
    {"TOPDOWN_RETIRING", 400, 1000, 0, 0, 1, 0.4},
    {"TOPDOWN_RETIRING", 400, 0, 0, 0, 1, NAN},
    {"TOPDOWN_BAD_SPECULATION", 100, 1000, 0, 0, 1, 0.1},
    {"TOPDOWN_FRONTEND_BOUND", 200, 1000, 0, 0, 1, 0.2},
    {"TOPDOWN_BACKEND_BOUND", 300, 1000, 0, 0, 1, 0.3},
    {"TOPDOWN_HEAVY_OPERATIONS", 50, 1000, 0, 0, 1, 0.05},
    {"TOPDOWN_BRANCH_MISPREDICTS", 80, 1000, 0, 0, 1, 0.08},
    {"TOPDOWN_FETCH_LATENCY", 120, 1000, 0, 0, 1, 0.12},
    {"TOPDOWN_MEMORY_BOUND", 250, 1000, 0, 0, 1, 0.25},
};

/* AMD's pipeline utilization: slots are width x cycles (Zen 4: 6, Zen 5: 8); terms are
 * retired ops / cycles, or dispatched ops / retired ops / cycles. */
struct amd_golden {
    const char *metric;
    double a, b, c, expect6, expect8;
};
static const struct amd_golden amd[] = {
    {"TOPDOWN_RETIRING", 2400, 1000, 0, 0.4, 0.3},             /* 2400 / (w * 1000) */
    {"TOPDOWN_BAD_SPECULATION", 3000, 2400, 1000, 0.1, 0.075}, /* (3000-2400) / (w*1000) */
    {"TOPDOWN_FRONTEND_BOUND", 1200, 1000, 0, 0.2, 0.15},
    {"TOPDOWN_BACKEND_BOUND", 1800, 1000, 0, 0.3, 0.225},
};

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-12 * fmax(1, fabs(want));
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        exit(1);
    static char buf[1 << 20];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static int check_metric(const char *cpu, const struct metric *m)
{
    int amd_width = strstr(cpu, "zen4") ? 6 : strstr(cpu, "zen5") ? 8 : 0;
    int checked = 0;
    if (amd_width && strncmp(m->name, "TOPDOWN_", 8) == 0) {
        for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
            if (strcmp(amd[i].metric, m->name) != 0)
                continue;
            double t[3] = {amd[i].a, amd[i].b, amd[i].c}, v = NAN;
            char why[512];
            int r = metric_formula_eval(&m->f, t, 1, &v, why, sizeof why);
            double want = amd_width == 6 ? amd[i].expect6 : amd[i].expect8;
            CHECK(r == PAPI_OK && close_to(v, want), "%s %s = %g, want %g (%s)", cpu, m->name, v,
                  want, r == PAPI_OK ? "ok" : why);
            checked++;
        }
        return checked;
    }
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const struct golden *g = &goldens[i];
        if (strcmp(g->metric, m->name) != 0)
            continue;
        double t[4] = {g->a, g->b, g->c, g->d}, v = -1;
        char why[512] = "";
        int r = metric_formula_eval(&m->f, t, g->seconds, &v, why, sizeof why);
        if (isnan(g->expect))
            CHECK(r == PAPI_EINVAL && strstr(why, "division by zero"),
                  "%s %s on a zero denominator: %d '%s'", cpu, m->name, r, why);
        else
            CHECK(r == PAPI_OK && close_to(v, g->expect), "%s %s = %g, want %g (%s)", cpu, m->name,
                  v, g->expect, why);
        checked++;
    }
    return checked;
}

/* Every CPU table of the file: each metric has golden vectors and they hold. */
static void every_table(const char *text, size_t len)
{
    const char *p = text;
    int tables = 0, metrics = 0;
    while ((p = strstr(p, "\nCPU,")) != NULL) {
        char cpu[64];
        p += 5;
        size_t n = strcspn(p, "\r\n");
        snprintf(cpu, sizeof cpu, "%.*s", (int)n, p);
        struct metric_table t;
        char err[1024];
        int r = metric_table_parse(text, len, "papi_metrics.csv", cpu, &t, err, sizeof err);
        CHECK(r == PAPI_OK, "table %s: %s", cpu, err);
        if (r != PAPI_OK)
            continue;
        tables++;
        for (int i = 0; i < t.count; i++) {
            int k = check_metric(cpu, &t.v[i]);
            CHECK(k > 0, "%s: metric %s has no golden vector in this test", cpu, t.v[i].name);
            metrics++;
        }
        metric_table_free(&t);
    }
    printf("%d CPU tables, %d metric definitions checked against hand-worked values\n", tables,
           metrics);
    CHECK(tables >= 8 && metrics >= 60, "tables %d, metrics %d", tables, metrics);
}

/* Malformed lines: refused, naming file and line, and nothing is kept. */
static void refusals(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"CPU,generic\nMETRIC,IPC,x,PAPI_TOT_INS /,desc\n",
         "t.csv:2: metric IPC: formula ends early"},
        {"CPU,generic\nMETRIC,IPC,x,(PAPI_TOT_INS,desc\n", "t.csv:2: metric IPC: ')' expected"},
        {"CPU,generic\nMETRIC,IPC,x,PAPI_TOT_INS PAPI_TOT_CYC,d\n",
         "t.csv:2: metric IPC: operator expected"},
        {"CPU,generic\nMETRIC,IPC,x,{perf::X,d\n", "'}' expected"},
        {"CPU,generic\nMETRIC,IPC,x,1 / 2,d\n", "no event and no time"},
        {"CPU,generic\nMETRIC,ipc,x,time,d\n", "t.csv:2: bad metric name 'ipc'"},
        {"CPU,generic\nMETRIC,IPC,x,time\n", "t.csv:2: METRIC line must be"},
        {"METRIC,IPC,x,time,d\n", "t.csv:1: METRIC line before any CPU line"},
        {"CPU,generic\n\nFOO,1\n", "t.csv:3: unknown line type 'FOO'"},
        {"CPU,generic\nGROUP,G,NOPE\n", "t.csv: group G names NOPE"},
        {"CPU,generic\nMETRIC,A,x,\"time,d\n", "t.csv:2: unbalanced quotes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct metric_table t;
        char err[1024] = "";
        int r =
            metric_table_parse(bad[i].text, strlen(bad[i].text), "t.csv", "x", &t, err, sizeof err);
        CHECK(r == PAPI_EINVAL && strstr(err, bad[i].want) && t.count == 0 && !t.v,
              "case %zu: %d '%s' (want '%s')", i, r, err, bad[i].want);
    }
    /* A CPU table replaces the generic metric of the same name, in either order. */
    const char *two = "CPU,mine\nMETRIC,IPC,a,time,own\nCPU,generic\nMETRIC,IPC,b,time,gen\n";
    struct metric_table t;
    char err[256];
    CHECK_RET(metric_table_parse(two, strlen(two), "t.csv", "mine", &t, err, sizeof err), PAPI_OK);
    CHECK(t.count == 1 && strcmp(t.v[0].description, "own") == 0, "own table wins");
    metric_table_free(&t);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_metric_golden papi_metrics.csv\n");
        return 2;
    }
    size_t len;
    char *text = slurp(argv[1], &len);
    every_table(text, len);
    refusals();
    return test_done("test_metric_golden");
}
