/* fuzz_event_names: libFuzzer target for event name lookup (presets, native names with
 * and without a PMU prefix, modifiers), the round trip code -> name -> code, and the
 * event information of whatever resolves. */
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
    if (PAPI_event_code_to_name(code, back) != PAPI_OK)
        abort(); /* a code we handed out has a name */
    if (PAPI_event_name_to_code(back, &again) != PAPI_OK || again != code)
        abort(); /* and the name leads back to it */
    (void)PAPI_get_event_info(code, &info);
    (void)PAPI_query_event(code);
    return 0;
}
