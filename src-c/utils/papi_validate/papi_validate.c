/* papi_validate: are this CPU's presets and metrics right? Runs kernels whose counts
 * are known by construction (instructions, branches taken and not taken, loads and
 * stores, floating-point operations per precision and vector width, L1/L2/L3 cache and
 * data and instruction TLB misses, memory bytes) and compares each preset and metric the CPU defines with the
 * expected count: pass, fail, not countable here (with the reason), or, for a metric no
 * kernel determines, "no kernel". Exit status 0 when every check passed, 1 when one
 * failed, 2 when nothing could be counted (or bad usage). */
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"
#include "validate_report.h"
#include "validate_run.h"

static const char usage[] =
    "Usage: papi_validate [options]\n"
    "Check this CPU's PAPI presets (PAPI_TOT_INS, PAPI_BR_*, PAPI_LD_INS,\n"
    "PAPI_SR_INS, PAPI_FP_OPS, PAPI_SP_OPS, PAPI_DP_OPS, PAPI_VEC_*, PAPI_FP_INS,\n"
    "PAPI_L1/L2/L3 misses, PAPI_TLB_DM ...) and every metric it defines against\n"
    "kernels whose counts are known by construction: loops in inline assembly of a\n"
    "known number of instructions, conditional branches taken and not taken, loads\n"
    "and stores, and floating-point adds, multiplies and FMAs per precision and\n"
    "width (x86-64: scalar, SSE 128, AVX 256, AVX-512; arm64: scalar, NEON, SVE; an\n"
    "FMA is two operations). Each check prints expected, counted, ratio, tolerance\n"
    "and a verdict: pass, fail, or not countable here with the reason (a kernel the\n"
    "CPU cannot run, an event that does not open). Every kernel is counted with one\n"
    "event at a time, as the difference of runs of n and 2n iterations, which\n"
    "cancels the call and PAPI_start/PAPI_stop; the tolerance is 32 events + 0.1%\n"
    "(exact classes).\n"
    "Memory kernels (pointer chases in assembly, their instructions exact too):\n"
    "chase_l2 and chase_l3 follow a random cyclic order of lines over 16 times the\n"
    "L2 or L3 cache (hwloc's sizes through PAPI_get_hardware_info; 1 MiB and 8 MiB\n"
    "assumed, and said, when unknown; a set is at most a quarter of MemAvailable and\n"
    "4 GiB, 1 GiB with --quick, and at least 8 times the cache), which no prefetcher\n"
    "can guess: 1 L1D miss per step (and L2 for chase_l3), and the sized cache's\n"
    "misses at 1 - size / (2 set) per step (between random replacement's and\n"
    "LRU's); tlb_pages follows a random order of 32768\n"
    "4 KiB pages: 1 - 2048/32768 data TLB misses per step (right within 10% for a\n"
    "TLB of 0 to 4096 entries). itlb_pages jumps through code generated on 32768\n"
    "4 KiB pages in a random order, 3 instructions per page: as many instruction\n"
    "TLB misses per step (PAPI_TLB_IM), and 1 L1 instruction-cache miss per step\n"
    "(PAPI_L1_ICM); a system that refuses executable memory (W^X) makes it not\n"
    "countable here. Cache and TLB rows are judged within 10%. stream_read and\n"
    "stream_rw read (and store to) 16 consecutive lines per step: 1024 bytes each\n"
    "way, MEM_READ_BW, MEM_WRITE_BW and MEM_BW within 15% (the memory controllers\n"
    "count the whole socket: run it on an idle node).\n"
    "Metrics: a rate (DP_FLOPS, SP_FLOPS, MEM_*_BW) against the kernel's operations\n"
    "or bytes over the seconds of the same run; a formula over presets (IPC, CPI,\n"
    "the miss ratios) on the kernel's known counts in place of the counted ones,\n"
    "the rest as counted (IPC: the known instructions over the cycles counted),\n"
    "within 0.5% or the class of the counts put in; a metric whose value cannot be\n"
    "formed (a division by a count of 0) fails; a metric no kernel determines is\n"
    "listed as \"no kernel\".\n\n"
    "Options:\n"
    "  -e NAME      check one preset or metric only\n"
    "  --list       list the kernels, what each determines, and whether it runs here\n"
    "  --quick      fewer iterations and no repeats (well under 10 s)\n"
    "  --json FILE  also write every row, the CPU's identification and the library's\n"
    "               versions to FILE as one JSON document (written whole or not at all)\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 every check passed, 1 a check failed, 2 nothing could be counted\n"
    "here (the reason is printed) or bad usage.\n";

enum { OPT_LIST = UTIL_OPT_OWN, OPT_QUICK };

