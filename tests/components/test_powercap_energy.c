/* test_powercap_energy: the powercap component's energy sums and the energy metrics on
 * recorded trees (tests/machines, given as argv[1]) replayed through PAPI_FSROOT and
 * rewritten between start and read, through the public API: an Intel client with psys
 * (rapl_psys_client), a two-socket Intel node with dram (rapl_two_socket), an AMD node
 * (rapl_amd_node), an Arm node with no tree (arm64). Exact joules; the rule "top-level
 * zones only" (a package never added to its own subzones, psys alone where there is
 * one); a wrap inside a sum; malformed trees (a non-numeric, missing, unreadable
 * energy_uj, a counter that turns to garbage while counting, a missing range, a
 * reading above the range): the reason, and nothing else lost. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "papi.h"
#include "papi_metrics.h"
#include "papi_test.h"
#include "test_tree.h"

static char scratch[512], recorded[512], dir[1100];

/* A fresh copy of recorded machine name made the machine in force (PAPI_FSROOT). */
static void use_tree(const char *name)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/%s", recorded, name);
    snprintf(dir, sizeof dir, "%s/sys/class/powercap", tree_use(src, scratch, name));
}

static void write_file(const char *zone, const char *file, const char *text)
{
    char p[1400];
    snprintf(p, sizeof p, "%s/%s/%s", dir, zone, file);
    FILE *f = fopen(p, "w"); /* in place: open descriptors see the new value */
    CHECK(f != NULL, "rewrite %s", p);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void set_uj(const char *zone, unsigned long long v)
{
    char t[32];
    snprintf(t, sizeof t, "%llu\n", v);
    write_file(zone, "energy_uj", t);
}

static unsigned long long get_uj(const char *zone)
{
    char p[1400];
    unsigned long long v = 0;
    snprintf(p, sizeof p, "%s/%s/energy_uj", dir, zone);
    FILE *f = fopen(p, "r");
    CHECK(f && fscanf(f, "%llu", &v) == 1, "read %s", p);
    if (f)
        fclose(f);
    return v;
}

static void add_uj(const char *zone, unsigned long long delta)
{
    set_uj(zone, get_uj(zone) + delta);
}

static void init(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
}

/* A set of the named events, started. */
static int started(const char *const *names, int n)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < n; i++)
        CHECK(PAPI_add_named_event(es, names[i]) == PAPI_OK, "add %s: %s", names[i],
              PAPI_strerror_detail());
    CHECK_RET(PAPI_start(es), PAPI_OK);
    return es;
}

/* name is refused, and the reason holds want. */
static void refused(const char *name, const char *want)
{
    int code;
    CHECK(PAPI_event_name_to_code(name, &code) == PAPI_ENOEVNT, "%s refused", name);
    CHECK(strstr(PAPI_strerror_detail(), want) != NULL, "%s: reason \"%s\" lacks \"%s\"", name,
          PAPI_strerror_detail(), want);
}

static double metric(const char *name, int n, const char *const *events, const long long *v,
                     double seconds)
{
    double r = NAN;
    CHECK(PAPIM_evaluate(name, n, events, v, seconds, &r) == PAPI_OK, "evaluate %s: %s", name,
          PAPI_strerror_detail());
    return r;
}

/* The metric resolves here to exactly the one event. */
static void resolves_to(const char *name, const char *event)
{
    PAPIM_metric_info_t mi;
    CHECK_RET(PAPIM_query_metric(name, &mi), PAPI_OK);
    CHECK(mi.resolved && mi.countable && mi.num_events == 1 && !strcmp(mi.event_names[0], event),
          "%s resolves to %s (resolved %d, %d events: %s; %s)", name, event, mi.resolved,
          mi.num_events, mi.event_names[0], mi.reason);
}

