/* test_metric_replay: the metric tables on recorded machines (tests/machines, replayed
 * through PAPI_FSROOT one after the other in one process): which metrics resolve, to
 * which events on which PMUs; the kernel's .scale/.unit applied when a metric is
 * evaluated (memory-controller CAS counts in MiB become bytes) while the count itself
 * stays raw; zero denominators and missing counts refused with the reason; and, with
 * CAP_PERFMON dropped, the reason a paranoid-3 node refuses its
 * memory controllers. Public API (papi_metrics.h).
 * Usage: test_metric_replay <tests/machines> [drop-caps] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_metrics.h"
#include "papi_test.h"
#include "test_caps.h"

#define MAX_EV 8

/* What metric resolves to on machine: its events in order (NULL-ended; none: it does
 * not resolve, and its reason holds why). */
struct resolution {
    const char *machine, *metric, *why;
    const char *events[MAX_EV];
};

static const struct resolution resolutions[] = {
    /* Granite Rapids: both command schedulers of each channel (the kernel's _sch0/_sch1). */
    {"gnr_node",
     "MEM_BW",
     NULL,
     {"uncore_imc_0::cas_count_read_sch0", "uncore_imc_1::cas_count_read_sch0",
      "uncore_imc_0::cas_count_read_sch1", "uncore_imc_1::cas_count_read_sch1",
      "uncore_imc_0::cas_count_write_sch0", "uncore_imc_1::cas_count_write_sch0",
      "uncore_imc_0::cas_count_write_sch1", "uncore_imc_1::cas_count_write_sch1"}},
    {"gnr_node", "TOPDOWN_RETIRING", NULL, {"cpu::topdown-retiring", "cpu::slots"}},
    {"gnr_node", "TOPDOWN_MEMORY_BOUND", NULL, {"cpu::topdown-mem-bound", "cpu::slots"}},
    {"gnr_node", "DP_FLOPS", NULL, {"PAPI_DP_OPS"}},
    {"gnr_node",
     "HP_FLOPS",
     NULL,
     {"cpu::event=0xcf,umask=0x03", "cpu::event=0xcf,umask=0x04", "cpu::event=0xcf,umask=0x08",
      "cpu::event=0xcf,umask=0x10"}},
    {"emr_node",
     "MEM_READ_BW",
     NULL,
     {"uncore_imc_0::cas_count_read", "uncore_imc_1::cas_count_read"}},
    {"emr_node",
     "TOPDOWN_CORE_BOUND",
     NULL,
     {"cpu::topdown-be-bound", "cpu::topdown-mem-bound", "cpu::slots"}},
    {"spr_node",
     "MEM_WRITE_BW",
     NULL,
     {"uncore_imc_0::cas_count_write", "uncore_imc_1::cas_count_write"}},
    {"spr_node", "TOPDOWN_BAD_SPECULATION", NULL, {"cpu::topdown-bad-spec", "cpu::slots"}},
    {"spr_node",
     "TOPDOWN_FETCH_BANDWIDTH",
     NULL,
     {"cpu::topdown-fe-bound", "cpu::topdown-fetch-lat", "cpu::slots"}},
    /* The spr presets name libpfm4 events, which only a live SPR encodes. */
    {"spr_node", "IPC", "spr::INSTRUCTION_RETIRED", {NULL}},
    {"zen5_node",
     "MEM_BW",
     NULL,
     {"amd_umc_0::event=0x0a,rdwrmask=0x1", "amd_umc_0::event=0x0a,rdwrmask=0x2"}},
    {"zen5_node", "TOPDOWN_RETIRING", NULL, {"cpu::event=0xc1", "cpu::event=0x76"}},
    {"zen5_node", "DP_FLOPS", NULL, {"PAPI_DP_OPS"}},
    {"zen5_node",
     "TOPDOWN_MEMORY_BOUND",
     NULL,
     {"cpu::event=0x1a0,umask=0x1e", "cpu::event=0x76", "cpu::event=0xd6,umask=0xa2",
      "cpu::event=0xd6,umask=0x02"}},
    {"zen5_node", "TOPDOWN_HEAVY_OPERATIONS", NULL, {"cpu::event=0x1c2", "cpu::event=0x76"}},
    {"mtl_hybrid",
     "TOPDOWN_FRONTEND_BOUND",
     NULL,
     {"cpu_core::topdown-fe-bound", "cpu_core::slots"}},
    {"mtl_hybrid",
     "MEM_BW",
     NULL,
     {"uncore_imc_free_running_0::data_read", "uncore_imc_free_running_1::data_read",
      "uncore_imc_free_running_0::data_write", "uncore_imc_free_running_1::data_write"}},
    /* Ice Lake client: the PCI memory controller's data counters, as the client parts
     * before it. */
    {"icl_client", "MEM_BW", NULL, {"uncore_imc::data_reads", "uncore_imc::data_writes"}},
    {"icl_client", "TOPDOWN_RETIRING", NULL, {"cpu::topdown-retiring", "cpu::slots"}},
    /* Tiger Lake, under libpfm4's icl table too: the table's second formula, over the
     * free-running counters (the first names uncore_imc, which it does not have). */
    {"tgl_client",
     "MEM_BW",
     NULL,
     {"uncore_imc_free_running_0::data_read", "uncore_imc_free_running_1::data_read",
      "uncore_imc_free_running_0::data_write", "uncore_imc_free_running_1::data_write"}},
    /* Nehalem: the one "uncore" PMU's memory-controller reads and full writes. */
    {"nhm_node", "MEM_BW", NULL, {"uncore::qmc_normal_reads_any", "uncore::qmc_writes_full_any"}},
    {"nhm_node", "MEM_READ_BW", NULL, {"uncore::qmc_normal_reads_any"}},
    /* Zen 1: the data fabric's eight DRAM channel events. */
    {"zen1_node",
     "MEM_BW",
     NULL,
     {"amd_df::event=0x07,umask=0x38", "amd_df::event=0x47,umask=0x38",
      "amd_df::event=0x87,umask=0x38", "amd_df::event=0xc7,umask=0x38",
      "amd_df::event=0x107,umask=0x38", "amd_df::event=0x147,umask=0x38",
      "amd_df::event=0x187,umask=0x38", "amd_df::event=0x1c7,umask=0x38"}},
    {"neoverse_v2_node", "MEM_BW", NULL, {"arm_cmn_0::hnf_mc_reqs"}},
    {"neoverse_v2_node",
     "TOPDOWN_RETIRING",
     NULL,
     {"armv8_pmuv3_0::op_retired", "armv8_pmuv3_0::op_spec", "armv8_pmuv3_0::stall_slot",
      "armv8_pmuv3_0::cpu_cycles"}},
    {"neoverse_v2_node",
     "TOPDOWN_BACKEND_BOUND",
     NULL,
     {"armv8_pmuv3_0::stall_slot_backend", "armv8_pmuv3_0::cpu_cycles"}},
    {"neoverse_v2_node", "HP_FLOPS", NULL, {"armv8_pmuv3_0::event=0x8014"}},
    {"neoverse_v2_node",
     "L2_MISS_RATIO",
     NULL,
     {"armv8_pmuv3_0::l2d_cache_refill", "armv8_pmuv3_0::l2d_cache"}},
    /* CPU_UTILIZATION resolves on any machine, a VM without a PMU too. */
    {"vm_no_pmu", "CPU_UTILIZATION", NULL, {"perf::TASK-CLOCK"}},
};

