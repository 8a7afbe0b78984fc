/* metric_formula.c: a recursive-descent compiler of metric formulas to a small stack
 * program, and its evaluation (metric_formula.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_formula.h"
#include "papi.h"

struct compiler {
    const char *s, *start;
    struct metric_formula *f;
    char *err;
    size_t errlen;
    int failed;
};

static void fail(struct compiler *c, const char *what)
{
    if (!c->failed)
        snprintf(c->err, c->errlen, "%s at column %d of '%.160s'", what, (int)(c->s - c->start) + 1,
                 c->start);
    c->failed = 1;
}

static void skip_blanks(struct compiler *c)
{
    while (*c->s == ' ' || *c->s == '\t')
        c->s++;
}

static void emit(struct compiler *c, enum metric_op op, int term, double value)
{
    if (c->failed)
        return;
    if (c->f->nops == METRIC_MAX_OPS) {
        fail(c, "formula too long");
        return;
    }
    c->f->ops[c->f->nops].op = op;
    c->f->ops[c->f->nops].term = term;
    c->f->ops[c->f->nops].value = value;
    c->f->nops++;
}

static void term_ref(struct compiler *c, const char *name, size_t len)
{
    if (len == 0 || len >= METRIC_NAME_LEN) {
        fail(c, len ? "event name too long" : "empty event name");
        return;
    }
    struct metric_formula *f = c->f;
    for (int i = 0; i < f->nterms; i++)
        if (strlen(f->term[i]) == len && memcmp(f->term[i], name, len) == 0) {
            emit(c, MOP_TERM, i, 0);
            return;
        }
    if (f->nterms == METRIC_MAX_TERMS) {
        fail(c, "more than 16 event names");
        return;
    }
    memcpy(f->term[f->nterms], name, len);
    f->term[f->nterms][len] = '\0';
    emit(c, MOP_TERM, f->nterms++, 0);
}

static void expr(struct compiler *c);

static void factor(struct compiler *c)
{
    skip_blanks(c);
    const char *p = c->s;
    if (*p == '(') {
        c->s++;
        expr(c);
        skip_blanks(c);
        if (*c->s != ')')
            fail(c, "')' expected");
        else
            c->s++;
    } else if (*p == '-') {
        c->s++;
        factor(c);
        emit(c, MOP_NEG, 0, 0);
    } else if (isdigit((unsigned char)*p) || *p == '.') {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v)) {
            fail(c, "bad number");
            return;
        }
        c->s = end;
        emit(c, MOP_NUM, 0, v);
    } else if (*p == '{') {
        const char *close = strchr(p + 1, '}');
        if (!close) {
            fail(c, "'}' expected");
            return;
        }
        const char *open = memchr(p + 1, '{', (size_t)(close - p - 1));
        if (open) {
            c->s = open;
            fail(c, "'{' inside a braced name");
            return;
        }
        c->s = close + 1;
        term_ref(c, p + 1, (size_t)(close - p - 1));
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        c->s = p + n;
        if (n == 4 && memcmp(p, "time", 4) == 0) {
            c->f->uses_time = 1;
            emit(c, MOP_TIME, 0, 0);
        } else {
            term_ref(c, p, n);
        }
    } else {
        fail(c, *p ? "a number, time, an event name or '(' expected" : "formula ends early");
    }
}

/* One level of left-associative binary operators: operand, then (op operand)* where op is
 * one of ops[0] and ops[1], compiled to codes[0] and codes[1]. */
static void binary_level(struct compiler *c, void (*operand)(struct compiler *), const char ops[2],
                         const enum metric_op codes[2])
{
    operand(c);
    for (;;) {
        skip_blanks(c);
        char op = *c->s;
        if (c->failed || (op != ops[0] && op != ops[1]))
            return;
        c->s++;
        operand(c);
        emit(c, op == ops[0] ? codes[0] : codes[1], 0, 0);
    }
}

static void product(struct compiler *c)
{
    static const enum metric_op codes[2] = {MOP_MUL, MOP_DIV};
    binary_level(c, factor, "*/", codes);
}

static void expr(struct compiler *c)
{
    static const enum metric_op codes[2] = {MOP_ADD, MOP_SUB};
    binary_level(c, product, "+-", codes);
}

int metric_formula_compile(const char *text, struct metric_formula *f, char *err, size_t errlen)
{
    struct metric_formula scratch;
    memset(&scratch, 0, sizeof scratch);
    struct compiler c = {.s = text, .start = text, .f = &scratch, .err = err, .errlen = errlen};
    expr(&c);
    skip_blanks(&c);
    if (!c.failed && *c.s)
        fail(&c, "operator expected");
    if (!c.failed && scratch.nterms == 0 && !scratch.uses_time)
        fail(&c, "no event and no time");
    if (c.failed)
        return PAPI_EINVAL;
    *f = scratch;
    return PAPI_OK;
}

int metric_formula_eval(const struct metric_formula *f, const double *term_values, double seconds,
                        double *result, char *err, size_t errlen)
{
    double stack[METRIC_MAX_OPS];
    int from[METRIC_MAX_OPS]; /* the term a value is, -2 for time, -1 for an expression */
    int sp = 0;
    for (int i = 0; i < f->nops; i++) {
        switch (f->ops[i].op) {
        case MOP_TERM:
            from[sp] = f->ops[i].term;
            stack[sp++] = term_values[f->ops[i].term];
            continue;
        case MOP_NUM:
            from[sp] = -1;
            stack[sp++] = f->ops[i].value;
            continue;
        case MOP_TIME:
            from[sp] = -2;
            stack[sp++] = seconds;
            continue;
        case MOP_NEG:
            stack[sp - 1] = -stack[sp - 1];
            from[sp - 1] = -1;
            continue;
        default:
            break;
        }
        double b = stack[--sp], a = stack[sp - 1];
        if (f->ops[i].op == MOP_DIV && b == 0) {
            if (from[sp] >= 0)
                snprintf(err, errlen, "division by zero: %s counted 0", f->term[from[sp]]);
            else
                snprintf(err, errlen, "division by zero: %s is 0",
                         from[sp] == -2 ? "the time" : "a denominator");
            return PAPI_EINVAL;
        }
        stack[sp - 1] = f->ops[i].op == MOP_ADD   ? a + b
                        : f->ops[i].op == MOP_SUB ? a - b
                        : f->ops[i].op == MOP_MUL ? a * b
                                                  : a / b;
        from[sp - 1] = -1;
    }
    if (sp != 1 || !isfinite(stack[0])) {
        snprintf(err, errlen, "the formula gives no finite value");
        return PAPI_EINVAL;
    }
    *result = stack[0];
    return PAPI_OK;
}
