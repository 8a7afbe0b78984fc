/* test_validate_verdict: papi_validate's verdict (vd_judge, vd_exit_status) against the
 * recorded count vectors of validate_vectors.txt: a right preset passes, one off by 2x
 * fails with its ratio, one that counts 0 fails naming the 0, one that cannot be
 * counted is "not countable here" with its reason, a metric that cannot be formed fails,
 * one no kernel determines is "no kernel". No PMU needed. */
#include <stdio.h>
#include <string.h>

#include "papi_test.h"
#include "vector_file.h"
#include "validate_verdict.h"

static const char *verdict_word(enum vd_verdict v)
{
    return v == VD_PASS        ? "pass"
           : v == VD_FAIL      ? "fail"
           : v == VD_NO_KERNEL ? "no_kernel"
                               : "not_countable";
}

/* One vector line; returns 1 when it was a vector. */
static int check_line(const char *line, int lineno)
{
    struct vd_check c = {0};
    char want[32], text[256];
    if (sscanf(line, "%lf %lf %d %lf %lf %31s \"%255[^\"]\"", &c.expected, &c.counted, &c.countable,
               &c.tol_abs, &c.tol_rel, want, text) != 7)
        return 0;
    c.reason = c.countable == VD_C_YES ? NULL : text;
    struct vd_result r;
    vd_judge(&c, &r);
    CHECK(strcmp(verdict_word(r.verdict), want) == 0, "line %d: verdict %s, want %s (%s)", lineno,
          verdict_word(r.verdict), want, r.why);
    CHECK(strstr(r.why, text) != NULL, "line %d: reason '%s' lacks '%s'", lineno, r.why, text);
    printf("line %d: %s: %s\n", lineno, vd_verdict_name(r.verdict), r.why);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_validate_verdict VECTORS\n");
        return 2;
    }
    int vectors = vector_file_each(argv[1], check_line);
    CHECK(vectors >= 10, "only %d vectors read", vectors);
    /* The exit status: a failure wins, then a pass, else nothing was countable. */
    CHECK_EQ_LL(vd_exit_status(10, 1, 3), 1);
    CHECK_EQ_LL(vd_exit_status(10, 0, 3), 0);
    CHECK_EQ_LL(vd_exit_status(0, 0, 54), 2);
    CHECK_EQ_LL(vd_exit_status(0, 0, 0), 2);
    return test_done("test_validate_verdict");
}
