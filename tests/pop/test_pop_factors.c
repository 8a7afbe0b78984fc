/* test_pop_factors: the golden cases of one run's factors (pop_factors_cases.txt, whose
 * scalability and global lines check_pop_factors_cases.py runs against papi_report's
 * pop_factors.py) against the C formulas (src-c/common/pop_factors.c): MPI, host/device,
 * OpenMP per region, from summed sums and over a run's regions, and hybrid. White box: links the common objects.
 * Usage: test_pop_factors <pop_factors_cases.txt> */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_file.h"
#include "pop_factors.h"

#define MAX_FIELDS 4
#define MAX_VALUES 64

static int failures;

/* The numbers of text ("-": none), at most max; their count. */
static int numbers(char *text, double *v, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, " ", &save); tok && strcmp(tok, "-") != 0 && n < max;
         tok = strtok_r(NULL, " ", &save))
        v[n++] = strcmp(tok, "null") == 0 ? -1 : strtod(tok, NULL);
    return n;
}

/* got against the wanted factors (negative: null, not formed). */
static void expect(int lineno, const char *what, const double *got, char *want_text, int n)
{
    double want[MAX_VALUES];
    if (numbers(want_text, want, MAX_VALUES) != n) {
        printf("FAIL line %d: %d expected values wanted\n", lineno, n);
        failures++;
        return;
    }
    for (int i = 0; i < n; i++) {
        int ok = want[i] < 0 ? got[i] < 0
                             : fabs(got[i] - want[i]) <= 1e-12 * fmax(fabs(want[i]), 1e-300);
        if (!ok) {
            printf("FAIL line %d: %s factor %d = %.17g, want %.17g\n", lineno, what, i, got[i],
                   want[i]);
            failures++;
        }
    }
}

/* The ranks of an mpi or device case, added to p: "wall mpi waits [runtime useful comm]"
 * split at ";". */
static void add_ranks(struct pop_in *p, char *ranks)
{
    char *save = NULL;
    for (char *r = strtok_r(ranks, ";", &save); r; r = strtok_r(NULL, ";", &save)) {
        double v[6];
        int n = numbers(r, v, 6);
        if (n < 3)
            continue;
        pop_add(p, v[0], v[1], v[2]);
        if (n == 6)
            pop_add_device(p, v[3], v[4], v[5]);
    }
}

static void mpi_case(int lineno, char *field[])
{
    struct pop_in p = {0};
    add_ranks(&p, field[1]);
    struct pop_factors f = pop_factors(&p);
    double got[] = {f.parallel, f.load_balance, f.communication, f.serialisation, f.transfer};
    expect(lineno, "mpi", got, field[2], 5);
}

static void device_case(int lineno, char *field[])
{
    struct pop_in p = {0};
    add_ranks(&p, field[1]);
    struct pop_factors f = pop_factors(&p);
    double got[] = {f.offload, f.device_parallel, f.device_load_balance, f.device_communication,
                    f.device_orchestration};
    expect(lineno, "device", got, field[2], 5);
}

/* One region "wall_ns useful_ns..." added to sums (when not NULL); its factors. */
static struct pop_omp_factors region(char *text, struct pop_omp_in *sums)
{
    double v[MAX_VALUES];
    uint64_t useful[MAX_VALUES];
    int n = numbers(text, v, MAX_VALUES);
    for (int i = 1; i < n; i++)
        useful[i - 1] = (uint64_t)v[i];
    if (sums)
        sums->parallel_ns += n ? v[0] : 0;
    return pop_omp_region(useful, n > 1 ? (unsigned)n - 1 : 0, n ? (uint64_t)v[0] : 0, sums);
}

static void omp_region_case(int lineno, char *field[])
{
    struct pop_omp_factors f = region(field[1], NULL);
    double got[] = {f.load_balance, f.scheduling, f.parallel};
    expect(lineno, "omp_region", got, field[2], 3);
    if (f.serialization >= 0) {
        printf("FAIL line %d: a region's serialization formed\n", lineno);
        failures++;
    }
}

static void omp_factors_expect(int lineno, const char *what, struct pop_omp_factors f, char *want)
{
    double got[] = {f.serialization, f.load_balance, f.scheduling, f.parallel};
    expect(lineno, what, got, want, 4);
}