/* A metric evaluated on a recorded machine from counts given here, worked by hand. */
struct evaluation {
    const char *machine, *metric;
    const char *events[MAX_EV];
    long long counts[MAX_EV];
    double seconds, expect;
};

static const struct evaluation evaluations[] = {
    /* 1000 + 3000 CAS reads, 6.103515625e-5 MiB each by the kernel's scale = 64 bytes:
     * 256000 bytes in 2 s. */
    {"gnr_node",
     "MEM_READ_BW",
     {"uncore_imc_0::cas_count_read_sch0", "uncore_imc_1::cas_count_read_sch0",
      "uncore_imc_0::cas_count_read_sch1", "uncore_imc_1::cas_count_read_sch1"},
     {1000, 3000, 0, 0},
     2,
     128000},
    /* 1000 + 1000 scheduler-0 and 2000 + 0 scheduler-1 reads, 500 writes on each of the
     * four: 6000 x 64 bytes in 3 s. */
    {"gnr_node",
     "MEM_BW",
     {"uncore_imc_0::cas_count_read_sch0", "uncore_imc_1::cas_count_read_sch0",
      "uncore_imc_0::cas_count_read_sch1", "uncore_imc_1::cas_count_read_sch1",
      "uncore_imc_0::cas_count_write_sch0", "uncore_imc_1::cas_count_write_sch0",
      "uncore_imc_0::cas_count_write_sch1", "uncore_imc_1::cas_count_write_sch1"},
     {1000, 1000, 2000, 0, 500, 500, 500, 500},
     3,
     128000},
    /* Ice Lake client: 2^20 x 6.103515625e-5 MiB = 64 MiB read, 0 written, in 2 s. */
    {"icl_client",
     "MEM_BW",
     {"uncore_imc::data_reads", "uncore_imc::data_writes"},
     {1048576, 0},
     2,
     33554432},
    /* Meteor Lake: 1000 + 3000 reads of 64 bytes (the kernel's scale) in 1 s. */
    {"mtl_hybrid",
     "MEM_READ_BW",
     {"uncore_imc_free_running_0::data_read", "uncore_imc_free_running_1::data_read"},
     {1000, 3000},
     1,
     256000},
    /* Tiger Lake: 1000 + 1000 reads, 500 + 1500 writes of 64 bytes in 2 s. */
    {"tgl_client",
     "MEM_BW",
     {"uncore_imc_free_running_0::data_read", "uncore_imc_free_running_1::data_read",
      "uncore_imc_free_running_0::data_write", "uncore_imc_free_running_1::data_write"},
     {1000, 1000, 500, 1500},
     2,
     128000},
    /* Nehalem has no scale files: the formula's 64 bytes, (3000 + 1000) x 64 in 4 s. */
    {"nhm_node",
     "MEM_BW",
     {"uncore::qmc_normal_reads_any", "uncore::qmc_writes_full_any"},
     {3000, 1000},
     4,
     64000},
    /* Zen 1: 100 requests on each of eight channels, 64 bytes each, in 0.5 s. */
    {"zen1_node",
     "MEM_BW",
     {"amd_df::event=0x07,umask=0x38", "amd_df::event=0x47,umask=0x38",
      "amd_df::event=0x87,umask=0x38", "amd_df::event=0xc7,umask=0x38",
      "amd_df::event=0x107,umask=0x38", "amd_df::event=0x147,umask=0x38",
      "amd_df::event=0x187,umask=0x38", "amd_df::event=0x1c7,umask=0x38"},
     {100, 100, 100, 100, 100, 100, 100, 100},
     0.5,
     102400},
    /* reads 1000 + 3000, writes 500 + 500: 5000 x 64 bytes in 1 s. */
    {"spr_node",
     "MEM_BW",
     {"uncore_imc_0::cas_count_read", "uncore_imc_1::cas_count_read",
      "uncore_imc_0::cas_count_write", "uncore_imc_1::cas_count_write"},
     {1000, 3000, 500, 500},
     1,
     320000},
    /* Zen 5's UMC has no .scale: the formula's 64 bytes per CAS: 1.5e6 x 64 in 1 s. */
    {"zen5_node",
     "MEM_BW",
     {"amd_umc_0::event=0x0a,rdwrmask=0x1", "amd_umc_0::event=0x0a,rdwrmask=0x2"},
     {1000000, 500000},
     1,
     9.6e7},
    /* V2: 900 of 1000 ops retired, 4000 of 8 x 1000 slots stalled: 0.9 x 0.5. */
    {"neoverse_v2_node",
     "TOPDOWN_RETIRING",
     {"armv8_pmuv3_0::op_retired", "armv8_pmuv3_0::op_spec", "armv8_pmuv3_0::stall_slot",
      "armv8_pmuv3_0::cpu_cycles"},
     {900, 1000, 4000, 1000},
     1,
     0.45},
};

