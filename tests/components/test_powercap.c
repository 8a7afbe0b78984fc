/* test_powercap: the powercap component on recorded machines (tests/machines/, given as
 * argv[1]) replayed through PAPI_FSROOT, the one root of every /sys and /proc reader: a
 * two-socket Intel node with core and dram subzones (rapl_two_socket), an AMD node
 * (package and core, no limits: rapl_amd_node), a counter about to wrap (rapl_wrap).
 * Each machine is copied to a scratch directory so the test can change energy_uj
 * between start and read; differences, frozen values after stop, and the disabled
 * reasons (no tree, no zones, an energy_uj that cannot be read, a root too long for the
 * zones' paths) are checked exactly.
 * White box: it drives the component's callbacks (component.h) directly; then the same
 * through the PAPI API (PAPI_library_init, papi_native_avail's enumeration, counting). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "component.h"
#include "papi_test.h"
#include "test_tree.h"
#include "powercap_zones.h"

extern struct papi_component powercap_component;
static struct papi_component *const pc = &powercap_component;
static char scratch[512];

/* A fresh copy of recorded machine name, made the machine in force (PAPI_FSROOT); its
 * powercap tree is returned. */
static const char *use_tree(const char *recorded, const char *name)
{
    static char dir[1100];
    char src[1024];
    snprintf(src, sizeof src, "%s/%s", recorded, name);
    snprintf(dir, sizeof dir, "%s%s", tree_use(src, scratch, name), POWERCAP_DEFAULT_DIR);
    return dir;
}

/* Rewrite a file in place (same inode: open descriptors see the new value). */
static void set_value(const char *dir, const char *zone, const char *file, unsigned long long v)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s/%s", dir, zone, file);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL, "rewrite %s", p);
    if (f) {
        fprintf(f, "%llu\n", v);
        fclose(f);
    }
}

static int code_of(const char *name)
{
    int local = -1;
    CHECK(pc->name_to_code(pc, name, &local) == PAPI_OK, "%s is an event", name);
    return local;
}

static int add_named(struct cmp_context *ctx, const char *name)
{
    int slot = -1;
    CHECK(pc->add(ctx, code_of(name), &slot) == PAPI_OK, "add %s", name);
    return slot;
}

static int probe_tree(struct cmp_status *st)
{
    memset(st, 0, sizeof *st);
    return pc->probe(pc, st);
}

