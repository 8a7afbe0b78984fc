/* metric_formula.h: a metric's formula, compiled once and evaluated on summed counts.
 * The syntax: numbers (1e9, 0.5), `time` (seconds), event names, + - * / and brackets.
 * A name made of letters, digits and _ stands alone (PAPI_TOT_INS); any other is in
 * braces ({perf::TASK-CLOCK}, {cpu::topdown-retiring}). A `*` in a braced name's PMU
 * ({uncore_imc_*::cas_count_read}) stands for every PMU of that pattern on the machine,
 * summed, and in a component event ({nvml:::*:gpm_sm_activity_ns}) for every event of
 * the component whose whole name matches: metric_table.c expands them. */
#ifndef METRIC_FORMULA_H
#define METRIC_FORMULA_H
#include <stddef.h>

#define METRIC_MAX_TERMS 16  /* distinct event names in one formula */
#define METRIC_MAX_OPS   128 /* compiled operations */
#define METRIC_NAME_LEN  256 /* an event name as written */

enum metric_op { MOP_TERM, MOP_NUM, MOP_TIME, MOP_ADD, MOP_SUB, MOP_MUL, MOP_DIV, MOP_NEG };

struct metric_formula {
    int nterms;
    char term[METRIC_MAX_TERMS][METRIC_NAME_LEN]; /* event names, first use order */
    int uses_time;
    int nops;
    struct {
        enum metric_op op;
        int term;     /* MOP_TERM */
        double value; /* MOP_NUM */
    } ops[METRIC_MAX_OPS];
};

/* Compile text into f; PAPI_OK, or PAPI_EINVAL with the reason (and the column) in err. */
int metric_formula_compile(const char *text, struct metric_formula *f, char *err, size_t errlen);

/* The value for the term values (one per f->term, already summed over threads, ranks or
 * instances) and seconds; PAPI_OK, or PAPI_EINVAL when a denominator is 0 (err names
 * it: the term, time, or "an expression") or the result is not finite. */
int metric_formula_eval(const struct metric_formula *f, const double *term_values, double seconds,
                        double *result, char *err, size_t errlen);

#endif