static void use_machine(const char *dir, const char *machine)
{
    char root[4096];
    snprintf(root, sizeof root, "%s/%s", dir, machine);
    setenv("PAPI_FSROOT", root, 1);
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    if (r != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init on %s: %d\n", machine, r);
        exit(1);
    }
}

/* A metrics table of text written at path and made the one in force (PAPI_METRICS_FILE);
 * path, or NULL (a failed check) when it cannot be written. */
static const char *use_table(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "write %s", path);
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    setenv("PAPI_METRICS_FILE", path, 1);
    return path;
}

static void check_resolution(const struct resolution *x)
{
    PAPIM_metric_info_t info;
    int r = PAPIM_query_metric(x->metric, &info);
    CHECK(r == PAPI_OK, "%s: %s is in the table (%d)", x->machine, x->metric, r);
    if (r != PAPI_OK)
        return;
    if (!x->events[0]) {
        CHECK(!info.resolved && strstr(info.reason, x->why), "%s: %s unresolved because '%s': %s",
              x->machine, x->metric, x->why, info.reason);
        return;
    }
    int n = 0;
    while (n < MAX_EV && x->events[n])
        n++;
    CHECK(info.resolved && info.num_events == n, "%s: %s resolves to %d events: %d (%s)",
          x->machine, x->metric, n, info.num_events, info.reason);
    for (int i = 0; i < n && i < info.num_events; i++)
        CHECK(strcmp(info.event_names[i], x->events[i]) == 0, "%s: %s event %d is %s, not %s",
              x->machine, x->metric, i + 1, info.event_names[i], x->events[i]);
    printf("%-17s %-26s ->", x->machine, x->metric);
    for (int i = 0; i < info.num_events; i++)
        printf(" %s", info.event_names[i]);
    printf("\n");
}

