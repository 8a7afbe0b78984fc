/* Example: the components and their native events: list them, name an event, find its
 * component, leave a component out before the library starts.
 * Shows: PAPI_disable_component_by_name PAPI_disable_component PAPI_num_components
 * PAPI_get_component_info PAPI_get_component_index PAPI_enum_cmp_event
 * PAPI_event_code_to_name PAPI_get_event_component PAPI_num_cmp_hwctrs
 * PAPI_get_component_reason */
#include <papi.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char name[PAPI_MAX_STR_LEN];
    int code;
    /* Before PAPI_library_init: the powercap component is never initialised. */
    if (PAPI_disable_component_by_name("powercap") != PAPI_OK)
        return 1;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    if (PAPI_disable_component(0) != PAPI_ENOINIT) /* too late now: refused */
        return 1;
    for (int c = 0; c < PAPI_num_components(); c++) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(c);
        int n = 0;
        code = PAPI_NATIVE_MASK;
        if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, c) == PAPI_OK)
            do
                n++;
            while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, c) == PAPI_OK);
        printf("component %d %s: %s, %d native events, %d hardware counters\n", c, ci->name,
               ci->disabled ? "disabled" : "enabled", n, PAPI_num_cmp_hwctrs(c));
        if (ci->disabled) /* the whole reason: the info's field holds 1 KiB of it */
            printf("  why: %s\n", PAPI_get_component_reason(c));
    }
    int perf = PAPI_get_component_index("perf_event");
    if (perf < 0 || PAPI_event_name_to_code("perf::PAGE-FAULTS", &code) != PAPI_OK ||
        PAPI_event_code_to_name(code, name) != PAPI_OK)
        return 1;
    printf("%s is counted by component %d (perf_event is %d)\n", name,
           PAPI_get_event_component(code), perf);
    return 0;
}