static void test_intel_two_socket(const char *recorded)
{
    const char *dir = use_tree(recorded, "rapl_two_socket");
    struct cmp_status st;
    CHECK(probe_tree(&st) == PAPI_OK && st.disabled == 0, "enabled: %s", st.reason);
    PAPI_component_info_t info;
    memset(&info, 0, sizeof info);
    pc->fill_info(pc, &info);
    /* per socket: 9 zone events (energy, range, A and B limits, enabled), 6 per subzone;
     * the sums PACKAGE, CORE, DRAM and TOTAL, node-wide and per package (:PKG0, :PKG1) */
    CHECK_EQ_LL(info.num_native_events, 54);
    int n = 0, local = 0;
    for (int r = pc->enumerate(pc, &local, PAPI_ENUM_FIRST); r == PAPI_OK;
         r = pc->enumerate(pc, &local, PAPI_ENUM_EVENTS))
        n++;
    CHECK_EQ_LL(n, 54);

    char name[128];
    CHECK(pc->enumerate(pc, &local, PAPI_ENUM_FIRST) == PAPI_OK, "first event");
    pc->code_to_name(pc, local, name, sizeof name);
    CHECK(strcmp(name, "powercap:::ENERGY_UJ:ZONE0") == 0, "first event %s", name);
    const char *present[] = {"ENERGY_UJ:ZONE1", "ENERGY_UJ:ZONE0_SUBZONE0",
                             "powercap:::ENERGY_UJ:ZONE1_SUBZONE1", "MAX_ENERGY_RANGE_UJ:ZONE0",
                             "POWER_LIMIT_A_UW:ZONE1", "TIME_WINDOW_A_US:ZONE0_SUBZONE1",
                             "MAX_POWER_A_UW:ZONE1_SUBZONE1", "TIME_WINDOW_B:ZONE0",
                             "POWER_LIMIT_B_UW:ZONE1"};
    for (size_t i = 0; i < sizeof present / sizeof *present; i++) {
        int c = code_of(present[i]);
        pc->code_to_name(pc, c, name, sizeof name);
        const char *bare = strncmp(present[i], "powercap:::", 11) ? present[i] : present[i] + 11;
        CHECK(strncmp(name, "powercap:::", 11) == 0 && strcmp(name + 11, bare) == 0,
              "round trip of %s gave %s", present[i], name);
    }
    int none;
    CHECK(pc->name_to_code(pc, "POWER_LIMIT_B_UW:ZONE0_SUBZONE0", &none) == PAPI_ENOEVNT,
          "subzones have no constraint B");
    CHECK(pc->name_to_code(pc, "ENERGY_UJ:ZONE2", &none) == PAPI_ENOEVNT, "no third socket");
    CHECK(pc->name_to_code(pc, "perf::PAGE-FAULTS", &none) == PAPI_ENOEVNT, "not ours");

    PAPI_event_info_t ei;
    memset(&ei, 0, sizeof ei);
    CHECK(pc->event_info(pc, code_of("ENERGY_UJ:ZONE1_SUBZONE1"), &ei) == PAPI_OK, "info");
    CHECK(strstr(ei.long_descr, "dram") && strcmp(ei.units, "uJ") == 0, "%s [%s]",
          ei.long_descr, ei.units);
    CHECK(ei.value_type == PAPI_VALUETYPE_RUNNING_SUM, "energy is a running sum");
    CHECK(pc->event_info(pc, code_of("POWER_LIMIT_A_UW:ZONE0"), &ei) == PAPI_OK, "info");
    CHECK(ei.value_type == PAPI_VALUETYPE_ABSOLUTE && strcmp(ei.units, "uW") == 0,
          "limit is absolute, in uW");

    struct cmp_context *ctx = NULL;
    CHECK(pc->ctx_create(pc, &(struct cmp_target){.cpu = -1}, &ctx) == PAPI_OK, "context");
    CHECK_EQ_LL(add_named(ctx, "ENERGY_UJ:ZONE0"), 0);
    CHECK_EQ_LL(add_named(ctx, "powercap:::ENERGY_UJ:ZONE1_SUBZONE1"), 1);
    CHECK_EQ_LL(add_named(ctx, "POWER_LIMIT_A_UW:ZONE0"), 2);
    CHECK_EQ_LL(add_named(ctx, "MAX_ENERGY_RANGE_UJ:ZONE1_SUBZONE1"), 3);
    CHECK_EQ_LL(add_named(ctx, "ENERGY_UJ:ZONE0_SUBZONE0"), 4);
    struct cmp_count v[5];
    CHECK(pc->start(ctx) == PAPI_OK, "start");
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 2500000);
    set_value(dir, "intel-rapl:1:1", "energy_uj", 7300000ull + 12345);
    set_value(dir, "intel-rapl:0:0", "energy_uj", 40000000ull + 777);
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 2500000);
    CHECK_EQ_LL(v[1].value, 12345);
    CHECK_EQ_LL(v[2].value, 165000000);
    CHECK_EQ_LL(v[3].value, 65532610987ll);
    CHECK_EQ_LL(v[4].value, 777);
    CHECK(v[0].time_enabled == v[0].time_running, "never multiplexed");

    /* stopped: frozen, whatever the counter does */
    CHECK(pc->stop(ctx) == PAPI_OK, "stop");
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 9000000);
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 2500000);
    /* started again: counts on from there (the energy spent while stopped is not in) */
    CHECK(pc->start(ctx) == PAPI_OK, "start again");
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 9001000);
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 2501000);
    /* an absolute slot counts on from its frozen count: the core's difference from this
     * start (165000000) is the limit now */
    CHECK_EQ_LL(v[1].value, 12345);
    CHECK_EQ_LL(v[2].value, 165000000ll + 165000000);
    CHECK(pc->stop(ctx) == PAPI_OK, "stop");
    CHECK(pc->remove(ctx, 0) == PAPI_OK, "remove slot 0");
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 12345); /* the later slots moved down */
    CHECK(pc->remove(ctx, 7) == PAPI_EINVAL, "no slot 7");
    CHECK(pc->add(ctx, 4242, &none) == PAPI_ENOEVNT, "no event 4242");
    pc->ctx_destroy(ctx);
    papi_lifecycle_notify(&(struct papi_life){.event = PAPI_LIFE_SHUTDOWN}); /* frees the tree */
}

