/* validate_verdict.h: papi_validate's judgement of one check, a pure function of the
 * expected count, the counted one and the tolerance, so ctest can feed it recorded count
 * vectors (tests/validate/validate_vectors.txt) without a PMU. */
#ifndef VALIDATE_VERDICT_H
#define VALIDATE_VERDICT_H

#include <stddef.h>

enum vd_verdict { VD_PASS, VD_FAIL, VD_NOT_COUNTABLE, VD_NO_KERNEL };

/* What was counted: nothing (the event or kernel cannot run here), a count, a count from
 * which the value cannot be formed (a metric dividing by a 0 count: a failure), or no
 * kernel determines the event (listed, judged neither way). */
enum vd_countable { VD_C_NO = 0, VD_C_YES = 1, VD_C_BROKEN = 2, VD_C_NO_KERNEL = 3 };

/* One comparison. tol_abs + tol_rel * expected is the allowed |counted - expected|. */
struct vd_check {
    double expected;
    double counted;
    int countable;      /* enum vd_countable */
    const char *reason; /* why not VD_C_YES, else NULL */
    double tol_abs;
    double tol_rel;
};

struct vd_result {
    enum vd_verdict verdict;
    double ratio;     /* counted / expected (0 when not countable or expected is 0) */
    double tolerance; /* the allowed difference, in events */
    char why[1024];   /* "counted 0 of 800000 expected", "2.000x the expected count" */
};

void vd_judge(const struct vd_check *c, struct vd_result *r);

/* "pass", "fail", "not countable here", "no kernel". */
const char *vd_verdict_name(enum vd_verdict v);

/* papi_validate's exit status: 1 when a check failed, 0 when some passed and none
 * failed, 2 when nothing could be counted. */
int vd_exit_status(int passed, int failed, int not_countable);

#endif
