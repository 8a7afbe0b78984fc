/* preset_rpn.c: compile a DERIVED_POSTFIX formula ("N0|N1|4|*|+|") into rpn_step
 * arrays. Everything preset_compute relies on is proven here: every operator finds two
 * operands, every N<i> names an existing term, the formula leaves exactly one value. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_rpn.h"

/* Constants are "small integers" in the format; a bound keeps the products of a few
 * terms far from overflow in practice and rejects garbage early. */
#define RPN_MAX_CONST 1000000000LL

__attribute__((format(printf, 3, 4))) static int rpn_fail(char *err, size_t errlen, const char *fmt,
                                                          ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return PAPI_EINVAL;
}

int preset_rpn_compile(const char *postfix, int nterms, struct preset_def *def, char *err,
                       size_t errlen)
{
    int depth = 0, nsteps = 0;
    const char *p = postfix;
    char tok[32];

    if (!postfix || !*postfix)
        return rpn_fail(err, errlen, "empty postfix formula");
    if (strlen(postfix) >= sizeof def->postfix)
        return rpn_fail(err, errlen, "postfix formula longer than 255 characters");
    while (*p) {
        size_t n = strcspn(p, "|");
        if (n == 0) { /* tolerate "||" and the customary trailing "|" */
            p++;
            continue;
        }
        if (n >= sizeof tok)
            return rpn_fail(err, errlen, "postfix token too long near '%.20s'", p);
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        if (nsteps >= RPN_MAX_STEPS)
            return rpn_fail(err, errlen, "postfix formula has more than %d tokens", RPN_MAX_STEPS);
        struct rpn_step *s = &def->steps[nsteps];
        if (tok[0] == 'N' && tok[1]) {
            char *end;
            long v;
            for (const char *c = tok + 1; *c; c++)
                if (!isdigit((unsigned char)*c))
                    return rpn_fail(err, errlen, "bad postfix operand '%s' (expected N<digits>)",
                                    tok);
            v = strtol(tok + 1, &end, 10);
            if (v < 0 || v >= nterms)
                return rpn_fail(err, errlen,
                                "postfix operand '%s' names a native term that is not listed", tok);
            s->kind = RPN_TERM;
            s->value = v;
            depth++;
        } else if (isdigit((unsigned char)tok[0])) {
            char *end;
            for (const char *c = tok; *c; c++)
                if (!isdigit((unsigned char)*c))
                    return rpn_fail(err, errlen, "bad postfix constant '%s'", tok);
            long long v = strtoll(tok, &end, 10);
            if (v > RPN_MAX_CONST)
                return rpn_fail(err, errlen, "postfix constant '%s' is too large", tok);
            s->kind = RPN_CONST;
            s->value = v;
            depth++;
        } else if (n == 1 && strchr("+-*/", tok[0])) {
            if (depth < 2)
                return rpn_fail(err, errlen, "postfix operator '%s' lacks two operands", tok);
            s->kind = tok[0] == '+'   ? RPN_ADD
                      : tok[0] == '-' ? RPN_SUB
                      : tok[0] == '*' ? RPN_MUL
                                      : RPN_DIV;
            s->value = 0;
            depth--;
        } else {
            return rpn_fail(err, errlen, "unknown postfix token '%s'", tok);
        }
        nsteps++;
    }
    if (depth != 1)
        return depth ? rpn_fail(err, errlen, "postfix formula leaves %d values, not one", depth)
                     : rpn_fail(err, errlen, "postfix formula has no operand");
    def->nsteps = nsteps;
    papi_strcpy(def->postfix, sizeof def->postfix, postfix);
    return PAPI_OK;
}
