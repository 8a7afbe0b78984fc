/* test_metric_golden: every formula of every CPU table of presets/papi_metrics.csv on
 * count vectors whose results were worked out by hand here, zero denominators among
 * them; that every libpfm4 event a formula names encodes for its CPU; and the parser's
 * refusals, each naming its line. White box (the table and the
 * formula code are internal), so it links the static library.
 * Usage: test_metric_golden <papi_metrics.csv> */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "metric_table.h"
#include "heap_visible.h"
#include "papi_test.h"

/* A formula of the table, as written, on term values (in the order the formula first
 * names them: the terms of a * pattern are one, already summed over its PMUs; sysfs
 * events with a .scale and .unit already in base units) and seconds, with the value
 * worked out by hand; NAN: a division by zero. */
struct golden {
    const char *formula;
    double t[8], seconds, expect;
};

#define CPU_TD(ev)   "{cpu::" ev "} / {cpu::slots}"
#define MTL_TD(ev)   "{cpu_core::" ev "} / {cpu_core::slots}"
#define PRE_ICL      " / (4 * {CPU_CLK_UNHALTED:THREAD_P})"
#define IMC_R        "{uncore_imc_*::cas_count_read}"
#define IMC_W        "{uncore_imc_*::cas_count_write}"
#define IMC_S(rw, s) "{uncore_imc_*::cas_count_" rw "_sch" s "}"
#define UMC_R        "{amd_umc_*::event=0x0a,rdwrmask=0x1}"
#define UMC_W        "{amd_umc_*::event=0x0a,rdwrmask=0x2}"
#define DF(ev)       "{amd_df::event=" ev ",umask=0x38}"
#define ZEN_CYC(w)   " / (" w " * {cpu::event=0x76})"
#define ZEN_BAD(w)   "({cpu::event=0xaa,umask=0x07} - {cpu::event=0xc1})" ZEN_CYC(w)
#define ZEN_BE(w)    "{cpu::event=0x1a0,umask=0x1e}" ZEN_CYC(w)
/* Mispredicts (0xc3) against the other restarts: Zen 4 0x96, Zen 5 0x9f umask 0x01. */
#define ZEN_SPLIT(a, rs) " * {cpu::event=" a "} / ({cpu::event=0xc3} + {cpu::event=" rs "})"
#define ZEN_LOADS        "{cpu::event=0xd6,umask=0xa2} / {cpu::event=0xd6,umask=0x02}"
/* Zen level 2 on width w (cmask cm), with the values worked out below for each. */
#define ZEN_L2(w, cm, rs, fbw, misp, clears, mem, core, heavy, light)                      \
    {"({cpu::event=0x1a0,umask=0x01} - " w " * {cpu::event=0x1a0,umask=0x01,cmask=" cm     \
     "})" ZEN_CYC(w),                                                                      \
     {1200, 100, 1000},                                                                    \
     1,                                                                                    \
     fbw},                                                                                 \
        {ZEN_BAD(w) ZEN_SPLIT("0xc3", rs), {3000, 2400, 1000, 30, 10}, 1, misp},           \
        {ZEN_BAD(w) ZEN_SPLIT("0xc3", rs), {3000, 2400, 1000, 0, 0}, 1, NAN},              \
        {ZEN_BAD(w) ZEN_SPLIT(rs, rs), {3000, 2400, 1000, 10, 30}, 1, clears},             \
        {ZEN_BE(w) " * " ZEN_LOADS, {1800, 1000, 300, 400}, 1, mem},                       \
        {ZEN_BE(w) " * " ZEN_LOADS, {1800, 1000, 300, 0}, 1, NAN},                         \
        {ZEN_BE(w) " * (1 - " ZEN_LOADS ")", {1800, 1000, 300, 400}, 1, core},             \
        {"{cpu::event=0x1c2}" ZEN_CYC(w), {600, 1000}, 1, heavy},                          \
        {"{cpu::event=0x1c2}" ZEN_CYC(w), {600, 0}, 1, NAN},                               \
    {                                                                                      \
        "({cpu::event=0xc1} - {cpu::event=0x1c2})" ZEN_CYC(w), {2400, 600, 1000}, 1, light \
    }
#define ARM(ev)      "{armv8_*::" ev "}"
#define ARM_SLOTS(w) "(" w " * {armv8_*::cpu_cycles})"