static void test_psys_client(void)
{
    use_tree("rapl_psys_client");
    init();
    const char *ev[] = {"powercap:::ENERGY_UJ:PACKAGE", "powercap:::ENERGY_UJ:CORE",
                        "powercap:::ENERGY_UJ:UNCORE",  "powercap:::ENERGY_UJ:PSYS",
                        "powercap:::ENERGY_UJ:TOTAL",   "powercap:::ENERGY_UJ:ZONE0"};
    long long v[6];
    int es = started(ev, 6);
    add_uj("intel-rapl:0", 5000000);   /* the package: 5 J */
    add_uj("intel-rapl:0:0", 3000000); /* its cores: 3 J of those */
    add_uj("intel-rapl:0:1", 750000);  /* its uncore (GPU) */
    add_uj("intel-rapl:1", 9000000);   /* the platform: 9 J, the package included */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 5000000);
    CHECK_EQ_LL(v[1], 3000000);
    CHECK_EQ_LL(v[2], 750000);
    CHECK_EQ_LL(v[3], 9000000);
    CHECK_EQ_LL(v[4], 9000000); /* psys alone: never psys + package (+ its subzones) */
    CHECK_EQ_LL(v[5], 5000000);
    free_set(&es);
    refused("powercap:::ENERGY_UJ:DRAM", "has no dram zone");
    refused("powercap:::ENERGY_UJ:TOTAL:PKG0", "psys zone covers the platform");
    resolves_to("CPU_ENERGY", "powercap:::ENERGY_UJ:TOTAL");
    resolves_to("PSYS_POWER", "powercap:::ENERGY_UJ:PSYS");
    resolves_to("UNCORE_ENERGY", "powercap:::ENERGY_UJ:UNCORE");
    PAPIM_metric_info_t mi;
    CHECK_RET(PAPIM_query_metric("DRAM_ENERGY", &mi), PAPI_OK);
    CHECK(!mi.resolved && strstr(mi.reason, "has no dram zone"), "DRAM_ENERGY: %s", mi.reason);
    /* the metrics from those counts, in J and W (the component's 1e-6 J per count) */
    CHECK(fabs(metric("CPU_ENERGY", 1, &ev[4], &v[4], 2.0) - 9.0) < 1e-12, "9 J");
    CHECK(fabs(metric("CPU_POWER", 1, &ev[4], &v[4], 2.0) - 4.5) < 1e-12, "4.5 W");
    CHECK(fabs(metric("PKG_POWER", 1, &ev[0], &v[0], 0.5) - 10.0) < 1e-12, "10 W");
    CHECK(fabs(metric("EDP", 1, &ev[4], &v[4], 2.0) - 18.0) < 1e-12, "18 J*s");
    const char *jpi[] = {"powercap:::ENERGY_UJ:TOTAL", "PAPI_TOT_INS"};
    const long long jv[] = {9000000, 3000000000ll};
    CHECK(fabs(metric("J_PER_INS", 2, jpi, jv, 2.0) - 3e-9) < 1e-21, "3 nJ per instruction");
    PAPI_shutdown();
}

