/* fuzz_event_names: libFuzzer target for event name lookup (presets, native names with
 * and without a PMU prefix, modifiers): whatever resolves is described, its name leads
 * back to the same code, and PAPI_event_code_to_name answers PAPI_EBUF exactly when the
 * name does not fit its PAPI_MAX_STR_LEN buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char name[PAPI_HUGE_STR_LEN + 8], back[PAPI_HUGE_STR_LEN];
    PAPI_event_info_t info;
    int code = 0, again = 0;
    if (size >= sizeof name)
        size = sizeof name - 1;
    memcpy(name, data, size);
    name[size] = '\0';
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK)
        return 0;
    if (PAPI_get_event_info(code, &info) != PAPI_OK)
        abort(); /* a code we handed out is described */
    /* PAPI_event_code_to_name fills a PAPI_MAX_STR_LEN buffer: longer names say PAPI_EBUF. */
    int fits = strlen(info.symbol) < PAPI_MAX_STR_LEN;
    if (PAPI_event_code_to_name(code, back) != (fits ? PAPI_OK : PAPI_EBUF))
        abort();
    if (PAPI_event_name_to_code(info.symbol, &again) != PAPI_OK || again != code)
        abort(); /* the name leads back to the code */
    (void)PAPI_query_event(code);
    return 0;
}
