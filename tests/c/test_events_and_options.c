/* Native event naming and enumeration through libpfm4, presets without a table,
 * component and system information, domains and granularity options. */
#include "papi_test.h"

/* The components src-c/lib/components/registry.c lists, in index order (tests/c/CMakeLists.txt
 * reads them from it). */
#ifndef PAPI_REGISTRY_COMPONENTS
#error "PAPI_REGISTRY_COMPONENTS (the registry's component names) is not defined"
#endif
static const char *const registry[] = {PAPI_REGISTRY_COMPONENTS};
#define NREGISTRY (int)(sizeof registry / sizeof registry[0])

/* Every registered component is there, at its index, under its name, and no other. */
static void check_registry(void)
{
    CHECK(strcmp(registry[0], "perf_event") == 0,
          "the registry's component 0 is %s, not perf_event "
          "(presets resolve to it)",
          registry[0]);
    CHECK_EQ_LL(PAPI_num_components(), NREGISTRY);
    for (int i = 0; i < NREGISTRY; i++) {
        const PAPI_component_info_t *c = PAPI_get_component_info(i);
        CHECK(c && strcmp(c->name, registry[i]) == 0, "component %d is %s, the registry says %s", i,
              c ? c->name : "missing", registry[i]);
        CHECK_EQ_LL(PAPI_get_component_index(registry[i]), i);
    }
    CHECK(PAPI_get_component_info(NREGISTRY) == NULL, "a component past the registry's %d",
          NREGISTRY);
}