static const struct golden goldens[] = {
    /* generic: 1.5 s of CPU in 2 s is 0.75 CPUs. */
    {"{perf::TASK-CLOCK} / 1e9 / time", {1.5e9}, 2, 0.75},
    {"{perf::TASK-CLOCK} / 1e9 / time", {0}, 2, 0},
    {"{perf::TASK-CLOCK} / 1e9 / time", {1e9}, 0, NAN},
    {"PAPI_TOT_INS / PAPI_TOT_CYC", {3000, 1200}, 1, 2.5},
    {"PAPI_TOT_INS / PAPI_TOT_CYC", {3000, 0}, 1, NAN},
    {"PAPI_TOT_CYC / PAPI_TOT_INS", {1200, 3000}, 1, 0.4},
    {"PAPI_TOT_CYC / PAPI_TOT_INS", {1200, 0}, 1, NAN},
    /* generic energy: the powercap sums, already in J (the component's scale); 250 J in
     * 2.5 s is 100 W; 250 J over 5e10 instructions is 5 nJ each; EDP 250 J x 2.5 s. */
    {"{powercap:::ENERGY_UJ:TOTAL}", {250}, 2.5, 250},
    {"{powercap:::ENERGY_UJ:TOTAL} / time", {250}, 2.5, 100},
    {"{powercap:::ENERGY_UJ:TOTAL} / time", {250}, 0, NAN},
    {"{powercap:::ENERGY_UJ:PACKAGE}", {180.5}, 1, 180.5},
    {"{powercap:::ENERGY_UJ:PACKAGE} / time", {180}, 4, 45},
    {"{powercap:::ENERGY_UJ:CORE}", {90}, 1, 90},
    {"{powercap:::ENERGY_UJ:CORE} / time", {90}, 3, 30},
    {"{powercap:::ENERGY_UJ:UNCORE}", {7.25}, 1, 7.25},
    {"{powercap:::ENERGY_UJ:UNCORE} / time", {7.25}, 0.5, 14.5},
    {"{powercap:::ENERGY_UJ:DRAM}", {12}, 1, 12},
    {"{powercap:::ENERGY_UJ:DRAM} / time", {12}, 2, 6},
    {"{powercap:::ENERGY_UJ:PSYS}", {300}, 1, 300},
    {"{powercap:::ENERGY_UJ:PSYS} / time", {300}, 10, 30},
    {"{powercap:::ENERGY_UJ:TOTAL} / PAPI_TOT_INS", {250, 5e10}, 1, 5e-9},
    {"{powercap:::ENERGY_UJ:TOTAL} / PAPI_TOT_INS", {250, 0}, 1, NAN},
    {"{powercap:::ENERGY_UJ:TOTAL} * time", {250}, 2.5, 625},
/* GPU (NVML GPM counter forms, summed over the devices): 1.5 s of SM-busy ns over 2 s
     * is 75 %; two GPUs busy all along, 200 %; 2 GiB received in 4 s, 512 MiB/s. */
#define GPM_PCT(ev) "{nvml:::*:gpm_" ev "_ns} / 1e7 / time"
#define GPM_BW(ev)  "{nvml:::*:gpm_" ev "_bytes} / time"
    {GPM_PCT("sm_activity"), {1.5e9}, 2, 75},
    {GPM_PCT("sm_activity"), {4e9}, 2, 200},
    {GPM_PCT("sm_activity"), {1.5e9}, 0, NAN},
    {GPM_PCT("sm_occupancy"), {5e8}, 2, 25},
    {GPM_PCT("tensor_activity"), {2e8}, 1, 20},
    {GPM_PCT("fp64_activity"), {1e9}, 4, 25},
    {GPM_PCT("fp32_activity"), {3e9}, 4, 75},
    {GPM_PCT("fp16_activity"), {1e7}, 1, 1},
    {GPM_PCT("dram_bandwidth"), {6e8}, 1, 60},
    {GPM_BW("pcie_rx"), {2147483648.0}, 4, 536870912},
    {GPM_BW("pcie_tx"), {1e6}, 0.5, 2e6},
    {GPM_BW("nvlink_rx"), {8e9}, 2, 4e9},
    {GPM_BW("nvlink_tx"), {3e9}, 3, 1e9},
    {GPM_BW("nvlink_tx"), {3e9}, 0, NAN},
/* GPU (CUPTI counters, the cuda component): 1000 DADD, 2000 DMUL and 3000 DFMA thread
     * instructions in 0.5 s are 9000 FLOP, 18000 FLOP/s; 1 MiB of DRAM; 384000 warps in
     * flight of 768000 at most, 50 %; 30000 warp instructions in 12000 active cycles, 2.5. */
#define SASS(op) "{cuda:::smsp__sass_thread_inst_executed_op_" op "_pred_on.sum}"
    {"(" SASS("dadd") " + " SASS("dmul") " + 2 * " SASS("dfma") ") / time",
     {1000, 2000, 3000},
     0.5,
     18000},
    {"(" SASS("dadd") " + " SASS("dmul") " + 2 * " SASS("dfma") ") / time", {1, 2, 3}, 0, NAN},
    {"(" SASS("fadd") " + " SASS("fmul") " + 2 * " SASS("ffma") ") / time",
     {400, 600, 2500},
     2,
     3000},
    {"{cuda:::dram__bytes.sum}", {1048576}, 1, 1048576},
    {"{cuda:::dram__bytes_read.sum} / time", {786432}, 0.5, 1572864},
    {"{cuda:::dram__bytes_write.sum} / time", {262144}, 4, 65536},
    {"100 * {cuda:::sm__warps_active.sum} / {cuda:::sm__warps_active.sum.peak_sustained_active}",
     {384000, 768000},
     1,
     50},
    {"100 * {cuda:::sm__warps_active.sum} / {cuda:::sm__warps_active.sum.peak_sustained_active}",
     {0, 0},
     1,
     NAN},
    {"{cuda:::sm__inst_executed.sum} / {cuda:::sm__cycles_active.sum}", {30000, 12000}, 1, 2.5},
    {"{cuda:::sm__inst_executed.sum} / {cuda:::sm__cycles_active.sum}", {30000, 0}, 1, NAN},
    {"PAPI_DP_OPS / time", {8e9}, 4, 2e9},
    {"PAPI_DP_OPS / time", {8e9}, 0, NAN},
    {"PAPI_SP_OPS / time", {6e9}, 3, 2e9},
    {"PAPI_SP_OPS / time", {6e9}, 0, NAN},
    /* 50 misses in 400 loads + 100 stores. */
    {"PAPI_L1_DCM / (PAPI_LD_INS + PAPI_SR_INS)", {50, 400, 100}, 1, 0.1},
    {"PAPI_L1_DCM / (PAPI_LD_INS + PAPI_SR_INS)", {50, 0, 0}, 1, NAN},
    {"PAPI_L2_TCM / PAPI_L2_TCA", {30, 120}, 1, 0.25},
    {"PAPI_L2_TCM / PAPI_L2_TCA", {30, 0}, 1, NAN},
    {"PAPI_L3_TCM / PAPI_L3_TCA", {7, 28}, 1, 0.25},
    {"PAPI_L3_TCM / PAPI_L3_TCA", {7, 0}, 1, NAN},
    {"PAPI_BR_MSP / PAPI_BR_CN", {5, 200}, 1, 0.025},
    {"PAPI_BR_MSP / PAPI_BR_CN", {5, 0}, 1, NAN},
    {"PAPI_BR_MSP / PAPI_BR_INS", {6, 300}, 1, 0.02},
    {"PAPI_BR_MSP / PAPI_BR_INS", {6, 0}, 1, NAN},
    /* Nehalem/Westmere: 30 lines in 200 loads + 100 stores; 4 of 160 branches. */
    {"{L1D:REPL} / ({MEM_INST_RETIRED:LOADS} + {MEM_INST_RETIRED:STORES})", {30, 200, 100}, 1, 0.1},
    {"{L1D:REPL} / ({MEM_INST_RETIRED:LOADS} + {MEM_INST_RETIRED:STORES})", {30, 0, 0}, 1, NAN},
    {"{BR_MISP_RETIRED:ALL_BRANCHES} / {BR_INST_RETIRED:ALL_BRANCHES}", {4, 160}, 1, 0.025},
    {"{BR_MISP_RETIRED:ALL_BRANCHES} / {BR_INST_RETIRED:ALL_BRANCHES}", {4, 0}, 1, NAN},
    /* Sandy Bridge to Cascade Lake, 1000 cycles = 4000 slots: 2000 retire slots (0.5);
     * 2500 issued - 2000 retired + 4 x 50 recovery = 700 (0.175); 800 not delivered
     * (0.2); the rest 1 - (800 + 2500 + 200) / 4000 = 0.125; the four sum to 1. */
    {"{UOPS_RETIRED:RETIRE_SLOTS}" PRE_ICL, {2000, 1000}, 1, 0.5},
    {"{UOPS_RETIRED:RETIRE_SLOTS}" PRE_ICL, {2000, 0}, 1, NAN},
    {"({UOPS_ISSUED:ANY} - {UOPS_RETIRED:RETIRE_SLOTS} + 4 * {INT_MISC:RECOVERY_CYCLES})" PRE_ICL,
     {2500, 2000, 50, 1000},
     1,
     0.175},
    {"({UOPS_ISSUED:ANY} - {UOPS_RETIRED:RETIRE_SLOTS} + 4 * {INT_MISC:RECOVERY_CYCLES})" PRE_ICL,
     {2500, 2000, 50, 0},
     1,
     NAN},
    {"{IDQ_UOPS_NOT_DELIVERED:CORE}" PRE_ICL, {800, 1000}, 1, 0.2},
    {"{IDQ_UOPS_NOT_DELIVERED:CORE}" PRE_ICL, {800, 0}, 1, NAN},
    {"1 - ({IDQ_UOPS_NOT_DELIVERED:CORE} + {UOPS_ISSUED:ANY} + 4 * "
     "{INT_MISC:RECOVERY_CYCLES})" PRE_ICL,
     {800, 2500, 50, 1000},
     1,
     0.125},
    {"1 - ({IDQ_UOPS_NOT_DELIVERED:CORE} + {UOPS_ISSUED:ANY} + 4 * "
     "{INT_MISC:RECOVERY_CYCLES})" PRE_ICL,
     {800, 2500, 50, 0},
     1,
     NAN},
    /* 60 misses in 300 + 100 uops; 45 of 300 L2 requests; 20 in 150 + 50. */
    {"PAPI_L1_DCM / ({MEM_UOPS_RETIRED:ALL_LOADS} + {MEM_UOPS_RETIRED:ALL_STORES})",
     {60, 300, 100},
     1,
     0.15},
    {"PAPI_L1_DCM / ({MEM_UOPS_RETIRED:ALL_LOADS} + {MEM_UOPS_RETIRED:ALL_STORES})",
     {60, 0, 0},
     1,
     NAN},
    {"{L2_RQSTS:MISS} / {L2_RQSTS:REFERENCES}", {45, 300}, 1, 0.15},
    {"{L2_RQSTS:MISS} / {L2_RQSTS:REFERENCES}", {45, 0}, 1, NAN},
    {"PAPI_L1_DCM / ({MEM_INST_RETIRED:ALL_LOADS} + {MEM_INST_RETIRED:ALL_STORES})",
     {20, 150, 50},
     1,
     0.1},
    {"PAPI_L1_DCM / ({MEM_INST_RETIRED:ALL_LOADS} + {MEM_INST_RETIRED:ALL_STORES})",
     {20, 0, 0},
     1,
     NAN},
    /* Arm CMN: 64-byte requests to the memory controllers, 5e8 in 2 s is 1.6e10 B/s. */
    {"{arm_cmn_*::hnf_mc_reqs} * 64 / time", {5e8}, 2, 1.6e10},
    {"{arm_cmn_*::hnf_mc_reqs} * 64 / time", {5e8}, 0, NAN},
    /* Memory in bytes (the kernel's scale applied before): 3e9 B in 2 s ... */
    {"{uncore_imc::data_reads} / time", {3e9}, 2, 1.5e9},
    {"{uncore_imc::data_reads} / time", {3e9}, 0, NAN},
    {"{uncore_imc::data_writes} / time", {1e9}, 4, 2.5e8},
    {"({uncore_imc::data_reads} + {uncore_imc::data_writes}) / time", {3e9, 1e9}, 2, 2e9},
    {"({uncore_imc::data_reads} + {uncore_imc::data_writes}) / time", {3e9, 1e9}, 0, NAN},
    {IMC_R " / time", {6.4e10}, 2, 3.2e10},
    {IMC_R " / time", {6.4e10}, 0, NAN},
    {IMC_W " / time", {3.2e10}, 2, 1.6e10},
    {"(" IMC_R " + " IMC_W ") / time", {6.4e10, 3.2e10}, 2, 4.8e10},
    {"(" IMC_R " + " IMC_W ") / time", {6.4e10, 3.2e10}, 0, NAN},
    /* Granite Rapids' two schedulers (bytes by the kernel's scale): 1e9 + 3e9 read,
     * 5e8 + 1.5e9 written, in 2 s. */
    {"(" IMC_S("read", "0") " + " IMC_S("read", "1") ") / time", {1e9, 3e9}, 2, 2e9},
    {"(" IMC_S("read", "0") " + " IMC_S("read", "1") ") / time", {1e9, 3e9}, 0, NAN},
    {"(" IMC_S("write", "0") " + " IMC_S("write", "1") ") / time", {5e8, 1.5e9}, 2, 1e9},
    {"(" IMC_S("read", "0") " + " IMC_S("read", "1") " + " IMC_S("write", "0") " + " IMC_S(
         "write", "1") ") / time",
     {1e9, 3e9, 5e8, 1.5e9},
     2,
     3e9},
    {"(" IMC_S("read", "0") " + " IMC_S("read", "1") " + " IMC_S("write", "0") " + " IMC_S(
         "write", "1") ") / time",
     {1e9, 3e9, 5e8, 1.5e9},
     0,
     NAN},
    /* Nehalem's uncore: 64-byte lines, no scale: 5e7 reads, 2.5e7 full writes in 2 s. */
    {"{uncore::qmc_normal_reads_any} * 64 / time", {5e7}, 2, 1.6e9},
    {"{uncore::qmc_normal_reads_any} * 64 / time", {5e7}, 0, NAN},
    {"{uncore::qmc_writes_full_any} * 64 / time", {2.5e7}, 2, 8e8},
    {"({uncore::qmc_normal_reads_any} + {uncore::qmc_writes_full_any}) * 64 / time",
     {5e7, 2.5e7},
     2,
     2.4e9},
    {"({uncore::qmc_normal_reads_any} + {uncore::qmc_writes_full_any}) * 64 / time",
     {5e7, 2.5e7},
     0,
     NAN},
    {"{uncore_imc_free_running_*::data_read} / time", {4e9}, 2, 2e9},
    {"{uncore_imc_free_running_*::data_read} / time", {4e9}, 0, NAN},
    {"{uncore_imc_free_running_*::data_write} / time", {2e9}, 2, 1e9},
    {"({uncore_imc_free_running_*::data_read} + {uncore_imc_free_running_*::data_write}) / time",
     {4e9, 2e9},
     2,
     3e9},
    /* Ice Lake on, 1000 slots: 400 retiring, 100 bad speculation, 200 front end, 300
     * back end; level 2: 50 heavy (light 350), 80 mispredicts (clears 20), 120 fetch
     * latency (bandwidth 80), 250 memory (core 50). */
    {CPU_TD("topdown-retiring"), {400, 1000}, 1, 0.4},
    {CPU_TD("topdown-retiring"), {400, 0}, 1, NAN},
    {CPU_TD("topdown-bad-spec"), {100, 1000}, 1, 0.1},
    {CPU_TD("topdown-fe-bound"), {200, 1000}, 1, 0.2},
    {CPU_TD("topdown-be-bound"), {300, 1000}, 1, 0.3},
    {CPU_TD("topdown-be-bound"), {300, 0}, 1, NAN},
    {CPU_TD("topdown-heavy-ops"), {50, 1000}, 1, 0.05},
    {"({cpu::topdown-retiring} - {cpu::topdown-heavy-ops}) / {cpu::slots}",
     {400, 50, 1000},
     1,
     0.35},
    {"({cpu::topdown-retiring} - {cpu::topdown-heavy-ops}) / {cpu::slots}", {400, 50, 0}, 1, NAN},
    {CPU_TD("topdown-br-mispredict"), {80, 1000}, 1, 0.08},
    {"({cpu::topdown-bad-spec} - {cpu::topdown-br-mispredict}) / {cpu::slots}",
     {100, 80, 1000},
     1,
     0.02},
    {CPU_TD("topdown-fetch-lat"), {120, 1000}, 1, 0.12},
    {"({cpu::topdown-fe-bound} - {cpu::topdown-fetch-lat}) / {cpu::slots}",
     {200, 120, 1000},
     1,
     0.08},
    {CPU_TD("topdown-mem-bound"), {250, 1000}, 1, 0.25},
    {"({cpu::topdown-be-bound} - {cpu::topdown-mem-bound}) / {cpu::slots}",
     {300, 250, 1000},
     1,
     0.05},
    {MTL_TD("topdown-retiring"), {400, 1000}, 1, 0.4},
    {MTL_TD("topdown-retiring"), {400, 0}, 1, NAN},
    {MTL_TD("topdown-bad-spec"), {100, 1000}, 1, 0.1},
    {MTL_TD("topdown-fe-bound"), {200, 1000}, 1, 0.2},
    {MTL_TD("topdown-be-bound"), {300, 1000}, 1, 0.3},
    {MTL_TD("topdown-mem-bound"), {250, 1000}, 1, 0.25},
    {MTL_TD("topdown-fetch-lat"), {120, 1000}, 1, 0.12},
    /* AVX512-FP16: 10 scalar + 8 x 2 + 16 x 3 + 32 x 1 = 106 FLOPs in 2 s. */
    {"({cpu::event=0xcf,umask=0x03} + 8 * {cpu::event=0xcf,umask=0x04} + 16 * "
     "{cpu::event=0xcf,umask=0x08} + 32 * {cpu::event=0xcf,umask=0x10}) / time",
     {10, 2, 3, 1},
     2,
     53},
    {"({cpu::event=0xcf,umask=0x03} + 8 * {cpu::event=0xcf,umask=0x04} + 16 * "
     "{cpu::event=0xcf,umask=0x08} + 32 * {cpu::event=0xcf,umask=0x10}) / time",
     {10, 2, 3, 1},
     0,
     NAN},
    /* Zen 2/3: (1 + 2 + ... + 8) x 1e7 = 3.6e8 lines x 64 B in 2 s = 1.152e10 B/s. */
    {"(" DF("0x07") " + " DF("0x47") " + " DF("0x87") " + " DF("0xc7") " + " DF("0x107") " + " DF(
         "0x147") " + " DF("0x187") " + " DF("0x1c7") ") * 64 / time",
     {1e7, 2e7, 3e7, 4e7, 5e7, 6e7, 7e7, 8e7},
     2,
     1.152e10},
    {"(" DF("0x07") " + " DF("0x47") " + " DF("0x87") " + " DF("0xc7") " + " DF("0x107") " + " DF(
         "0x147") " + " DF("0x187") " + " DF("0x1c7") ") * 64 / time",
     {1e7, 2e7, 3e7, 4e7, 5e7, 6e7, 7e7, 8e7},
     0,
     NAN},
    /* Zen 4/5 UMC: 1e9 reads x 64 B / 2 s; 5e8 writes x 64 / 4 s; both / 2 s. */
    {UMC_R " * 64 / time", {1e9}, 2, 3.2e10},
    {UMC_R " * 64 / time", {1e9}, 0, NAN},
    {UMC_W " * 64 / time", {5e8}, 4, 8e9},
    {"(" UMC_R " + " UMC_W ") * 64 / time", {1e9, 5e8}, 2, 4.8e10},
    {"(" UMC_R " + " UMC_W ") * 64 / time", {1e9, 5e8}, 0, NAN},
    /* Zen 4 (6 slots) and Zen 5 (8) over 1000 cycles: 2400 retired ops, 3000 dispatched,
     * 1200 front-end and 1800 back-end empty slots, 100 cycles with nothing dispatched. */
    {"{cpu::event=0xc1}" ZEN_CYC("6"), {2400, 1000}, 1, 0.4},
    {"{cpu::event=0xc1}" ZEN_CYC("6"), {2400, 0}, 1, NAN},
    {"({cpu::event=0xaa,umask=0x07} - {cpu::event=0xc1})" ZEN_CYC("6"), {3000, 2400, 1000}, 1, 0.1},
    {"{cpu::event=0x1a0,umask=0x01}" ZEN_CYC("6"), {1200, 1000}, 1, 0.2},
    {"{cpu::event=0x1a0,umask=0x1e}" ZEN_CYC("6"), {1800, 1000}, 1, 0.3},
    {"6 * {cpu::event=0x1a0,umask=0x01,cmask=0x06}" ZEN_CYC("6"), {100, 1000}, 1, 0.1},
    {"6 * {cpu::event=0x1a0,umask=0x01,cmask=0x06}" ZEN_CYC("6"), {100, 0}, 1, NAN},
    {"{cpu::event=0xc1}" ZEN_CYC("8"), {2400, 1000}, 1, 0.3},
    {"{cpu::event=0xc1}" ZEN_CYC("8"), {2400, 0}, 1, NAN},
    {"({cpu::event=0xaa,umask=0x07} - {cpu::event=0xc1})" ZEN_CYC("8"),
     {3000, 2400, 1000},
     1,
     0.075},
    {"{cpu::event=0x1a0,umask=0x01}" ZEN_CYC("8"), {1200, 1000}, 1, 0.15},
    {"{cpu::event=0x1a0,umask=0x1e}" ZEN_CYC("8"), {1800, 1000}, 1, 0.225},
    {"8 * {cpu::event=0x1a0,umask=0x01,cmask=0x08}" ZEN_CYC("8"), {100, 1000}, 1, 0.1},
    /* Zen 4/5 level 2 over the same 1000 cycles: bad speculation (0.1 on 6 slots, 0.075
     * on 8) split 30 mispredicts : 10 restarts; back end (0.3, 0.225) split 300 of 400
     * no-retire cycles waiting for loads; front end 1200 empty slots less w x 100 of
     * latency (600 / 6000 = 0.1, 400 / 8000 = 0.05); 600 of the 2400 retired ops
     * microcoded (600 / 6000 = 0.1, 600 / 8000 = 0.075; the rest 0.3, 0.225). */
    ZEN_L2("6", "0x06", "0x96", 0.1, 0.075, 0.025, 0.225, 0.075, 0.1, 0.3),
    ZEN_L2("8", "0x08", "0x9f,umask=0x01", 0.05, 0.05625, 0.01875, 0.16875, 0.05625, 0.075, 0.225),
    /* Arm: 25 refills in 500 L2 accesses. */
    {ARM("l2d_cache_refill") " / " ARM("l2d_cache"), {25, 500}, 1, 0.05},
    {ARM("l2d_cache_refill") " / " ARM("l2d_cache"), {25, 0}, 1, NAN},
    /* N2 (5 slots), 1000 cycles = 5000 slots: 1000 front end (0.2), 1500 back end (0.3),
     * the 2500 stalled slots leave 0.5 that issued, 900 of 1000 speculated ops retired:
     * retiring 0.45, bad speculation 0.05; V1/V2 (8 slots): 1600, 2400, 4000 stalled. */
    {ARM("stall_slot_frontend") " / " ARM_SLOTS("5"), {1000, 1000}, 1, 0.2},
    {ARM("stall_slot_frontend") " / " ARM_SLOTS("5"), {1000, 0}, 1, NAN},
    {ARM("stall_slot_backend") " / " ARM_SLOTS("5"), {1500, 1000}, 1, 0.3},
    {ARM("op_retired") " / " ARM("op_spec") " * (1 - " ARM("stall_slot") " / " ARM_SLOTS("5") ")",
     {900, 1000, 2500, 1000},
     1,
     0.45},
    {ARM("op_retired") " / " ARM("op_spec") " * (1 - " ARM("stall_slot") " / " ARM_SLOTS("5") ")",
     {900, 0, 2500, 1000},
     1,
     NAN},
    {"(1 - " ARM("op_retired") " / " ARM("op_spec") ") * (1 - " ARM("stall_slot") " / " ARM_SLOTS(
         "5") ")",
     {900, 1000, 2500, 1000},
     1,
     0.05},
    {ARM("stall_slot_frontend") " / " ARM_SLOTS("8"), {1600, 1000}, 1, 0.2},
    {ARM("stall_slot_backend") " / " ARM_SLOTS("8"), {2400, 1000}, 1, 0.3},
    {ARM("stall_slot_backend") " / " ARM_SLOTS("8"), {2400, 0}, 1, NAN},
    {ARM("op_retired") " / " ARM("op_spec") " * (1 - " ARM("stall_slot") " / " ARM_SLOTS("8") ")",
     {900, 1000, 4000, 1000},
     1,
     0.45},
    {"(1 - " ARM("op_retired") " / " ARM("op_spec") ") * (1 - " ARM("stall_slot") " / " ARM_SLOTS(
         "8") ")",
     {900, 1000, 4000, 1000},
     1,
     0.05},
    {"(1 - " ARM("op_retired") " / " ARM("op_spec") ") * (1 - " ARM("stall_slot") " / " ARM_SLOTS(
         "8") ")",
     {900, 1000, 4000, 0},
     1,
     NAN},
    /* Arm FP operations: 5e9, 4e9, 2e9 in 2 s; A64FX half: 1e9 + 4 x 5e8 in 2 s. */
    {ARM("event=0x801c") " / time", {5e9}, 2, 2.5e9},
    {ARM("event=0x801c") " / time", {5e9}, 0, NAN},
    {ARM("event=0x8018") " / time", {4e9}, 2, 2e9},
    {ARM("event=0x8014") " / time", {2e9}, 2, 1e9},
    {"({FP_HP_FIXED_OPS_SPEC} + 4 * {FP_HP_SCALE_OPS_SPEC}) / time", {1e9, 5e8}, 2, 1.5e9},
    {"({FP_HP_FIXED_OPS_SPEC} + 4 * {FP_HP_SCALE_OPS_SPEC}) / time", {1e9, 5e8}, 0, NAN},
};

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-12 * fmax(1, fabs(want));
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        exit(1);
    static char buf[1 << 20];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* Every golden vector of m's formula; how many there were. */