static void test_two_socket(void)
{
    use_tree("rapl_two_socket");
    init();
    const char *ev[] = {"powercap:::ENERGY_UJ:TOTAL", "powercap:::ENERGY_UJ:PACKAGE",
                        "powercap:::ENERGY_UJ:DRAM", "powercap:::ENERGY_UJ:CORE"};
    long long v[4];
    /* package 1 about to wrap: 262143328850 is its range (max_energy_range_uj) */
    set_uj("intel-rapl:1", 262143328850ull - 100);
    int es = started(ev, 4);
    add_uj("intel-rapl:0", 2500000);
    set_uj("intel-rapl:1", 899); /* 100 to the top, 1 to wrap to 0, then 899: 1000 uJ */
    add_uj("intel-rapl:0:0", 1200000);
    add_uj("intel-rapl:1:0", 300000);
    add_uj("intel-rapl:0:1", 400000);
    add_uj("intel-rapl:1:1", 600000);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2500000 + 1000); /* the packages only: never + core or dram */
    CHECK_EQ_LL(v[1], 2501000);
    CHECK_EQ_LL(v[2], 1000000);
    CHECK_EQ_LL(v[3], 1500000);
    add_uj("intel-rapl:0", 500000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 3001000);
    /* stopped: frozen; started again: from there */
    add_uj("intel-rapl:0", 7000000);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    add_uj("intel-rapl:1", 42);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 42);
    CHECK_EQ_LL(v[2], 0);
    free_set(&es);
    /* per package (a socket's reader in an MPI job): package 1's zone and its subzones */
    const char *pk[] = {"powercap:::ENERGY_UJ:TOTAL:PKG1", "powercap:::ENERGY_UJ:DRAM:PKG1",
                        "powercap:::ENERGY_UJ:CORE:PKG0", "powercap:::ENERGY_UJ:PACKAGE:PKG0"};
    es = started(pk, 4);
    add_uj("intel-rapl:0", 100);
    add_uj("intel-rapl:1", 2000);
    add_uj("intel-rapl:1:1", 30);
    add_uj("intel-rapl:0:1", 5);
    add_uj("intel-rapl:0:0", 7);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2000); /* package 1 alone: never + its dram, never + package 0 */
    CHECK_EQ_LL(v[1], 30);
    CHECK_EQ_LL(v[2], 7);
    CHECK_EQ_LL(v[3], 100);
    free_set(&es);
    refused("powercap:::ENERGY_UJ:TOTAL:PKG2", "no such package");
    refused("powercap:::ENERGY_UJ:PSYS", "has no psys (platform) zone");
    refused("powercap:::ENERGY_UJ:UNCORE", "has no uncore zone");
    PAPI_event_info_t info;
    event_info_of("powercap:::ENERGY_UJ:TOTAL", &info);
    CHECK(strstr(info.long_descr, "summed over 2 zones") && !strcmp(info.units, "uJ") &&
              info.value_type == PAPI_VALUETYPE_RUNNING_SUM,
          "TOTAL: %s [%s]", info.long_descr, info.units);
    PAPI_shutdown();
}

static void test_amd(void)
{
    use_tree("rapl_amd_node");
    init();
    const char *ev[] = {"powercap:::ENERGY_UJ:TOTAL", "powercap:::ENERGY_UJ:CORE"};
    long long v[2];
    int es = started(ev, 2);
    add_uj("intel-rapl:0", 3000000);
    add_uj("intel-rapl:0:0", 1000001);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 3000000);
    CHECK_EQ_LL(v[1], 1000001);
    free_set(&es);
    refused("powercap:::ENERGY_UJ:DRAM", "has no dram zone");
    resolves_to("PKG_ENERGY", "powercap:::ENERGY_UJ:PACKAGE");
    PAPI_shutdown();
}

static void test_arm_none(void)
{
    use_tree("arm64"); /* an Arm node: no powercap tree */
    init();
    int cidx = PAPI_get_component_index("powercap");
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    CHECK(ci && ci->disabled && strstr(ci->disabled_reason, "no powercap tree"), "disabled: %s",
          ci ? ci->disabled_reason : "?");
    refused("powercap:::ENERGY_UJ:TOTAL", "powercap is disabled: no powercap tree");
    PAPIM_metric_info_t mi;
    CHECK_RET(PAPIM_query_metric("CPU_ENERGY", &mi), PAPI_OK);
    CHECK(!mi.resolved && strstr(mi.reason, "no powercap tree"), "CPU_ENERGY: %s", mi.reason);
    PAPI_shutdown();
}

/* One zone broken: the component stays, the zone is named in its note, its sums are
 * refused with the reason, every other event still counts exactly. */
