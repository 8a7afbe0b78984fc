/* test_replay_presets: on a recorded machine (PAPI_FSROOT, set by ctest; argv[1] names
 * it) the preset table of its CPU is chosen although libpfm4 4.13 does not know the CPU,
 * and presets resolve to what the vendors' documentation says they count.
 *
 * The oracle is written here from the vendors' event lists, independently of
 * presets/papi_events.csv: each case is a preset as a weighted sum of raw encodings
 * (perf type, config). The table's definition is resolved as the library resolves it
 * (the encodings it would open, hybrid events expanded into their per-core-PMU events)
 * and evaluated with preset_compute on counts that tell every encoding apart (encoding i
 * counts 64^i): the result equals the oracle's sum only when the definition uses exactly
 * the oracle's encodings with the oracle's weights. A wrong umask, event code, weight or
 * sign in the table fails.
 *
 * Sources (facts only):
 *  AMD: "Performance Monitor Counters for AMD Family 1Ah Model 00h-0Fh Processors", as
 *    Linux publishes it in tools/perf/pmu-events/arch/x86/amdzen5/: PMCx003
 *    fp_ret_sse_avx_ops (0x80 scalar double, 0xa0 packed double: flops), PMCx00A
 *    fp_ops_retired_by_type (0x03 scalar mul, 0x30 vector mul), PMCx064
 *    l2_cache_req_stat.ls_rd_blk_c (0x08, data cache miss in L2), ex_ret_brn 0xc2,
 *    ex_ret_brn_tkn 0xc4, ex_ret_cond 0xd1. AMD core format: event config:0-7,32-35,
 *    umask config:8-15 (arch/x86/events/amd/core.c).
 *  Intel: perfmon event lists graniterapids/emeraldrapids (Linux pmu-events
 *    arch/x86/graniterapids/): FP_ARITH_INST_RETIRED 0xc7 SCALAR_DOUBLE 0x01,
 *    128B_PACKED_DOUBLE 0x04 (2 flops each), 256B_PACKED_DOUBLE 0x10 (4),
 *    512B_PACKED_DOUBLE 0x40 (8), SCALAR 0x03, 4_FLOPS 0x18, 8_FLOPS 0x60,
 *    512B_PACKED_SINGLE 0x80 (16); BR_INST_RETIRED 0xc4 COND 0x11, COND_TAKEN 0x01,
 *    COND_NTAKEN 0x10; L2_RQSTS 0x24 DEMAND_DATA_RD_MISS 0x21, RFO_MISS 0x22.
 *    meteorlake (cpu_atom, Crestmont): FP_FLOPS_RETIRED.FP64 0xc8/0x01.
 *    Intel core format: event config:0-7, umask config:8-15 (arch/x86/events/intel/core.c).
 *  Hybrid: the core PMU's type in config bits 32-63 of a generic event
 *    (PERF_PMU_TYPE_SHIFT, include/uapi/linux/perf_event.h); PERF_COUNT_HW_INSTRUCTIONS 1.
 * White box: links the static library. */
#include "events.h"
#include "native_hybrid.h"
#include "native_sysfs.h"
#include "preset_tables.h"
#include "papi_test.h"

struct term {
    unsigned type;
    unsigned long long config;
    int weight;
};
struct expect {
    const char *machine, *table, *preset;
    int nterms;
    struct term t[8];
};

#define HW_INS(pmu_type) (1ULL | (unsigned long long)(pmu_type) << 32)