static int check_formula(const char *cpu, const struct metric *m, const char *text)
{
    int checked = 0;
    struct metric_formula f;
    char why[512] = "";
    CHECK_RET(metric_formula_compile(text, &f, why, sizeof why), PAPI_OK);
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const struct golden *g = &goldens[i];
        if (strcmp(g->formula, text) != 0)
            continue;
        double v = -1;
        why[0] = '\0';
        int r = metric_formula_eval(&f, g->t, g->seconds, &v, why, sizeof why);
        if (isnan(g->expect))
            CHECK(r == PAPI_EINVAL && strstr(why, "division by zero"),
                  "%s %s on a zero denominator: %d '%s'", cpu, m->name, r, why);
        else
            CHECK(r == PAPI_OK && close_to(v, g->expect), "%s %s = %g, want %g (%s)", cpu, m->name,
                  v, g->expect, why);
        checked++;
    }
    return checked;
}

/* Each libpfm4 event a formula names ({L1D:REPL}: no PMU, not a preset) encodes for the
 * table's CPU, when this libpfm4 build has that PMU (Arm tables on x86: not checked). */
static void check_pfm_names(const char *cpu, const struct metric *m, int *checked)
{
    struct metric_formula f;
    char why[512];
    if (metric_formula_compile(m->first_text, &f, why, sizeof why) != PAPI_OK)
        return; /* check_formula says so */
    pfm_pmu_info_t pi;
    int known = 0;
    for (int p = 0; p < PFM_PMU_MAX && !known; p++) {
        memset(&pi, 0, sizeof pi);
        pi.size = sizeof pi;
        known = pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && strcmp(pi.name, cpu) == 0;
    }
    for (int t = 0; known && t < f.nterms; t++) {
        const char *term = f.term[t];
        if (strstr(term, "::") || strncmp(term, "PAPI_", 5) == 0)
            continue;
        char full[512];
        snprintf(full, sizeof full, "%s::%s", cpu, term);
        pfm_pmu_encode_arg_t arg;
        memset(&arg, 0, sizeof arg);
        arg.size = sizeof arg;
        int r = pfm_get_os_event_encoding(full, PFM_PLM3, PFM_OS_NONE, &arg);
        free(arg.codes);
        CHECK(r == PFM_SUCCESS, "%s %s: libpfm4 does not encode %s (%s)", cpu, m->name, full,
              pfm_strerror(r));
        (*checked)++;
    }
}

