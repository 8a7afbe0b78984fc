/* Example: walk the presets and the native events, describe one, name the machine.
 * Shows: PAPI_enum_event PAPI_enum_cmp_event PAPI_get_event_info PAPI_event_code_to_name
 * PAPI_num_components PAPI_get_component_info PAPI_get_component_index
 * PAPI_get_event_component PAPI_num_cmp_hwctrs PAPI_num_hwctrs PAPI_get_hardware_info
 * PAPI_get_hardware_info_mhz_source PAPI_compat_version PAPI_get_executable_info
 * PAPI_get_shared_lib_info PAPI_get_substrate_info PAPI_get_dmem_info PAPI_get_real_usec
 * PAPI_get_real_nsec PAPI_get_real_cyc PAPI_get_virt_usec PAPI_get_virt_nsec
 * PAPI_get_virt_cyc PAPI_disable_component PAPI_disable_component_by_name
 * PAPI_encode_events PAPI_set_event_info */
#include <papi.h>
#include <stdio.h>

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    int code = PAPI_PRESET_MASK, avail = 0;
    PAPI_event_info_t info;
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
        do
            avail += PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0;
        while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
    char name[PAPI_MAX_STR_LEN];
    for (int c = 0; c < PAPI_num_components(); c++) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(c);
        int n = 0;
        code = PAPI_NATIVE_MASK;
        if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, c) == PAPI_OK)
            do
                n++;
            while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, c) == PAPI_OK);
        printf("component %d %s: %d native events, %d counters%s%s\n", c, ci->name, n,
               PAPI_num_cmp_hwctrs(c), ci->disabled ? ", disabled: " : "",
               ci->disabled ? ci->disabled_reason : "");
    }
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &code) == PAPI_OK &&
        PAPI_event_code_to_name(code, name) == PAPI_OK)
        printf("%s is event 0x%x of component %d (perf_event is %d)\n", name, code,
               PAPI_get_event_component(code), PAPI_get_component_index("perf_event"));
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    PAPI_dmem_info_t mem;
    PAPI_get_dmem_info(&mem);
    printf("%s, %d MHz (%s), %d counters; %d presets available; %s; papi-compat %s\n",
           hw->model_string, hw->cpu_max_mhz, PAPI_get_hardware_info_mhz_source(),
           PAPI_num_hwctrs(), avail, exe->fullname, PAPI_compat_version());
    long long t0 = PAPI_get_real_nsec(), v0 = PAPI_get_virt_usec();
    printf("timers: %lld ns real, %lld us virtual, %lld cycles\n", PAPI_get_real_nsec() - t0,
           PAPI_get_virt_usec() - v0, PAPI_get_real_cyc());
    return 0;
}