static const struct expect cases[] = {
    /* Zen 5: flops of double precision, scalar and packed. */
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_DP_OPS", 2, {{4, 0x8003, 1}, {4, 0xa003, 1}}},
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_L2_DCM", 1, {{4, 0x0864, 1}}},
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_BR_CN", 1, {{4, 0xd1, 1}}},
    /* Conditional taken = conditional - (all - taken): a not-taken branch is conditional. */
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_BR_TKN", 3, {{4, 0xd1, 1}, {4, 0xc2, -1}, {4, 0xc4, 1}}},
    /* Multiply instructions: scalar and vector multiply ops (not flops). */
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_FML_INS", 2, {{4, 0x030a, 1}, {4, 0x300a, 1}}},
    {"gnr_node", "gnr", "PAPI_DP_OPS", 4, {{4, 0x01c7, 1}, {4, 0x04c7, 2}, {4, 0x10c7, 4}, {4, 0x40c7, 8}}},
    {"gnr_node", "gnr", "PAPI_FP_OPS", 5,
     {{4, 0x03c7, 1}, {4, 0x04c7, 2}, {4, 0x18c7, 4}, {4, 0x60c7, 8}, {4, 0x80c7, 16}}},
    {"gnr_node", "gnr", "PAPI_BR_TKN", 1, {{4, 0x01c4, 1}}},
    {"gnr_node", "gnr", "PAPI_BR_CN", 1, {{4, 0x11c4, 1}}},
    {"gnr_node", "gnr", "PAPI_BR_NTK", 1, {{4, 0x10c4, 1}}},
    {"gnr_node", "gnr", "PAPI_L2_DCM", 2, {{4, 0x2124, 1}, {4, 0x2224, 1}}},
    {"emr_node", "emr", "PAPI_BR_TKN", 1, {{4, 0x01c4, 1}}},
    {"emr_node", "emr", "PAPI_DP_OPS", 4, {{4, 0x01c7, 1}, {4, 0x04c7, 2}, {4, 0x10c7, 4}, {4, 0x40c7, 8}}},
    /* Half precision (PAPI 7.3): FP_ARITH_INST_RETIRED2 (0xcf), 8/16/32 elements a vector. */
    {"emr_node", "emr", "PAPI_HP_OPS", 4, {{4, 0x01cf, 1}, {4, 0x04cf, 8}, {4, 0x08cf, 16}, {4, 0x10cf, 32}}},
    {"gnr_node", "gnr", "PAPI_VEC_HP", 3, {{4, 0x04cf, 1}, {4, 0x08cf, 1}, {4, 0x10cf, 1}}},
    /* Hybrid: one event per core PMU, summed (cpu_core type 4, cpu_atom 10 here). */
    {"mtl_hybrid", "mtl", "PAPI_TOT_INS", 2, {{4, 0xc0, 1}, {10, 0xc0, 1}}},
    {"mtl_hybrid", "mtl", "PAPI_DP_OPS", 4, {{4, 0x01c7, 1}, {4, 0x04c7, 2}, {4, 0x10c7, 4}, {10, 0x01c8, 1}}},
    /* A hybrid machine without a table of its own: the generic table's
     * perf::INSTRUCTIONS opens on each core PMU (cpu_core 4, cpu_atom 8 here). */
    {"adl_hybrid", "generic", "PAPI_TOT_INS", 2,
     {{PERF_TYPE_HARDWARE, HW_INS(4), 1}, {PERF_TYPE_HARDWARE, HW_INS(8), 1}}},
};

/* The distinct encodings seen so far; encoding i stands for the count 64^i. */
struct encodings {
    int n;
    unsigned type[16];
    unsigned long long config[16];
};

static long long count_of(struct encodings *k, unsigned type, unsigned long long config)
{
    int i = 0;
    while (i < k->n && !(k->type[i] == type && k->config[i] == config))
        i++;
    if (i == k->n && k->n < 10) {
        k->type[i] = type;
        k->config[i] = config;
        k->n++;
    }
    return 1LL << (6 * i);
}

/* The count of native term code: one encoding, or the sum of its per-core-type events. */
static long long term_count(const struct expect *x, struct encodings *k, int code)
{
    int subs[NATIVE_MAX_CORE_TYPES];
    int n = native_hybrid_subs(cmp_local(code), subs, NATIVE_MAX_CORE_TYPES);
    if (!n) {
        subs[0] = cmp_local(code);
        n = 1;
    }
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        const struct native_event *e = native_lookup(subs[i]);
        CHECK(e != NULL, "%s %s: no native event %d", x->machine, x->preset, subs[i]);
        if (!e)
            continue;
        printf("%-10s %-12s %-44s type %u config 0x%llx\n", x->machine, x->preset, e->name,
               e->attr.type, (unsigned long long)e->attr.config);
        if (e->route == ROUTE_SYSFS) { /* the user domain's bits, as the library opens it */
            struct perf_event_attr attr;
            native_sysfs_attr(e, PAPI_DOM_USER, &attr);
            CHECK(attr.exclude_kernel && !attr.exclude_user && attr.exclude_hv,
                  "%s: user-domain exclude bits", e->name);
        }
        sum += count_of(k, e->attr.type, e->attr.config);
    }
    return sum;
}