static void omp_sums_case(int lineno, char *field[])
{
    double v[5];
    if (numbers(field[2], v, 5) != 5) {
        printf("FAIL line %d: 5 sums wanted\n", lineno);
        failures++;
        return;
    }
    struct pop_omp_in s = {v[0], v[1], v[2], v[3]};
    enum pop_omp_cap cap = strcmp(field[1], "each") == 0 ? POP_CAP_EACH : POP_CAP_SERIALIZATION;
    omp_factors_expect(lineno, "omp_sums", pop_omp_factors(&s, v[4], cap), field[3]);
}

static void omp_run_case(int lineno, char *field[])
{
    struct pop_omp_in s = {0};
    char *save = NULL;
    for (char *r = strtok_r(field[1], ";", &save); r; r = strtok_r(NULL, ";", &save))
        region(r, &s);
    struct pop_omp_factors f = pop_omp_factors(&s, strtod(field[2], NULL), POP_CAP_SERIALIZATION);
    omp_factors_expect(lineno, "omp_run", f, field[3]);
}

/* "cpu_ns... / useful_ns..." of one region: its factors, added to sums. */
static struct pop_omp_cpu cpu_region(char *text, struct pop_omp_cpu_in *sums, int lineno)
{
    double c[MAX_VALUES], u[MAX_VALUES];
    uint64_t cpu[MAX_VALUES], useful[MAX_VALUES];
    char *slash = strchr(text, '/');
    int nc = slash ? (*slash = '\0', numbers(text, c, MAX_VALUES)) : -1;
    int nu = slash ? numbers(slash + 1, u, MAX_VALUES) : -2;
    if (nc != nu) {
        printf("FAIL line %d: as many CPU times as useful times wanted\n", lineno);
        failures++;
        nc = 0;
    }
    for (int i = 0; i < nc; i++)
        cpu[i] = (uint64_t)c[i], useful[i] = (uint64_t)u[i];
    return pop_omp_cpu_region(cpu, useful, (unsigned)nc, sums);
}

static void omp_cpu_case(int lineno, char *field[])
{
    struct pop_omp_cpu_in s = {0, 0, 0};
    struct pop_omp_cpu one = {-1, -1};
    int regions = 0;
    char *save = NULL;
    for (char *r = strtok_r(field[1], ";", &save); r; r = strtok_r(NULL, ";", &save), regions++)
        one = cpu_region(r, &s, lineno);
    struct pop_omp_cpu f = pop_omp_cpu_factors(&s);
    double got[] = {f.on_cpu, f.load_balance};
    char want[256]; /* expect() splits its text */
    snprintf(want, sizeof want, "%s", field[2]);
    expect(lineno, "omp_cpu", got, field[2], 2);
    if (regions == 1) {
        double region[] = {one.on_cpu, one.load_balance};
        expect(lineno, "omp_cpu (the region's own)", region, want, 2);
    }
}

static void hybrid_case(int lineno, char *field[])
{
    double v[2];
    numbers(field[1], v, 2);
    double got = pop_hybrid(v[0], v[1]);
    expect(lineno, "hybrid", &got, field[2], 1);
}

/* A case by its kind: the fields it has and the function that checks it; NULL: a factor
 * papi_report forms (between two runs), checked by check_pop_factors_cases.py, not counted
 * here. */
static int run_case(int lineno, char **field, int n, void *arg)
{
    (void)arg;
    static const struct {
        const char *kind;
        int fields;
        void (*check)(int, char *[]);
    } kinds[] = {{"mpi", 3, mpi_case},
                 {"device", 3, device_case},
                 {"omp_region", 3, omp_region_case},
                 {"omp_sums", 4, omp_sums_case},
                 {"omp_run", 4, omp_run_case},
                 {"omp_cpu", 3, omp_cpu_case},
                 {"hybrid", 3, hybrid_case},
                 {"scalability", 3, NULL},
                 {"global", 3, NULL}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcmp(field[0], kinds[k].kind) == 0 && n == kinds[k].fields) {
            if (!kinds[k].check)
                return 0;
            kinds[k].check(lineno, field);
            return 1;
        }
    printf("FAIL line %d: kind '%s' with %d fields unknown\n", lineno, field[0], n);
    failures++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s pop_factors_cases.txt\n", argv[0]);
        return 2;
    }
    int cases = case_file_each(argv[1], MAX_FIELDS, run_case, NULL);
    if (cases < 0)
        return 1;
    if (cases < 25) {
        printf("FAIL: %d cases read, 25 at least expected\n", cases);
        failures++;
    }
    printf("%d cases\ntest_pop_factors: %s\n", cases, failures ? "FAILED" : "PASSED");
    return failures != 0;
}
