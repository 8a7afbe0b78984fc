/* test_postfix_saturation: derived arithmetic never traps and never overflows
 * undefinedly: results past the range of long long saturate (LLONG_MAX / LLONG_MIN by
 * the sign of the true result), LLONG_MIN / -1 is LLONG_MAX (it was SIGFPE), x / 0 is 0.
 * White box (preset_rpn_compile, preset_compute); the sanitizer lane runs it with UBSan. */
#include <limits.h>

#include "papi_test.h"
#include "preset_events.h"
#include "preset_tables.h"

static long long eval(const char *postfix, long long a, long long b)
{
    static struct preset_def def;
    char err[256];
    long long t[2] = {a, b};
    memset(&def, 0, sizeof def);
    def.op = DERIVE_POSTFIX;
    def.nterms = 2;
    if (preset_rpn_compile(postfix, 2, &def, err, sizeof err) != PAPI_OK) {
        CHECK(0, "%s does not compile: %s", postfix, err);
        return 0;
    }
    return preset_compute(&def, t);
}

static long long plain(enum derive_op op, long long a, long long b)
{
    static struct preset_def def;
    long long t[2] = {a, b};
    memset(&def, 0, sizeof def);
    def.op = op;
    def.nterms = 2;
    return preset_compute(&def, t);
}

int main(void)
{
    CHECK_EQ_LL(eval("N0|N1|/|", LLONG_MIN, -1), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|N1|/|", 7, 0), 0);
    CHECK_EQ_LL(eval("N0|N1|/|", -7, 2), -3);
    CHECK_EQ_LL(eval("N0|N1|*|", 1LL << 62, 4), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|N1|*|", -(1LL << 62), 4), LLONG_MIN);
    CHECK_EQ_LL(eval("N0|N1|*|", LLONG_MIN, -1), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|N1|+|", LLONG_MAX, 1), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|N1|+|", LLONG_MIN, -1), LLONG_MIN);
    CHECK_EQ_LL(eval("N0|N1|-|", LLONG_MIN, 1), LLONG_MIN);
    CHECK_EQ_LL(eval("N0|N1|-|", LLONG_MAX, -1), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|1000000000|*|1000000000|*|1000000000|*|N1|+|", 10, 5), LLONG_MAX);
    CHECK_EQ_LL(eval("N0|N1|-|2|/|", 100, 40), 30); /* ordinary values stay exact */
    CHECK_EQ_LL(plain(DERIVE_ADD, LLONG_MAX, 5), LLONG_MAX);
    CHECK_EQ_LL(plain(DERIVE_SUB, LLONG_MIN, 5), LLONG_MIN);
    CHECK_EQ_LL(plain(DERIVE_ADD, 3, 4), 7);
    return test_done("test_postfix_saturation");
}
