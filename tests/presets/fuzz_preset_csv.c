/* fuzz_preset_csv: libFuzzer target for the preset CSV parser and the postfix
 * compiler. Any input must either be rejected with a "fuzz:<line>: " message and no
 * definitions, or parse into definitions that pass their own checks; any formula the
 * compiler accepts must evaluate without touching the stack out of bounds.
 * Run briefly by ctest (-runs=20000); longer by hand: fuzz_preset_csv -max_total_time=600 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_events.h"
#include "preset_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_list(const struct preset_src_list *l)
{
    for (int i = 0; i < l->count; i++) {
        char err[512];
        const struct preset_src *s = &l->v[i];
        if (s->idx < 0 || s->idx >= PAPI_END_idx || s->nterms < 1 || s->nterms > PRESET_MAX_TERMS ||
            preset_src_check(s, err, sizeof err) != PAPI_OK)
            abort(); /* the parser returned a definition it should have refused */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct preset_src_list l;
    char err[1024];
    const char *cpus[] = {"a", "generic", "skx"};
    for (size_t c = 0; c < sizeof cpus / sizeof cpus[0]; c++) {
        err[0] = '\0';
        int r = preset_csv_parse((const char *)data, size, "fuzz", cpus[c], "generic", &l, err, sizeof err);
        if (r == PAPI_OK) {
            check_list(&l);
            preset_src_list_free(&l);
        } else if (strncmp(err, "fuzz:", 5) != 0 || l.count != 0 || l.v != NULL) {
            abort(); /* a rejection must say where and leave nothing behind */
        }
    }
    /* The same bytes as one postfix formula. */
    char formula[PAPI_2MAX_STR_LEN];
    size_t n = size < sizeof formula - 1 ? size : sizeof formula - 1;
    memcpy(formula, data, n);
    formula[n] = '\0';
    static struct preset_def def;
    memset(&def, 0, sizeof def);
    if (preset_rpn_compile(formula, PRESET_MAX_TERMS, &def, err, sizeof err) == PAPI_OK) {
        long long terms[PRESET_MAX_TERMS];
        for (int t = 0; t < PRESET_MAX_TERMS; t++)
            terms[t] = t + 1;
        def.op = DERIVE_POSTFIX;
        def.nterms = PRESET_MAX_TERMS;
        volatile long long v = preset_compute(&def, terms);
        (void)v;
    }
    return 0;
}
