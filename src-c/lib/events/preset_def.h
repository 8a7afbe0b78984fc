/* preset_def.h: a preset's definition as the tables hold it and the counting core
 * computes it, a leaf of events/. */
#ifndef PRESET_DEF_H
#define PRESET_DEF_H

#include "papi_globals.h"

#define PRESET_MAX_TERMS PAPI_MAX_INFO_TERMS
enum derive_op { DERIVE_NONE = 0, DERIVE_ADD, DERIVE_SUB, DERIVE_POSTFIX, DERIVE_CMPD };
struct rpn_step { /* one token of a compiled postfix formula */
    enum { RPN_TERM, RPN_CONST, RPN_ADD, RPN_SUB, RPN_MUL, RPN_DIV } kind;
    long long value; /* term index or constant */
};
#define RPN_MAX_STEPS 64
struct preset_def {
    int nterms;
    int native_code[PRESET_MAX_TERMS];
    enum derive_op op;
    int nsteps;
    struct rpn_step steps[RPN_MAX_STEPS];
    char postfix[PAPI_2MAX_STR_LEN];
    char note[PAPI_HUGE_STR_LEN];
};

#endif