static void check_case(const struct expect *x)
{
    int code;
    CHECK_RET(PAPI_event_name_to_code(x->preset, &code), PAPI_OK);
    const struct preset_def *def = preset_tables_get(code & PAPI_PRESET_AND_MASK);
    if (!def) {
        /* Not countable on this kernel (the recorded PMUs are not its own): the
         * definition is still resolved, by the library's own function, from the table. */
        static struct preset_src_list l;
        static const char *parsed;
        char err[PAPI_HUGE_STR_LEN] = "";
        if (parsed != x->table) {
            if (parsed)
                preset_src_list_free(&l);
            int r = preset_csv_parse(preset_builtin_csv, preset_builtin_csv_len, "built-in",
                                     x->table, NULL, &l, err, sizeof err);
            CHECK(r == PAPI_OK && l.matched_tables > 0, "table %s: %s", x->table, err);
            parsed = x->table;
        }
        const struct preset_src *src = NULL;
        for (int i = 0; i < l.count; i++)
            if (l.v[i].idx == (code & PAPI_PRESET_AND_MASK))
                src = &l.v[i]; /* a later definition wins, as in the library */
        CHECK(src != NULL, "%s: table %s has no %s", x->machine, x->table, x->preset);
        if (!src)
            return;
        static struct preset_def built;
        int own = strcmp(x->table, "generic") != 0;
        CHECK(preset_build_def(src, own ? x->table : NULL, &built, err, sizeof err) == PAPI_OK,
              "%s %s does not resolve: %s", x->machine, x->preset, err);
        def = &built;
    }
    struct encodings k = {0};
    long long t[PRESET_MAX_TERMS];
    for (int i = 0; i < def->nterms; i++)
        t[i] = term_count(x, &k, def->native_code[i]);
    int table_encodings = k.n;
    long long want = 0;
    for (int i = 0; i < x->nterms; i++)
        want += x->t[i].weight * count_of(&k, x->t[i].type, x->t[i].config);
    long long got = preset_compute(def, t);
    CHECK(got == want && table_encodings == x->nterms && k.n == x->nterms,
          "%s %s: the table's definition (%d encodings) gives %lld on the test counts, the "
          "vendor's %lld (%d encodings)", x->machine, x->preset, table_encodings, got, want,
          x->nterms);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !getenv("PAPI_FSROOT"))
        test_skip("usage: PAPI_FSROOT=tests/machines/<m> test_replay_presets <m>");
    init_or_die();
    const char *table = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].machine, argv[1]))
            table = cases[i].table;
    CHECK(table != NULL, "no cases for %s", argv[1]);
    const char *cpu = preset_detected_cpu();
    printf("%s: preset table %s\n", argv[1], cpu ? cpu : "(none: generic)");
    CHECK(table && !strcmp(cpu ? cpu : "generic", table), "%s: table '%s' chosen, want '%s'",
          argv[1], cpu ? cpu : "generic", table ? table : "?");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].machine, argv[1]))
            check_case(&cases[i]);

    /* Through the API the preset is known but not countable on this kernel, and says why. */
    PAPI_event_info_t info;
    int code;
    CHECK_RET(PAPI_event_name_to_code("PAPI_TOT_INS", &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    printf("PAPI_TOT_INS note: %s\n", info.note);
    CHECK(strstr(info.note, "recorded machine") != NULL, "note: %s", info.note);
    PAPI_shutdown();
    return test_done("test_replay_presets");
}