/* Every CPU table of the file: each metric has golden vectors and they hold. */
static void every_table(const char *text, size_t len)
{
    const char *p = text;
    int tables = 0, metrics = 0, pfm_names = 0;
    while ((p = strstr(p, "\nCPU,")) != NULL) {
        char cpu[64];
        p += 5;
        size_t n = strcspn(p, "\r\n");
        snprintf(cpu, sizeof cpu, "%.*s", (int)n, p);
        struct metric_table t;
        char err[1024];
        int r = metric_table_parse(text, len, "papi_metrics.csv", cpu, &t, err, sizeof err);
        CHECK(r == PAPI_OK, "table %s: %s", cpu, err);
        if (r != PAPI_OK)
            continue;
        tables++;
        for (int i = 0; i < t.count; i++) {
            /* The METRIC line's formula and each OR line's. */
            for (int a = 0; a <= t.v[i].nalts; a++) {
                const char *form = a == 0 ? t.v[i].formula_text : t.v[i].alt_text[a - 1];
                int k = check_formula(cpu, &t.v[i], form);
                CHECK(k > 0, "%s: metric %s (%s) has no golden vector in this test", cpu,
                      t.v[i].name, form);
                metrics++;
            }
            check_pfm_names(cpu, &t.v[i], &pfm_names);
        }
        metric_table_free(&t);
    }
    printf("%d CPU tables, %d metric definitions checked against hand-worked values, %d libpfm4 "
           "names encoded\n",
           tables, metrics, pfm_names);
    CHECK(tables >= 30 && metrics >= 400 && pfm_names >= 100, "tables %d, metrics %d, names %d",
          tables, metrics, pfm_names);
}