static int list_kernels(void)
{
    int nk;
    const struct vk_kernel *ks = vk_kernels(&nk);
    printf("Kernels of papi_validate for %s (%d):\n", vk_isa(), nk);
    for (int i = 0; i < nk; i++) {
        const char *lack = ks[i].missing();
        printf("%-17s %s%s%s\n", ks[i].name, ks[i].what, lack ? "; not runnable here: needs " : "",
               lack ? lack : "");
        printf("%-17s determines:", "");
        for (int j = 0; j < VK_MAX_EXPECT && ks[i].expect[j].event; j++)
            if (ks[i].expect[j].per_iter != 0)
                printf(" %s", ks[i].expect[j].event);
        printf("\n");
    }
    printf("Cache and TLB rows are judged within %.0f%%, bandwidth within %.0f%%, the others "
           "within 32 events + 0.1%%.\n",
           VK_CACHE_TOL * 100, VK_BW_TOL * 100);
    if (vk_mem_assumed())
        printf("Cache sizes: %s\n", vk_mem_assumed());
    printf("Working sets: %s; --quick: at most %ld MiB\n", vk_mem_cap(), VR_QUICK_SET >> 20);
    printf("Metrics: DP_FLOPS, SP_FLOPS (PAPI_DP_OPS, PAPI_SP_OPS per second), MEM_READ_BW,\n"
           "MEM_WRITE_BW, MEM_BW (the stream kernels' bytes per second), and any formula over\n"
           "presets a kernel determines (IPC, CPI, miss ratios); papi_validate lists the rest\n"
           "as \"no kernel\".\n");
    return 0;
}

/* Nothing was counted: say why, with the library's reason when it has no counters (once:
 * not again when the table said it above itself). */
static void explain_nothing(const struct vr_run *run, int machine_said)
{
    if (run->n == 0)
        printf("No preset or metric this CPU defines is determined by a kernel of papi_validate "
               "(%s).\n",
               vk_isa());
    else
        printf("No hardware counter could be counted here: nothing can be validated.\n");
    if (machine_said)
        printf("Why: the machine-wide reason above the table.\n");
    else
        util_print_no_counters(stdout);
}

static void print_title(void)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    char v[64];
    util_version_string(v, sizeof v);
    printf("papi_validate: presets and metrics against kernels of known counts\n%s\n", UTIL_RULE);
    printf("%-20s: %s (%s)\n", "CPU", hw ? hw->model_string : "unknown",
           hw ? hw->vendor_string : "unknown");
    printf("%-20s: %s\n", "Kernels", vk_isa());
    printf("%-20s: PAPI %s, papi-compat %s\n%s\n", "Library", v, PAPI_compat_version(), UTIL_RULE);
}

struct args {
    const char *only, *json;
    int list, quick;
};

static void parse(int argc, char **argv, struct args *a)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, UTIL_OPT_VERSION},
                                             {"json", required_argument, NULL, UTIL_OPT_JSON},
                                             {"list", no_argument, NULL, OPT_LIST},
                                             {"quick", no_argument, NULL, OPT_QUICK},
                                             {NULL, 0, NULL, 0}};
    int c;
    memset(a, 0, sizeof *a);
    util_options("papi_validate", usage);
    while ((c = util_getopt(argc, argv, "e:", longopts)) != -1) {
        if (c == 'e')
            a->only = optarg;
        else if (c == UTIL_OPT_JSON)
            a->json = optarg;
        else if (c == OPT_LIST)
            a->list = 1;
        else if (c == OPT_QUICK)
            a->quick = 1;
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
}

static int run_and_report(const struct args *a, struct vo_file *out)
{
    struct vr_options o = {a->only, a->quick};
    struct vr_run run;
    char why[PAPI_HUGE_STR_LEN];
    print_title();
    if (vr_run_all(&o, &run) < 0) {
        fprintf(stderr, "papi_validate: out of memory\n");
        vo_abort(out);
        return 2;
    }
    int machine_said = vo_print_table(stdout, &run);
    int status = vd_exit_status(run.passed, run.failed, run.not_countable);
    if (status == 2)
        explain_nothing(&run, machine_said);
    if (out->f && vo_commit(out, &run, status, why, sizeof why) < 0) {
        fprintf(stderr, "papi_validate: %s\n", why);
        status = 2;
    }
    vr_free(&run);
    return status;
}

int main(int argc, char **argv)
{
    struct args a;
    struct vo_file out = {0};
    char why[PAPI_HUGE_STR_LEN];
    parse(argc, argv, &a);
    if (a.list) {
        if (!util_init("papi_validate"))
            return 2;
        vr_configure_kernels(0); /* the memory kernels' working sets need the cache sizes */
        return list_kernels();
    }
    if (a.json && vo_open(&out, a.json, why, sizeof why) < 0) {
        fprintf(stderr, "papi_validate: %s\n", why);
        return 2;
    }
    if (!util_init("papi_validate")) {
        vo_abort(&out);
        return 2;
    }
    if (a.only && !vr_check_name(a.only, why, sizeof why)) {
        fprintf(stderr, "papi_validate: %s\n", why);
        vo_abort(&out);
        return 2;
    }
    return run_and_report(&a, &out);
}