static void test_amd_node(const char *recorded)
{
    const char *dir = use_tree(recorded, "rapl_amd_node");
    struct cmp_status st;
    CHECK(probe_tree(&st) == PAPI_OK, "enabled: %s", st.reason);
    PAPI_component_info_t info;
    memset(&info, 0, sizeof info);
    pc->fill_info(pc, &info);
    /* energy, range, enabled for package and core; the sums PACKAGE, CORE, TOTAL, node-wide
     * and for package 0 */
    CHECK_EQ_LL(info.num_native_events, 12);
    int none;
    CHECK(pc->name_to_code(pc, "POWER_LIMIT_A_UW:ZONE0", &none) == PAPI_ENOEVNT,
          "AMD zones have no power limit");
    struct cmp_context *ctx = NULL;
    CHECK(pc->ctx_create(pc, &(struct cmp_target){.cpu = -1}, &ctx) == PAPI_OK, "context");
    add_named(ctx, "ENERGY_UJ:ZONE0");
    add_named(ctx, "ENERGY_UJ:ZONE0_SUBZONE0");
    struct cmp_count v[2];
    CHECK(pc->start(ctx) == PAPI_OK, "start");
    set_value(dir, "intel-rapl:0", "energy_uj", 51234567ull + 3000000);
    set_value(dir, "intel-rapl:0:0", "energy_uj", 12345678ull + 1000001);
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 3000000);
    CHECK_EQ_LL(v[1].value, 1000001);
    pc->ctx_destroy(ctx);
    papi_lifecycle_notify(&(struct papi_life){.event = PAPI_LIFE_SHUTDOWN}); /* frees the tree */
}

static void test_wrap(const char *recorded)
{
    /* the counter runs 0 .. max_energy_range_uj, then 0 again */
    CHECK_EQ_LL(powercap_energy_delta(10, 5, 20), 16);
    CHECK_EQ_LL(powercap_energy_delta(5, 10, 20), 5);
    CHECK_EQ_LL(powercap_energy_delta(20, 0, 20), 1);

    const char *dir = use_tree(recorded, "rapl_wrap");
    struct cmp_status st;
    CHECK(probe_tree(&st) == PAPI_OK, "enabled: %s", st.reason);
    struct cmp_context *ctx = NULL;
    CHECK(pc->ctx_create(pc, &(struct cmp_target){.cpu = -1}, &ctx) == PAPI_OK, "context");
    add_named(ctx, "ENERGY_UJ:ZONE0");
    struct cmp_count v[1];
    CHECK(pc->start(ctx) == PAPI_OK, "start"); /* at 262143328000 of 262143328850 */
    set_value(dir, "intel-rapl:0", "energy_uj", 1000);
    CHECK(pc->read(ctx, v) == PAPI_OK, "read");
    CHECK_EQ_LL(v[0].value, 850 + 1 + 1000);
    pc->ctx_destroy(ctx);
    papi_lifecycle_notify(&(struct papi_life){.event = PAPI_LIFE_SHUTDOWN}); /* frees the tree */
}

static void expect_disabled(int code, const char *reason_part)
{
    struct cmp_status st;
    int r = probe_tree(&st);
    CHECK(r == code && st.disabled == code, "probe %d, disabled %d, want %d", r, st.disabled,
          code);
    CHECK(strstr(st.reason, reason_part) != NULL, "reason \"%s\" lacks \"%s\"", st.reason,
          reason_part);
    PAPI_component_info_t info;
    memset(&info, 0, sizeof info);
    info.disabled = st.disabled;
    pc->fill_info(pc, &info);
    CHECK_EQ_LL(info.num_native_events, 0);
    int local;
    CHECK(pc->enumerate(pc, &local, PAPI_ENUM_FIRST) == PAPI_ENOEVNT, "no events listed");
    printf("disabled as expected: %s\n", st.reason);
}

static void test_disabled(const char *recorded)
{
    char p[1024];
    setenv("PAPI_FSROOT", "/nonexistent", 1);
    expect_disabled(PAPI_ECMP, "no powercap tree: /nonexistent/sys/class/powercap: No such file");

    snprintf(p, sizeof p, "%s/empty", scratch);
    mkdir(p, 0755);
    setenv("PAPI_FSROOT", p, 1);
    snprintf(p, sizeof p, "%s/empty/sys", scratch);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/empty/sys/class", scratch);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/empty/sys/class/powercap", scratch);
    mkdir(p, 0755);
    expect_disabled(PAPI_ECMP, "no intel-rapl zones under");

    /* a root whose tree leaves no room for the zones' file names: refused with the
     * reason, never this machine's /sys/class/powercap in its place */
    char longroot[700];
    memset(longroot, 'r', sizeof longroot - 1);
    longroot[0] = '/';
    longroot[sizeof longroot - 1] = '\0';
    setenv("PAPI_FSROOT", longroot, 1);
    expect_disabled(PAPI_ECMP, "is a path longer than");

    /* open works but read fails: energy_uj is a directory (works as root too); only
     * when no energy counter is left is the component disabled (one zone's failure is
     * a caveat: tests/components/test_powercap_energy.c) */
    const char *dir = use_tree(recorded, "rapl_wrap");
    snprintf(p, sizeof p, "%s/intel-rapl:0/energy_uj", dir);
    unlink(p);
    mkdir(p, 0755);
    expect_disabled(PAPI_ECMP, "intel-rapl:0/energy_uj is not readable: Is a directory");

    /* permission denied, as for a user since Linux 5.10: root reads anyway */
    dir = use_tree(recorded, "rapl_amd_node");
    snprintf(p, sizeof p, "%s/intel-rapl:0/energy_uj", dir);
    chmod(p, 0);
    snprintf(p, sizeof p, "%s/intel-rapl:0:0/energy_uj", dir);
    chmod(p, 0);
    if (geteuid() != 0)
        expect_disabled(PAPI_EPERM, "readable by root only since Linux 5.10");
    else
        printf("note: running as root, the EACCES case of energy_uj is not checked\n");
}