static void broken_zone(const char *how, const char *zone, const char *want,
                        const char *sum_refused, const char *sum_kept)
{
    use_tree("rapl_two_socket");
    char p[1400];
    if (!strcmp(how, "text"))
        write_file(zone, "energy_uj", "garbage\n");
    else if (!strcmp(how, "missing")) {
        snprintf(p, sizeof p, "%s/%s/energy_uj", dir, zone);
        unlink(p);
    } else if (!strcmp(how, "directory")) { /* unreadable for root too */
        snprintf(p, sizeof p, "%s/%s/energy_uj", dir, zone);
        unlink(p);
        mkdir(p, 0755);
    }
    init();
    int cidx = PAPI_get_component_index("powercap");
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    const char *note = PAPI_get_component_reason(cidx);
    CHECK(ci && !ci->disabled, "%s %s: the component stays enabled", how, zone);
    CHECK(note && strstr(note, zone) && strstr(note, want), "%s: note \"%s\" lacks %s, %s", how,
          note ? note : "", zone, want);
    refused(sum_refused, want);
    const char *ev[] = {"powercap:::ENERGY_UJ:ZONE0_SUBZONE1", sum_kept,
                        "powercap:::POWER_LIMIT_A_UW:ZONE1"};
    long long v[3];
    int es = started(ev, 3);
    add_uj("intel-rapl:0:1", 4321);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 4321);
    CHECK(v[1] >= 0, "%s still counts", sum_kept);
    CHECK_EQ_LL(v[2], 165000000); /* the broken zone's settings are kept */
    free_set(&es);
    printf("%s %s: %s\n", how, zone, note);
    PAPI_shutdown();
}

/* A zone without max_energy_range_uj counts on (nothing lost), said in the note; a
 * read that sees it go back fails with the reason, since the wrap cannot be undone. */
static void test_no_range(void)
{
    use_tree("rapl_two_socket");
    char p[1400];
    snprintf(p, sizeof p, "%s/intel-rapl:1:0/max_energy_range_uj", dir);
    unlink(p);
    init();
    const char *note = PAPI_get_component_reason(PAPI_get_component_index("powercap"));
    CHECK(note && strstr(note, "intel-rapl:1:0/energy_uj has no readable max_energy_range_uj"),
          "note: %s", note ? note : "");
    const char *ev[] = {"powercap:::ENERGY_UJ:CORE"};
    long long v[1];
    int es = started(ev, 1);
    add_uj("intel-rapl:1:0", 600);
    add_uj("intel-rapl:0:0", 400);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1000);
    set_uj("intel-rapl:1:0", 5); /* back: a wrap of unknown range */
    CHECK(PAPI_read(es, v) == PAPI_ESYS, "a counter gone back without a range is refused");
    CHECK(strstr(PAPI_strerror_detail(), "no max_energy_range_uj to undo a wrap"), "reason: %s",
          PAPI_strerror_detail());
    PAPI_shutdown();
}

