/* fuzz_postfix: libFuzzer target for derived arithmetic. The input is two term values
 * (16 bytes) and a postfix formula; whatever the compiler accepts is evaluated, under
 * ASan and UBSan (any overflow or trap is a finding). */
#include <stdint.h>
#include <string.h>

#include "preset_events.h"
#include "preset_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long long terms[2];
    char formula[300], err[256];
    static struct preset_def def;
    if (size < sizeof terms)
        return 0;
    memcpy(terms, data, sizeof terms);
    size_t n = size - sizeof terms < sizeof formula - 1 ? size - sizeof terms : sizeof formula - 1;
    memcpy(formula, data + sizeof terms, n);
    formula[n] = '\0';
    memset(&def, 0, sizeof def);
    def.op = DERIVE_POSTFIX;
    def.nterms = 2;
    if (preset_rpn_compile(formula, 2, &def, err, sizeof err) == PAPI_OK)
        (void)preset_compute(&def, terms);
    return 0;
}