static void test_values(void)
{
    char p[1024];
    uint64_t v = 0;
    snprintf(p, sizeof p, "%s/value", scratch);
    const char *cases[] = {"123\n", "18446744073709551615\n", "18446744073709551616\n", "abc\n",
                           "", "12 34\n"};
    const int want[] = {0, 0, -ERANGE, -EINVAL, -EINVAL, -EINVAL};
    for (int i = 0; i < 6; i++) {
        FILE *f = fopen(p, "w");
        fputs(cases[i], f);
        fclose(f);
        CHECK(powercap_read_path(p, &v) == want[i], "case %d", i);
    }
    FILE *f = fopen(p, "w");
    fputs("123\n", f);
    fclose(f);
    CHECK(powercap_read_path(p, &v) == 0 && v == 123, "123 read as %llu", (unsigned long long)v);
}

static int powercap_cidx(void)
{
    int cidx = PAPI_get_component_index("powercap");
    CHECK(cidx >= 0, "PAPI_get_component_index(powercap) = %d", cidx);
    return cidx;
}

static void test_through_papi(const char *recorded)
{
    const char *dir = use_tree(recorded, "rapl_two_socket");
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    int cidx = powercap_cidx();
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    CHECK(ci && !ci->disabled && ci->num_native_events == 54, "powercap: disabled %d, %d events",
          ci ? ci->disabled : -1, ci ? ci->num_native_events : -1);
    int code = PAPI_NATIVE_MASK, n = 0;
    for (int r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx); r == PAPI_OK;
         r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx))
        n++;
    CHECK_EQ_LL(n, 54);
    PAPI_event_info_t info;
    CHECK_RET(PAPI_event_name_to_code("powercap:::POWER_LIMIT_A_UW:ZONE1", &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(info.value_type == PAPI_VALUETYPE_ABSOLUTE && info.component_index == cidx,
          "value_type %d, component %d", info.value_type, info.component_index);

    int es = PAPI_NULL;
    long long v[3];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "powercap:::ENERGY_UJ:ZONE0"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "powercap:::POWER_LIMIT_A_UW:ZONE0"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "powercap:::ENERGY_UJ:ZONE1_SUBZONE1"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 2500000);
    set_value(dir, "intel-rapl:1:1", "energy_uj", 7300000ull + 12345);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2500000);
    CHECK_EQ_LL(v[1], 165000000);
    CHECK_EQ_LL(v[2], 12345);
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 2600000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2600000);
    CHECK_EQ_LL(v[1], 165000000);
    /* a second run counts from its own start; the limit reads as the value now */
    set_value(dir, "intel-rapl:0", "constraint_0_power_limit_uw", 150000000);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    set_value(dir, "intel-rapl:0", "energy_uj", 100000000ull + 2601000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1000);
    CHECK_EQ_LL(v[1], 150000000);
    CHECK_EQ_LL(v[2], 0);
    free_set(&es);
    PAPI_shutdown();

    /* no tree: disabled with the reason, no events, names unknown */
    setenv("PAPI_FSROOT", "/nonexistent", 1);
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    cidx = powercap_cidx();
    ci = PAPI_get_component_info(cidx);
    CHECK(ci && ci->disabled && strstr(ci->disabled_reason, "no powercap tree"),
          "disabled %d: %s", ci ? ci->disabled : 0, ci ? ci->disabled_reason : "?");
    code = PAPI_NATIVE_MASK;
    CHECK(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK, "no events listed");
    CHECK(PAPI_event_name_to_code("powercap:::ENERGY_UJ:ZONE0", &code) != PAPI_OK,
          "no powercap event resolves");
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    tree_scratch(argc, "test_powercap", "recorded machines directory", scratch, sizeof scratch);
    test_values();
    test_intel_two_socket(argv[1]);
    test_amd_node(argv[1]);
    test_wrap(argv[1]);
    test_disabled(argv[1]);
    test_through_papi(argv[1]);
    remove_tree(scratch);
    return test_done("test_powercap");
}