static void test_malformed(void)
{
    broken_zone("text", "intel-rapl:1", "not a number", "powercap:::ENERGY_UJ:TOTAL",
                "powercap:::ENERGY_UJ:DRAM");
    broken_zone("text", "intel-rapl:1", "not a number", "powercap:::ENERGY_UJ:PACKAGE",
                "powercap:::ENERGY_UJ:CORE");
    broken_zone("missing", "intel-rapl:1:1", "has no energy_uj", "powercap:::ENERGY_UJ:DRAM",
                "powercap:::ENERGY_UJ:TOTAL");
    broken_zone("directory", "intel-rapl:1", "Is a directory", "powercap:::ENERGY_UJ:TOTAL",
                "powercap:::ENERGY_UJ:ZONE0");

    /* root-only energy_uj (Linux 5.10 on) everywhere: disabled with that reason */
    use_tree("rapl_amd_node");
    char p[1400];
    snprintf(p, sizeof p, "%s/intel-rapl:0/energy_uj", dir);
    chmod(p, 0);
    snprintf(p, sizeof p, "%s/intel-rapl:0:0/energy_uj", dir);
    chmod(p, 0);
    if (geteuid() != 0) {
        init();
        int cidx = PAPI_get_component_index("powercap");
        const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
        CHECK(ci && ci->disabled == PAPI_EPERM && strstr(ci->disabled_reason, "root only"),
              "disabled for permission: %s", ci ? ci->disabled_reason : "?");
        PAPI_shutdown();
    } else {
        printf("note: running as root, the EACCES case of energy_uj is not checked\n");
    }

    /* a counter that turns to garbage while counting: that set's read fails with the
     * file and the reason; another set without it still counts */
    use_tree("rapl_two_socket");
    init();
    const char *bad[] = {"powercap:::ENERGY_UJ:PACKAGE"}, *good[] = {"powercap:::ENERGY_UJ:DRAM"};
    int es1 = started(bad, 1), es2 = PAPI_NULL;
    CHECK_RET(PAPI_stop(es1, NULL), PAPI_OK);
    es2 = started(good, 1);
    CHECK_RET(PAPI_stop(es2, NULL), PAPI_OK);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    write_file("intel-rapl:1", "energy_uj", "12x\n");
    long long v[1];
    CHECK(PAPI_read(es1, v) == PAPI_ESYS, "garbage refused");
    CHECK(strstr(PAPI_strerror_detail(), "intel-rapl:1/energy_uj") &&
              strstr(PAPI_strerror_detail(), "not a number"),
          "reason: %s", PAPI_strerror_detail());
    CHECK(PAPI_stop(es1, v) == PAPI_ESYS, "stop refused too, with the reason");
    PAPI_shutdown();
    init();
    /* found again at the next initialisation: package 1 left out, DRAM still counts */
    es2 = started(good, 1);
    add_uj("intel-rapl:1:1", 77);
    CHECK_RET(PAPI_stop(es2, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 77);
    free_set(&es2);
    PAPI_shutdown();
}

/* An energy_uj above its zone's max_energy_range_uj, which the counter never passes, is
 * refused (PAPI_ESYS, the file and both values in the reason), never read as a wrap: at
 * a read (it was counted as a plain difference) and at the start (a later reading below
 * it was unwrapped through the smaller range: 2^64 - ...). Back in range, it counts. */
static void test_above_range(void)
{
    use_tree("rapl_two_socket");
    init();
    const char *ev[] = {"powercap:::ENERGY_UJ:ZONE1", "powercap:::ENERGY_UJ:TOTAL"};
    const char *want = "intel-rapl:1/energy_uj: 262143333850 uJ is above its "
                       "max_energy_range_uj 262143328850 uJ";
    long long v[2];
    int es = started(ev, 2);
    add_uj("intel-rapl:1", 1000);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1000);
    set_uj("intel-rapl:1", 262143328850ull + 5000);
    v[0] = v[1] = -1;
    CHECK_RET(PAPI_read(es, v), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), want), "read's reason: %s", PAPI_strerror_detail());
    CHECK(v[0] == -1 && v[1] == -1, "values %lld %lld written by a refused read", v[0], v[1]);
    CHECK_RET(PAPI_stop(es, v), PAPI_ESYS);
    set_uj("intel-rapl:1", 105002000); /* back in range: 2000 uJ since the start */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2000);
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
    /* above the range at the start: refused there, before any reading depends on it */
    CHECK_RET(PAPI_add_named_event(es, ev[1]), PAPI_OK);
    set_uj("intel-rapl:1", 262143328850ull + 5000);
    CHECK_RET(PAPI_start(es), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), want), "start's reason: %s", PAPI_strerror_detail());
    set_uj("intel-rapl:1", 100);
    if (PAPI_read(es, v) == PAPI_OK) /* (started before the fix) */
        CHECK(v[0] >= 0 && v[0] < 1000000000, "read as a wrap: %lld uJ", v[0]);
    free_set(&es);
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    tree_scratch(argc, "test_powercap_energy", "recorded machines directory", scratch,
                 sizeof scratch);
    snprintf(recorded, sizeof recorded, "%s", argv[1]);
    test_psys_client();
    test_two_socket();
    test_amd();
    test_arm_none();
    test_malformed();
    test_no_range();
    test_above_range();
    remove_tree(scratch);
    return test_done("test_powercap_energy");
}