static void check_evaluation(const struct evaluation *x)
{
    int n = 0;
    while (n < MAX_EV && x->events[n])
        n++;
    double v = -1;
    int r = PAPIM_evaluate(x->metric, n, x->events, x->counts, x->seconds, &v);
    CHECK(r == PAPI_OK && fabs(v - x->expect) <= 1e-9 * x->expect, "%s: %s = %g, want %g (%d %s)",
          x->machine, x->metric, v, x->expect, r, r == PAPI_OK ? "" : PAPI_strerror_detail());
    printf("%-17s %-26s = %g\n", x->machine, x->metric, v);
}

/* Bad counts on a recorded Granite Rapids: a zero denominator and a missing event are
 * refused with the reason, the result left as it was. */
static void check_refusals(void)
{
    const char *td[] = {"cpu::topdown-retiring", "cpu::slots"};
    long long zero_slots[] = {400, 0};
    double v = -1;
    CHECK_RET(PAPIM_evaluate("TOPDOWN_RETIRING", 2, td, zero_slots, 1, &v), PAPI_EINVAL);
    CHECK(v == -1 && strstr(PAPI_strerror_detail(), "division by zero: cpu::slots counted 0"),
          "zero slots: %s", PAPI_strerror_detail());
    const char *reads[] = {"uncore_imc_0::cas_count_read_sch0",
                           "uncore_imc_1::cas_count_read_sch0"};
    long long counts[] = {1, 1};
    CHECK_RET(PAPIM_evaluate("MEM_BW", 2, reads, counts, 1, &v), PAPI_EINVAL);
    CHECK(v == -1 && strstr(PAPI_strerror_detail(), "uncore_imc_0::cas_count_read_sch1") &&
              strstr(PAPI_strerror_detail(), "not given"),
          "missing write counts: %s", PAPI_strerror_detail());
}

/* The kernel's scale is shown with the event, and the event's count is not changed by
 * it: PAPI_get_event_info gives the unit, the long description the scale. */
