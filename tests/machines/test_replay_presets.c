/* test_replay_presets: on a recorded machine (PAPI_FSROOT, set by ctest; argv[1] names
 * it) the preset table of its CPU is chosen although libpfm4 4.13 does not know the CPU,
 * PAPI_DP_OPS, PAPI_L2_DCM ... resolve, and the encodings the library would open (perf
 * type and config, through the same function that fills the attr it opens) equal the
 * raw values of the vendors' event lists, written out below as the oracle; the
 * derivation weights are checked by computing the preset from unit counts. On the hybrid
 * client PAPI_TOT_INS is one event per core PMU (cpu_core type 4, cpu_atom type 10).
 * White box: links the static library. */
#include "events.h"
#include "perf_event_internal.h"
#include "preset_tables.h"
#include "papi_test.h"

struct term { unsigned type; unsigned long long config; };
struct expect {
    const char *machine, *table, *preset;
    int nterms;
    struct term t[5];
    long long unit_value; /* the preset computed with every term = 1 */
};

/* AMD PMCx003 umask 0x80/0xa0 (scalar/packed double FLOPs), PMCx064 umask 0x08 (DC miss
 * in L2), PMCx18E umask 0x18 (IC miss): event bits 0-7 and 32-35, umask 8-15. Intel
 * FP_ARITH_INST_RETIRED 0xc7 umasks 0x01/0x04/0x10/0x40 (weights 1, 2, 4, 8), L2_RQSTS
 * 0x24 umasks 0x21/0x22, CYCLE_ACTIVITY.STALLS_TOTAL 0xa3/0x04 cmask 4; Crestmont
 * FP_FLOPS_RETIRED.FP64 0xc8/0x01. */
static const struct expect cases[] = {
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_DP_OPS", 2, {{4, 0x8003}, {4, 0xa003}}, 2},
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_L2_DCM", 1, {{4, 0x0864}}, 1},
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_FP_OPS", 1, {{4, 0x0f03}}, 1},
    {"zen5_node", "amd64_fam1ah_zen5", "PAPI_L1_ICM", 1, {{4, 0x10000188eULL}}, 1},
    {"gnr_node", "gnr", "PAPI_DP_OPS", 4, {{4, 0x01c7}, {4, 0x04c7}, {4, 0x10c7}, {4, 0x40c7}}, 15},
    {"gnr_node", "gnr", "PAPI_L2_DCM", 2, {{4, 0x2124}, {4, 0x2224}}, 2},
    {"gnr_node", "gnr", "PAPI_RES_STL", 1, {{4, 0x040004a3}}, 1},
    {"emr_node", "emr", "PAPI_SP_OPS", 4, {{4, 0x02c7}, {4, 0x08c7}, {4, 0x20c7}, {4, 0x80c7}}, 29},
    {"emr_node", "emr", "PAPI_L2_DCM", 2, {{4, 0x2124}, {4, 0x2224}}, 2},
    {"mtl_hybrid", "mtl", "PAPI_TOT_INS", 2, {{4, 0xc0}, {10, 0xc0}}, 2},
    {"mtl_hybrid", "mtl", "PAPI_DP_OPS", 4, {{4, 0x01c7}, {4, 0x04c7}, {4, 0x10c7}, {10, 0x01c8}}, 8},
};

static void check_case(const struct expect *x, const struct preset_src_list *l)
{
    int code;
    CHECK_RET(PAPI_event_name_to_code(x->preset, &code), PAPI_OK);
    const struct preset_src *src = NULL;
    for (int i = 0; i < l->count; i++)
        if (l->v[i].idx == (code & PAPI_PRESET_AND_MASK))
            src = &l->v[i]; /* a later definition wins, as in the library */
    CHECK(src != NULL, "%s: table %s has no %s", x->machine, x->table, x->preset);
    if (!src)
        return;
    struct preset_def def;
    char err[PAPI_HUGE_STR_LEN] = "";
    int r = preset_build_def(src, x->table, &def, err, sizeof err);
    CHECK(r == PAPI_OK, "%s %s does not resolve: %s", x->machine, x->preset, err);
    if (r != PAPI_OK)
        return;
    CHECK(def.nterms == x->nterms, "%s %s: %d terms, want %d", x->machine, x->preset, def.nterms,
          x->nterms);
    for (int t = 0; t < def.nterms && t < x->nterms; t++) {
        const struct native_event *e = native_lookup(cmp_local(def.native_code[t]));
        CHECK(e && e->route == ROUTE_SYSFS, "%s %s term %d: not a sysfs event", x->machine,
              x->preset, t);
        if (!e)
            continue;
        struct perf_event_attr attr;
        native_sysfs_attr(e, PAPI_DOM_USER, &attr);
        printf("%-10s %-12s %-36s type %u config 0x%llx\n", x->machine, x->preset, e->name,
               attr.type, (unsigned long long)attr.config);
        CHECK(attr.type == x->t[t].type && attr.config == x->t[t].config,
              "%s %s term %d (%s): type %u config 0x%llx, want %u 0x%llx", x->machine, x->preset,
              t, e->name, attr.type, (unsigned long long)attr.config, x->t[t].type,
              x->t[t].config);
        CHECK(attr.exclude_kernel && !attr.exclude_user, "%s: user-domain bits", e->name);
    }
    long long ones[PRESET_MAX_TERMS];
    for (int t = 0; t < PRESET_MAX_TERMS; t++)
        ones[t] = 1;
    long long v = preset_compute(&def, ones);
    CHECK(v == x->unit_value, "%s %s from unit counts: %lld, want %lld (weights)", x->machine,
          x->preset, v, x->unit_value);
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
    printf("%s: preset table %s\n", argv[1], cpu ? cpu : "(none)");
    CHECK(cpu && table && !strcmp(cpu, table), "%s: table '%s' chosen, want '%s'", argv[1],
          cpu ? cpu : "(none)", table ? table : "?");

    struct preset_src_list l;
    char err[PAPI_HUGE_STR_LEN] = "";
    int r = preset_csv_parse(preset_builtin_csv, preset_builtin_csv_len, "built-in", table,
                             NULL, &l, err, sizeof err);
    CHECK(r == PAPI_OK && l.matched_tables > 0, "built-in table %s: %s", table ? table : "?", err);
    if (r == PAPI_OK) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!strcmp(cases[i].machine, argv[1]))
                check_case(&cases[i], &l);
        preset_src_list_free(&l);
    }

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
