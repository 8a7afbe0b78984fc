/* preset_rpn.h: postfix formulas compiled (preset_rpn.c). */
#ifndef PRESET_RPN_H
#define PRESET_RPN_H

#include <stddef.h>

#include "preset_def.h"

/* Compile postfix into def->steps (and copy it to def->postfix); nterms bounds N<i>. */
PAPI_INTERNAL int preset_rpn_compile(const char *postfix, int nterms, struct preset_def *def,
                                     char *err, size_t errlen);

#endif
