/* validate_verdict.c: pass, fail or not countable for one check of papi_validate (a
 * pure function: no PAPI call, no I/O). */
#include "validate_verdict.h"

#include <math.h>
#include <stdio.h>

const char *vd_verdict_name(enum vd_verdict v)
{
    switch (v) {
    case VD_PASS:
        return "pass";
    case VD_FAIL:
        return "fail";
    case VD_NO_KERNEL:
        return "no kernel";
    default:
        return "not countable here";
    }
}

/* A count as a whole number; a metric's value (IPC 0.0625) with its significant digits. */
struct num {
    char s[32];
};
static struct num num(double x)
{
    struct num n;
    snprintf(n.s, sizeof n.s, fabs(x) >= 100 || x == floor(x) ? "%.0f" : "%.4g", x);
    return n;
}

static void judge_counted(const struct vd_check *c, struct vd_result *r)
{
    double diff = fabs(c->counted - c->expected);
    if (c->counted == 0 && c->expected != 0) {
        r->verdict = VD_FAIL;
        snprintf(r->why, sizeof r->why, "counted 0 of %s expected: the event counts nothing",
                 num(c->expected).s);
    } else if (c->counted < 0) {
        r->verdict = VD_FAIL;
        snprintf(r->why, sizeof r->why, "counted %s: a negative count", num(c->counted).s);
    } else if (diff <= r->tolerance) {
        r->verdict = VD_PASS;
        snprintf(r->why, sizeof r->why, "within %s of the expected count", num(r->tolerance).s);
    } else {
        r->verdict = VD_FAIL;
        snprintf(r->why, sizeof r->why, "counted %s, %.3fx the expected %s (off by %s, allowed %s)",
                 num(c->counted).s, r->ratio, num(c->expected).s, num(diff).s, num(r->tolerance).s);
    }
}

void vd_judge(const struct vd_check *c, struct vd_result *r)
{
    r->ratio = 0;
    r->tolerance = c->tol_abs + c->tol_rel * fabs(c->expected);
    r->why[0] = '\0';
    if (c->countable != VD_C_YES) {
        static const enum vd_verdict v[] = {VD_NOT_COUNTABLE, VD_PASS, VD_FAIL, VD_NO_KERNEL};
        r->verdict = c->countable >= 0 && c->countable <= 3 ? v[c->countable] : VD_FAIL;
        snprintf(r->why, sizeof r->why, "%s", c->reason ? c->reason : "no reason given");
        return;
    }
    if (c->expected != 0)
        r->ratio = c->counted / c->expected;
    judge_counted(c, r);
}

int vd_exit_status(int passed, int failed, int not_countable)
{
    (void)not_countable;
    if (failed > 0)
        return 1;
    return passed > 0 ? 0 : 2;
}
