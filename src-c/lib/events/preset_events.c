/* preset_events.c: preset names, codes, descriptions and the value of a derived preset.
 * Which native events a preset stands for on this CPU is decided by preset_tables.c. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_native.h"
#include "preset_catalog.h"
#include "preset_csv_parser.h"
#include "preset_events.h"
#include "preset_tables.h"

static int preset_index(int code)
{
    if (!IS_PRESET(code))
        return -1;
    int idx = code & PAPI_PRESET_AND_MASK;
    return idx < PAPI_END_idx ? idx : -1;
}

int preset_name_to_code(const char *name, int *code)
{
    int i = preset_catalog_index(name);
    if (i < 0)
        return PAPI_ENOEVNT;
    *code = i | PAPI_PRESET_MASK;
    return PAPI_OK;
}

int preset_code_to_name(int code, char *out, size_t len)
{
    int idx = preset_index(code);
    if (idx < 0)
        return papi_error(PAPI_ENOTPRESET, "0x%x is not a preset code", (unsigned)code);
    if (papi_strcpy(out, len, preset_catalog[idx].name))
        return papi_error(PAPI_EBUF, "preset name does not fit in the buffer");
    return PAPI_OK;
}

const struct preset_def *preset_lookup(int code)
{
    int idx = preset_index(code);
    if (idx < 0)
        return NULL;
    return preset_tables_get(idx);
}

/* Enumeration end is reported without papi_error: it is how enumeration stops. */
int preset_enum(int *code, int modifier)
{
    int idx;
    if (modifier == PAPI_ENUM_FIRST) {
        *code = PAPI_PRESET_MASK;
        return PAPI_OK;
    }
    idx = preset_index(*code);
    if (idx < 0)
        return papi_error(PAPI_ENOTPRESET, "0x%x is not a preset code", (unsigned)*code);
    unsigned want = 0;
    if (modifier >= PAPI_PRESET_ENUM_MSC && modifier <= PAPI_PRESET_ENUM_FP)
        want = 1u << modifier;
    else if (modifier != PAPI_ENUM_EVENTS && modifier != PAPI_PRESET_ENUM_AVAIL)
        return papi_error(PAPI_EINVAL, "enumeration modifier %d is not valid for presets",
                          modifier);
    for (int i = idx + 1; i < PAPI_END_idx; i++) {
        if (want && !(preset_catalog[i].categories & want))
            continue;
        if (modifier == PAPI_PRESET_ENUM_AVAIL && !preset_tables_get(i))
            continue;
        *code = i | PAPI_PRESET_MASK;
        return PAPI_OK;
    }
    return PAPI_ENOEVNT;
}

int preset_get_info(int code, PAPI_event_info_t *info)
{
    int idx = preset_index(code);
    if (idx < 0)
        return papi_error(PAPI_ENOTPRESET, "0x%x is not a preset code", (unsigned)code);
    memset(info, 0, sizeof *info);
    info->event_code = (unsigned)code;
    papi_strcpy(info->symbol, sizeof info->symbol, preset_catalog[idx].name);
    papi_strcpy(info->short_descr, sizeof info->short_descr, preset_catalog[idx].short_descr);
    papi_strcpy(info->long_descr, sizeof info->long_descr, preset_catalog[idx].long_descr);
    info->event_type = preset_catalog[idx].categories;
    info->component_index = PRESET_COMPONENT;
    info->data_type = PAPI_DATATYPE_INT64;
    const struct preset_def *def = preset_tables_get(idx);
    if (!def) {
        /* Known name, not available here: count 0 tells the caller so. */
        static const char mark[] = PAPI_NOTE_CUT_MARK;
        if (papi_strcpy(info->note, sizeof info->note, preset_tables_unavailable_reason(idx)))
            memcpy(info->note + sizeof info->note - sizeof mark, mark, sizeof mark);
        return PAPI_OK;
    }
    info->count = (unsigned)def->nterms;
    papi_strcpy(info->derived, sizeof info->derived, preset_derive_name(def->op));
    papi_strcpy(info->postfix, sizeof info->postfix, def->postfix);
    papi_strcpy(info->note, sizeof info->note, def->note);
    for (int t = 0; t < def->nterms; t++) {
        info->code[t] = (unsigned)def->native_code[t];
        event_native_code_to_name(def->native_code[t], info->name[t], sizeof info->name[t]);
    }
    return PAPI_OK;
}

/* Saturating 64-bit arithmetic: a result past the range of long long is LLONG_MAX or
 * LLONG_MIN (by the sign of the true result), never undefined behaviour or a trap. */
static long long sat_add(long long a, long long b)
{
    long long r;
    return __builtin_add_overflow(a, b, &r) ? (a < 0 ? LLONG_MIN : LLONG_MAX) : r;
}

static long long sat_sub(long long a, long long b)
{
    long long r;
    return __builtin_sub_overflow(a, b, &r) ? (a < 0 ? LLONG_MIN : LLONG_MAX) : r;
}

static long long sat_mul(long long a, long long b)
{
    long long r;
    return __builtin_mul_overflow(a, b, &r) ? ((a < 0) != (b < 0) ? LLONG_MIN : LLONG_MAX) : r;
}

static long long sat_div(long long a, long long b)
{
    if (b == 0)
        return 0;
    if (a == LLONG_MIN && b == -1) /* the one quotient that does not fit (SIGFPE on x86) */
        return LLONG_MAX;
    return a / b;
}

/* Evaluate a derived preset from its terms' counts. Postfix formulas were checked when
 * the table was loaded (stack depth, operands), so evaluation cannot fail. Arithmetic
 * saturates (see sat_add); division by zero yields 0. */
long long preset_compute(const struct preset_def *def, const long long *t)
{
    switch (def->op) {
    case DERIVE_NONE:
    case DERIVE_CMPD:
        return t[0];
    case DERIVE_ADD: {
        long long s = 0;
        for (int i = 0; i < def->nterms; i++)
            s = sat_add(s, t[i]);
        return s;
    }
    case DERIVE_SUB: {
        long long s = t[0];
        for (int i = 1; i < def->nterms; i++)
            s = sat_sub(s, t[i]);
        return s;
    }
    case DERIVE_POSTFIX: {
        long long st[RPN_MAX_STEPS];
        int sp = 0;
        for (int i = 0; i < def->nsteps; i++) {
            const struct rpn_step *s = &def->steps[i];
            if (s->kind == RPN_TERM) {
                st[sp++] = t[s->value];
            } else if (s->kind == RPN_CONST) {
                st[sp++] = s->value;
            } else {
                long long b = st[--sp], a = st[--sp];
                switch (s->kind) {
                case RPN_ADD:
                    a = sat_add(a, b);
                    break;
                case RPN_SUB:
                    a = sat_sub(a, b);
                    break;
                case RPN_MUL:
                    a = sat_mul(a, b);
                    break;
                default:
                    a = sat_div(a, b);
                    break;
                }
                st[sp++] = a;
            }
        }
        return sp ? st[sp - 1] : 0;
    }
    }
    return 0;
}