int main(void)
{
    init_or_die();
    int code, code2;
    char name[PAPI_MAX_STR_LEN];
    /* Spellings of one event: with or without the PMU prefix. */
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &code), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("PAGE-FAULTS", &code2), PAPI_OK);
    CHECK_EQ_LL(code, code2);
    CHECK(IS_NATIVE(code), "native code 0x%x", (unsigned)code);
    CHECK_RET(PAPI_event_code_to_name(code, name), PAPI_OK);
    CHECK(strcmp(name, "perf::PAGE-FAULTS") == 0, "name %s", name);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS:u", &code2), PAPI_OK);
    CHECK(code2 != code, "a modifier makes another event");
    CHECK_RET(PAPI_event_code_to_name(code2, name), PAPI_OK);
    CHECK(strcmp(name, "perf::PAGE-FAULTS:u") == 0, "name %s", name);

    PAPI_event_info_t info;
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(strcmp(info.symbol, "perf::PAGE-FAULTS") == 0, "symbol %s", info.symbol);
    CHECK(info.long_descr[0] != '\0', "native events have a description");
    CHECK_EQ_LL(info.component_index, 0);

    /* Enumerate every native event of component 0: perf:: events must be among them. */
    int e = PAPI_NATIVE_MASK, n = 0, seen_pf = 0;
    CHECK_RET(PAPI_enum_cmp_event(&e, PAPI_ENUM_FIRST, 0), PAPI_OK);
    do {
        if (PAPI_event_code_to_name(e, name) == PAPI_OK && strcmp(name, "perf::PAGE-FAULTS") == 0)
            seen_pf = 1;
        n++;
    } while (PAPI_enum_cmp_event(&e, PAPI_ENUM_EVENTS, 0) == PAPI_OK && n < 100000);
    CHECK(n > 10 && n < 100000 && seen_pf, "enumerated %d natives (ends), PAGE-FAULTS seen: %d", n,
          seen_pf);
    printf("%d native events enumerated in component 0\n", n);

    /* Presets: all 108 names enumerate; availability depends on the preset table. */
    e = PAPI_PRESET_MASK;
    n = 0;
    CHECK_RET(PAPI_enum_event(&e, PAPI_ENUM_FIRST), PAPI_OK);
    do {
        n++;
    } while (PAPI_enum_event(&e, PAPI_ENUM_EVENTS) == PAPI_OK);
    CHECK_EQ_LL(n, PAPI_END_idx);
    CHECK_RET(PAPI_event_name_to_code("PAPI_TOT_CYC", &code), PAPI_OK);
    CHECK_EQ_LL(code, PAPI_TOT_CYC);
    CHECK_EQ_LL((unsigned)PAPI_TOT_CYC, 0x8000003bu); /* PAPI's numeric value */
    CHECK_EQ_LL((unsigned)PAPI_L1_DCM, 0x80000000u);
    CHECK_EQ_LL((unsigned)PAPI_FP_OPS, 0x80000066u);
    CHECK_RET(PAPI_event_code_to_name(PAPI_FP_OPS, name), PAPI_OK);
    CHECK(strcmp(name, "PAPI_FP_OPS") == 0, "name %s", name);
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_INS, &info), PAPI_OK);
    CHECK(strcmp(info.symbol, "PAPI_TOT_INS") == 0 && info.long_descr[0], "preset info");

    /* No hardware PMU here: the component says why and claims no counters. */
    const PAPI_component_info_t *cmp = PAPI_get_component_info(0);
    CHECK(cmp != NULL, "component 0");
    if (cmp && PAPI_num_hwctrs() == 0)
        CHECK(strlen(cmp->disabled_reason) > 20, "reason given: '%s'", cmp->disabled_reason);
    if (cmp)
        printf("component 0: %s, %d counters, %d natives, reason: %s\n", cmp->name,
               PAPI_num_hwctrs(), cmp->num_native_events, cmp->disabled_reason);
    check_registry();
    CHECK(PAPI_get_substrate_info() == cmp, "3.x substrate info is component 0");

    /* Options. */
    CHECK_EQ_LL(PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_DOM_USER);
    CHECK_EQ_LL(PAPI_get_opt(PAPI_DEFGRN, NULL), PAPI_GRN_THR);
    CHECK_EQ_LL(PAPI_get_opt(PAPI_LIB_VERSION, NULL), PAPI_VERSION);
    CHECK(PAPI_get_opt(PAPI_MAX_CPUS, NULL) >= 1, "cpus");
    PAPI_option_t o;
    memset(&o, 0, sizeof o);
    CHECK_RET(PAPI_get_opt(PAPI_PRELOAD, &o), PAPI_OK);
    CHECK(strcmp(o.preload.lib_preload_env, "LD_PRELOAD") == 0, "preload");
    CHECK_RET(PAPI_get_opt(PAPI_EXEINFO, &o), PAPI_OK);
    CHECK(o.exe_info && strstr(o.exe_info->fullname, "test_events_and_options"), "exe name");
    CHECK(o.exe_info && (char *)o.exe_info->address_info.text_start <= (char *)(void *)main &&
              (char *)(void *)main < (char *)o.exe_info->address_info.text_end,
          "main lies in the text range");
    CHECK(PAPI_get_shared_lib_info() && PAPI_get_shared_lib_info()->count > 0, "shared libs");
    PAPI_dmem_info_t dm;
    CHECK_RET(PAPI_get_dmem_info(&dm), PAPI_OK);
    CHECK(dm.size > 0 && dm.resident > 0 && dm.pagesize > 0, "dmem");

    /* Domain of a set: kernel-only never sees user page faults. */
    int es = PAPI_NULL;
    long long v[1];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    memset(&o, 0, sizeof o);
    o.domain.eventset = es;
    o.domain.domain = PAPI_DOM_KERNEL;
    CHECK_RET(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_OK);
    memset(&o, 0, sizeof o);
    o.domain.eventset = es;
    CHECK_EQ_LL(PAPI_get_opt(PAPI_DOMAIN, &o), PAPI_DOM_KERNEL);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(100);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[0] < 100, "kernel-only domain: %lld user page faults seen", v[0]);
    o.domain.domain = PAPI_DOM_ALL;
    CHECK_RET(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(100);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 100);
    /* Granularity: process-wide is supported through inheritance; others say so. */
    memset(&o, 0, sizeof o);
    o.granularity.eventset = es;
    o.granularity.granularity = PAPI_GRN_PROCG;
    CHECK_RET(PAPI_set_opt(PAPI_GRANUL, &o), PAPI_ECMP);
    o.granularity.granularity = PAPI_GRN_THR;
    CHECK_RET(PAPI_set_opt(PAPI_GRANUL, &o), PAPI_OK);
    CHECK_EQ_LL(PAPI_get_opt(PAPI_GRANUL, &o), PAPI_GRN_THR);
    CHECK_RET(PAPI_set_domain(PAPI_DOM_USER | PAPI_DOM_KERNEL), PAPI_OK);
    CHECK_EQ_LL(PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_DOM_USER | PAPI_DOM_KERNEL);
    free_set(&es);

    /* Timers move forward. */
    long long r0 = PAPI_get_real_usec(), c0 = PAPI_get_real_cyc(), v0 = PAPI_get_virt_usec();
    touch_pages(2000);
    CHECK(PAPI_get_real_usec() > r0 && PAPI_get_real_cyc() > c0, "real timers advance");
    CHECK(PAPI_get_virt_usec() > v0 && PAPI_get_virt_nsec() > 0, "virtual timers advance");
    PAPI_shutdown();
    return test_done("test_events_and_options");
}