/* What a table line costs once parsed: the heap the biggest CPU table's parse takes, per
 * metric it keeps (the strings it holds and its share of the array; what resolution finds
 * is allocated when a metric is first used). */
static void line_cost(const char *text, size_t len)
{
    struct metric_table t;
    char err[1024];
    size_t before = mallinfo2().uordblks;
    CHECK_RET(metric_table_parse(text, len, "papi_metrics.csv", "spr", &t, err, sizeof err),
              PAPI_OK);
    size_t after = mallinfo2().uordblks;
    size_t per = t.count ? (after - before) / (size_t)t.count : 0;
    printf("spr table: %d metrics, %d groups, %zu heap bytes: %zu a metric\n", t.count, t.ngroups,
           after - before, per);
    CHECK(t.count >= 20, "%d metrics in the spr table", t.count);
    if (heap_visible("a metric line's heap cost"))
        CHECK(per <= 600, "a metric line costs %zu bytes (want at most 600)", per);
    metric_table_free(&t);
}

/* Malformed lines: refused, naming file and line, and nothing is kept. */
static void refusals(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"CPU,generic\nMETRIC,IPC,x,PAPI_TOT_INS /,desc\n",
         "t.csv:2: metric IPC: formula ends early"},
        {"CPU,generic\nMETRIC,IPC,x,(PAPI_TOT_INS,desc\n", "t.csv:2: metric IPC: ')' expected"},
        {"CPU,generic\nMETRIC,IPC,x,PAPI_TOT_INS PAPI_TOT_CYC,d\n",
         "t.csv:2: metric IPC: operator expected"},
        {"CPU,generic\nMETRIC,IPC,x,{perf::X,d\n", "'}' expected"},
        {"CPU,generic\nMETRIC,IPC,x,1 / 2,d\n", "no event and no time"},
        {"CPU,generic\nMETRIC,ipc,x,time,d\n", "t.csv:2: bad metric name 'ipc'"},
        {"CPU,generic\nMETRIC,IPC,x,time\n", "t.csv:2: METRIC line must be"},
        {"METRIC,IPC,x,time,d\n", "t.csv:1: METRIC line before any CPU line"},
        {"CPU,generic\n\nFOO,1\n", "t.csv:3: unknown line type 'FOO'"},
        {"CPU,generic\nGROUP,G,NOPE\n", "t.csv: group G names NOPE"},
        {"CPU,generic\nMETRIC,A,x,\"time,d\n", "t.csv:2: unbalanced quotes"},
        {"CPU,generic\nOR,IPC,time\n", "t.csv:2: OR line for IPC, which this table does not"},
        {"CPU,generic\nMETRIC,A,x,time,d\nOR,A,time /\n", "t.csv:3: metric A: formula ends"},
        {"CPU,generic\nMETRIC,A,x,time,d\nOR,A\n", "t.csv:3: OR line must be"},
        {"CPU,generic\nMETRIC,A,x,time,d\nOR,A,time\nOR,A,time\nOR,A,time\nOR,A,time\n",
         "t.csv:6: metric A: more than 3 OR lines"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct metric_table t;
        char err[1024] = "";
        int r =
            metric_table_parse(bad[i].text, strlen(bad[i].text), "t.csv", "x", &t, err, sizeof err);
        CHECK(r == PAPI_EINVAL && strstr(err, bad[i].want) && t.count == 0 && !t.v,
              "case %zu: %d '%s' (want '%s')", i, r, err, bad[i].want);
    }
    /* A CPU table replaces the generic metric of the same name, in either order. */
    const char *two = "CPU,mine\nMETRIC,IPC,a,time,own\nCPU,generic\nMETRIC,IPC,b,time,gen\n";
    struct metric_table t;
    char err[256];
    CHECK_RET(metric_table_parse(two, strlen(two), "t.csv", "mine", &t, err, sizeof err), PAPI_OK);
    CHECK(t.count == 1 && strcmp(t.v[0].description, "own") == 0, "own table wins");
    metric_table_free(&t);
    /* OR lines are kept with their metric; another CPU's are checked, not kept. */
    const char *alts = "CPU,generic\nMETRIC,A,x,time,d\nOR,A,{perf::X} / time\nCPU,zz\n"
                       "METRIC,A,x,time,d\nOR,A,{perf::Y} / time\n";
    CHECK_RET(metric_table_parse(alts, strlen(alts), "t.csv", "x", &t, err, sizeof err), PAPI_OK);
    CHECK(t.count == 1 && t.v[0].nalts == 1 && strcmp(t.v[0].alt_text[0], "{perf::X} / time") == 0,
          "OR line kept: %d '%s'", t.count ? t.v[0].nalts : -1, t.count ? t.v[0].alt_text[0] : "");
    metric_table_free(&t);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_metric_golden papi_metrics.csv\n");
        return 2;
    }
    size_t len;
    char *text = slurp(argv[1], &len);
    setenv("LIBPFM_ENCODE_INACTIVE", "1", 1); /* encode any CPU's names, whatever runs this */
    CHECK(pfm_initialize() == PFM_SUCCESS, "libpfm4 initialises");
    every_table(text, len);
    line_cost(text, len);
    refusals();
    return test_done("test_metric_golden");
}