static void check_event_unit(void)
{
    int code;
    PAPI_event_info_t info;
    CHECK_RET(PAPI_event_name_to_code("uncore_imc_0::cas_count_read_sch1", &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(strcmp(info.units, "MiB") == 0 && strstr(info.long_descr, "6.103515625e-05 MiB"),
          "gnr_node: cas_count_read_sch1 in MiB by 6.103515625e-05: '%s' '%s'", info.units,
          info.long_descr);
    CHECK_RET(PAPI_event_name_to_code("power::energy-pkg", &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
    CHECK(strcmp(info.units, "Joules") == 0, "gnr_node: energy-pkg in Joules: '%s'", info.units);
}

/* RD_BW and CPU_TIME, each with an OR line (check_alternatives). */
static const char or_table[] =
    "CPU,generic\nMETRIC,RD_BW,bytes/s,{uncore_imc::data_reads} / time,reads\n"
    "OR,RD_BW,{uncore_imc_free_running_*::data_read} / time\n"
    "METRIC,CPU_TIME,s,{perf::TASK-CLOCK} / 1e9,cpu time\n"
    "OR,CPU_TIME,{uncore_imc_free_running_*::data_read} / time\n";

/* A table's OR lines on a machine that has none of their PMUs (the recorded VM): the
 * metric stays unresolved, shows its first formula, and its reason gives each formula's
 * why. Through PAPI_METRICS_FILE, with a table written here. */
static void check_alternatives(const char *dir)
{
    const char *path = use_table("/tmp/test_metric_replay_or.csv", or_table);
    if (!path)
        return;
    use_machine(dir, "vm_no_pmu");
    PAPIM_metric_info_t info;
    CHECK_RET(PAPIM_query_metric("RD_BW", &info), PAPI_OK);
    CHECK(!info.resolved && strcmp(info.formula, "{uncore_imc::data_reads} / time") == 0 &&
              strstr(info.reason, "formula 1 ({uncore_imc::data_reads} / time): ") &&
              strstr(info.reason, "formula 2 ({uncore_imc_free_running_*::data_read} / time): "
                                  "uncore_imc_free_running_*::data_read: no PMU of this name "
                                  "pattern with this event"),
          "vm_no_pmu: RD_BW unresolved, each formula's reason: %s (%s)", info.reason, info.formula);
    printf("vm_no_pmu RD_BW: %s\n", info.reason);
    /* The first formula resolves: the OR line is not tried. */
    CHECK_RET(PAPIM_query_metric("CPU_TIME", &info), PAPI_OK);
    CHECK(info.resolved && info.num_events == 1 &&
              strcmp(info.event_names[0], "perf::TASK-CLOCK") == 0,
          "vm_no_pmu: CPU_TIME resolves by its first formula: %s", info.formula);
    PAPI_shutdown();
    unsetenv("PAPI_METRICS_FILE");
    remove(path);
}

/* One formula of six patterns (check_many_controllers). */
static const char wide_table[] =
    "CPU,generic\nMETRIC,WIDE,x,{amd_umc_*::event=0x01} + {amd_umc_*::event=0x02} + "
    "{amd_umc_*::event=0x03} + {amd_umc_*::event=0x04} + {amd_umc_*::event=0x05} + "
    "{amd_umc_*::event=0x06},six patterns\n";

/* A two-socket Zen 5 (24 amd_umc_N): every controller's reads and writes, 48 events in
 * PMU-number order (amd_umc_2 before amd_umc_10), summed whole; and a formula whose
 * patterns would need more than PAPIM_MAX_EVENTS is refused with the count, never summed
 * in part. */
static void check_many_controllers(const char *dir)
{
    use_machine(dir, "zen5_2s_node");
    PAPIM_metric_info_t info;
    CHECK_RET(PAPIM_query_metric("MEM_BW", &info), PAPI_OK);
    CHECK(info.resolved && info.num_events == 48,
          "zen5_2s_node: MEM_BW resolves to 48 events: %d (%s)", info.num_events, info.reason);
    const char *names[48];
    long long counts[48];
    for (int i = 0; i < 48 && i < info.num_events; i++) {
        char want[PAPI_2MAX_STR_LEN];
        snprintf(want, sizeof want, "amd_umc_%d::event=0x0a,rdwrmask=0x%d", i % 24, i < 24 ? 1 : 2);
        CHECK(strcmp(info.event_names[i], want) == 0, "zen5_2s_node: MEM_BW event %d is %s, not %s",
              i + 1, info.event_names[i], want);
        names[i] = info.event_names[i];
        counts[i] = i < 24 ? 1000 : 500; /* the last controller's writes count too */
    }
    printf("zen5_2s_node MEM_BW -> %d events: %s ... %s\n", info.num_events, info.event_names[0],
           info.event_names[info.num_events - 1]);
    double v = -1;
    if (info.num_events == 48) {
        /* 24 x 1000 reads + 24 x 500 writes, 64 bytes each, in 2 s. */
        CHECK_RET(PAPIM_evaluate("MEM_BW", 48, names, counts, 2, &v), PAPI_OK);
        CHECK(fabs(v - 36000.0 * 64 / 2) < 1e-6, "zen5_2s_node: MEM_BW = %g, want %g", v,
              36000.0 * 64 / 2);
        /* Without the 24th controller's writes the sum is refused, not partial. */
        CHECK_RET(PAPIM_evaluate("MEM_BW", 47, names, counts, 2, &v), PAPI_EINVAL);
        CHECK(strstr(PAPI_strerror_detail(), "amd_umc_23::event=0x0a,rdwrmask=0x2"),
              "zen5_2s_node: the missing count named: %s", PAPI_strerror_detail());
    }
    CHECK_RET(PAPIM_query_metric("MEM_WRITE_BW", &info), PAPI_OK);
    CHECK(info.resolved && info.num_events == 24 &&
              strcmp(info.event_names[23], "amd_umc_23::event=0x0a,rdwrmask=0x2") == 0,
          "zen5_2s_node: MEM_WRITE_BW over 24 controllers: %d", info.num_events);
    PAPI_shutdown();

    /* Six patterns over 24 controllers: 144 events, more than PAPIM_MAX_EVENTS (128). */
    const char *path = use_table("/tmp/test_metric_replay_many.csv", wide_table);
    if (!path)
        return;
    use_machine(dir, "zen5_2s_node");
    CHECK_RET(PAPIM_query_metric("WIDE", &info), PAPI_OK);
    CHECK(!info.resolved && !info.countable && strstr(info.reason, "match 144 events") &&
              strstr(info.reason, "more than the 128"),
          "zen5_2s_node: 144 events refused with the count: %s", info.reason);
    printf("zen5_2s_node WIDE: %s\n", info.reason);
    PAPI_shutdown();
    unsetenv("PAPI_METRICS_FILE");
    remove(path);
}

/* Paranoid 3, no CAP_PERFMON: the memory controllers are refused with the reason. */
static void paranoid3(const char *dir)
{
    test_drop_perfmon_caps();
    use_machine(dir, "paranoid3_node");
    PAPIM_metric_info_t info;
    CHECK_RET(PAPIM_query_metric("MEM_BW", &info), PAPI_OK);
    CHECK(info.resolved && !info.countable && strstr(info.reason, "counts a whole socket") &&
              strstr(info.reason, "perf_event_paranoid") && strstr(info.reason, "it is 3"),
          "paranoid3_node: MEM_BW refused with the reason: %s", info.reason);
    printf("paranoid3_node MEM_BW: %s\n", info.reason);
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_metric_replay tests/machines [drop-caps]\n");
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "drop-caps") == 0) {
        paranoid3(argv[1]);
        return test_done("test_metric_replay drop-caps");
    }
    const char *machine = "";
    for (size_t i = 0; i < sizeof resolutions / sizeof resolutions[0]; i++) {
        if (strcmp(machine, resolutions[i].machine) != 0) {
            if (machine[0])
                PAPI_shutdown();
            machine = resolutions[i].machine;
            use_machine(argv[1], machine);
            if (strcmp(machine, "gnr_node") == 0) {
                check_event_unit();
                check_refusals();
            }
        }
        check_resolution(&resolutions[i]);
    }
    PAPI_shutdown();
    check_alternatives(argv[1]);
    check_many_controllers(argv[1]);
    for (size_t i = 0; i < sizeof evaluations / sizeof evaluations[0]; i++) {
        use_machine(argv[1], evaluations[i].machine);
        check_evaluation(&evaluations[i]);
        PAPI_shutdown();
    }
    return test_done("test_metric_replay");
}
