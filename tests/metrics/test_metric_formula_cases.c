/* test_metric_formula_cases: the metric grammar's golden cases (metric_formula_cases.txt,
 * which check_metric_formula_cases.py runs against papi_report's profile_metrics.py)
 * against the library's compiler and evaluator: the names each formula reads in
 * first-use order, its value, a zero denominator or an infinite value refused with the
 * reason, a formula refused at compile with the column. White box (metric_formula.c is
 * internal), so it links the static library.
 * Usage: test_metric_formula_cases <metric_formula_cases.txt> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_file.h"
#include "metric_formula.h"
#include "papi.h"
#include "papi_test.h"

#define MAX_FIELDS 5

static int close_to(double v, double want)
{
    return fabs(v - want) <= 1e-12 * fmax(fabs(want), 1e-300) || v == want;
}

/* The names as the compiler found them, blank separated, against the case's. */
static void check_names(int lineno, const struct metric_formula *f, const char *want)
{
    char got[4096] = "";
    size_t n = 0;
    for (int t = 0; t < f->nterms && n < sizeof got; t++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", t ? " " : "", f->term[t]);
    CHECK(strcmp(got, strcmp(want, "-") == 0 ? "" : want) == 0, "line %d: names '%s', want '%s'",
          lineno, got, want);
}

static int check_case(int lineno, char **field, int nfields, void *path)
{
    CHECK(nfields == MAX_FIELDS, "%s:%d: 5 fields expected", (const char *)path, lineno);
    if (nfields != MAX_FIELDS)
        return 1;
    const char *expect = field[4];
    struct metric_formula f;
    char why[512] = "";
    int rc = metric_formula_compile(field[0], &f, why, sizeof why);
    if (strcmp(expect, "refused") == 0) {
        CHECK(rc == PAPI_EINVAL && strstr(why, "column") != NULL,
              "line %d: '%s' refused with its column: %d '%s'", lineno, field[0], rc, why);
        return 1;
    }
    CHECK(rc == PAPI_OK, "line %d: '%s' compiles: %s", lineno, field[0], why);
    check_names(lineno, &f, field[1]);
    double values[METRIC_MAX_TERMS] = {0}, v = NAN;
    char *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(field[2], " ", &save); tok && strcmp(tok, "-") != 0 && n < f.nterms;
         tok = strtok_r(NULL, " ", &save))
        values[n++] = strtod(tok, NULL);
    CHECK(n == f.nterms, "line %d: %d values for %d names", lineno, n, f.nterms);
    why[0] = '\0';
    rc = metric_formula_eval(&f, values, strtod(field[3], NULL), &v, why, sizeof why);
    if (strcmp(expect, "zero") == 0)
        CHECK(rc == PAPI_EINVAL && strstr(why, "division by zero"),
              "line %d: '%s' on a zero denominator: %d '%s'", lineno, field[0], rc, why);
    else if (strcmp(expect, "infinite") == 0)
        CHECK(rc == PAPI_EINVAL && strstr(why, "no finite value"),
              "line %d: '%s' not finite: %d '%s'", lineno, field[0], rc, why);
    else
        CHECK(rc == PAPI_OK && close_to(v, strtod(expect, NULL)),
              "line %d: '%s' = %.17g, want %s (%s)", lineno, field[0], v, expect, why);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s metric_formula_cases.txt\n", argv[0]);
        return 2;
    }
    int cases = case_file_each(argv[1], MAX_FIELDS, check_case, argv[1]);
    if (cases < 0)
        return 1;
    CHECK(cases >= 40, "%d cases read", cases);
    printf("%d cases\n", cases);
    return test_done("test_metric_formula_cases");
}
