/* pmu_validate: papi_validate in the arm64 PMU guest (emulated PMUv3 under QEMU, where
 * user-only INST_RETIRED is exact and every other event opens and reads 0). Runs
 * "papi_validate --quick --json" (staged beside the test programs by
 * scripts/pmu-lane.sh) and checks its verdicts against what the emulated PMU counts:
 *  - PAPI_TOT_INS passes for every kernel that runs here, which checks each kernel's
 *    expected instruction count against the instruction counter (the memory kernels
 *    chase_l2, chase_l3, tlb_pages, stream_read and stream_rw included: their cache and
 *    TLB rows fail with "counted 0", as the emulator counts no cache event), and
 *    itlb_pages, whose code is generated at run time (its PAPI_TLB_IM fails on a 0);
 *  - the metrics IPC and CPI pass: the formula on the kernel's known instructions and the
 *    counted cycles equals the formula on the counts; a metric that fails does so on a
 *    count of 0 (its value "cannot be formed" or "counted 0");
 *  - at least one preset the emulator leaves at 0 fails, naming the count 0, and every
 *    failure is such a 0 (INST_RETIRED is the only preset input that counts here);
 *  - a kernel the CPU cannot run (SVE on Cortex-A57 and Neoverse-N1) is "not countable
 *    here", never a failure; the exit status is 1 (some failed); the JSON is whole. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "papi_test.h"

#define VALIDATE "./bin/papi_validate"
#define JSON_OUT "pmu_validate.json"

struct tally {
    int tot_ins_pass, tot_ins_rows, zero_fails, other_fails, sve_nc, rows;
    int mem_ins_pass, chase_l2_zero, ipc_cpi_pass, metric_fails_bad, itlb_ins_pass, itlb_zero;
};

static int is_mem_kernel(const char *k)
{
    return strncmp(k, "chase_", 6) == 0 || strcmp(k, "tlb_pages") == 0 ||
           strncmp(k, "stream_", 7) == 0;
}

static void classify_metric(const char *line, const char *event, struct tally *t)
{
    int pass = strstr(line, "  pass") != NULL, fail = strstr(line, "  fail") != NULL;
    if ((strcmp(event, "IPC") == 0 || strcmp(event, "CPI") == 0) && pass)
        t->ipc_cpi_pass++;
    if ((strcmp(event, "IPC") == 0 || strcmp(event, "CPI") == 0) && !pass)
        printf("%s not passed: %s", event, line);
    if (fail && !strstr(line, "cannot be formed") && !strstr(line, "(counted 0 of ")) {
        t->metric_fails_bad++;
        printf("metric failed, not on a 0: %s", line);
    }
}

/* The events of each verdict, each once (printed for presets/README.md's record, one
 * line per verdict, before the summary: the lane keeps a passing test's last lines). */
static const char *const verdict_words[] = {"  pass", "  fail", "  not countable here",
                                            "  no kernel"};
static char verdict_events[4][2048];

static void note_verdict(const char *line)
{
    char kernel[64], event[64], key[80];
    if (sscanf(line, "%63s %63s", kernel, event) != 2)
        return;
    snprintf(key, sizeof key, " %s ", event);
    for (int v = 0; v < 4; v++) {
        char *l = verdict_events[v];
        if (!strstr(line, verdict_words[v]) || strstr(l, key))
            continue;
        if (strlen(l) + strlen(key) < sizeof verdict_events[v]) {
            if (l[0])
                l[strlen(l) - 1] = '\0'; /* " A " + " B " is " A B " */
            strcat(l, key);
        }
        return;
    }
}

static void classify(const char *line, struct tally *t)
{
    char kernel[64], event[64];
    if (sscanf(line, "%63s %63s", kernel, event) != 2)
        return;
    if (strncmp(event, "PAPI_", 5) != 0) {
        classify_metric(line, event, t);
        return;
    }
    int pass = strstr(line, "  pass") != NULL, fail = strstr(line, "  fail") != NULL;
    int nc = strstr(line, "  not countable here") != NULL;
    if (!pass && !fail && !nc)
        return;
    t->rows++;
    if (strcmp(event, "PAPI_TOT_INS") == 0 && !nc) {
        t->tot_ins_rows++;
        t->tot_ins_pass += pass;
        t->mem_ins_pass += pass && is_mem_kernel(kernel);
        t->itlb_ins_pass += pass && strcmp(kernel, "itlb_pages") == 0;
        if (!pass)
            printf("TOT_INS wrong: %s", line);
    }
    if (fail && strstr(line, "(counted 0 of ")) {
        t->zero_fails++;
        t->chase_l2_zero += strcmp(kernel, "chase_l2") == 0 && strcmp(event, "PAPI_L1_DCM") == 0;
        t->itlb_zero += strcmp(kernel, "itlb_pages") == 0 && strcmp(event, "PAPI_TLB_IM") == 0;
    } else if (fail) {
        t->other_fails++;
        printf("failed, not a 0: %s", line);
    }
    if (nc && strstr(kernel, "_sve_") && strstr(line, "needs SVE") &&
        strcmp(event, "PAPI_TOT_INS") == 0)
        t->sve_nc++;
}

static int json_whole(int status)
{
    FILE *f = fopen(JSON_OUT, "r");
    static char buf[1 << 18];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char want[64];
    snprintf(want, sizeof want, "\"exit_status\": %d", status);
    return n > 0 && strstr(buf, "\"tool\"") && strstr(buf, want) && (n >= 2 && buf[n - 2] == '}');
}

int main(void)
{
    FILE *p = popen(VALIDATE " --quick --json " JSON_OUT " 2>&1", "r");
    if (!p) {
        printf("FAILED: cannot run %s\n", VALIDATE);
        return 1;
    }
    struct tally t = {0};
    char line[1024];
    while (fgets(line, sizeof line, p)) {
        classify(line, &t);
        note_verdict(line);
        if (strstr(line, "passed,") || strstr(line, "not found") || strstr(line, "Counts:"))
            printf("%s", line);
    }
    int st = pclose(p);
    for (int v = 0; v < 4; v++)
        printf("%s:%s\n", verdict_words[v] + 2, verdict_events[v]);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    printf("papi_validate exit %d: %d rows; PAPI_TOT_INS passed for %d of %d kernels; %d "
           "presets counted 0; %d other failures; %d SVE kernels not countable here\n",
           rc, t.rows, t.tot_ins_pass, t.tot_ins_rows, t.zero_fails, t.other_fails, t.sve_nc);
    CHECK(rc == 1, "exit status %d, want 1 (presets the emulator leaves at 0 fail)", rc);
    printf("memory kernels' PAPI_TOT_INS passed: %d; chase_l2 PAPI_L1_DCM counted 0: %d; IPC/CPI "
           "passed: %d\n",
           t.mem_ins_pass, t.chase_l2_zero, t.ipc_cpi_pass);
    CHECK(t.mem_ins_pass == 5, "PAPI_TOT_INS passed for %d of the 5 memory kernels",
          t.mem_ins_pass);
    printf("itlb_pages (generated code): PAPI_TOT_INS passed: %d; PAPI_TLB_IM counted 0: %d\n",
           t.itlb_ins_pass, t.itlb_zero);
    CHECK(t.itlb_ins_pass == 1, "itlb_pages: PAPI_TOT_INS did not pass");
    CHECK(t.itlb_zero == 1, "itlb_pages: PAPI_TLB_IM did not fail with 'counted 0'");
    CHECK(t.chase_l2_zero == 1, "chase_l2's PAPI_L1_DCM did not fail with 'counted 0'");
    CHECK(t.ipc_cpi_pass == 2, "IPC and CPI: %d passed, want 2", t.ipc_cpi_pass);
    CHECK(t.metric_fails_bad == 0, "%d metrics failed on a non-zero count", t.metric_fails_bad);
    CHECK(t.tot_ins_rows >= 18 && t.tot_ins_pass == t.tot_ins_rows,
          "PAPI_TOT_INS passed for %d of %d kernels", t.tot_ins_pass, t.tot_ins_rows);
    CHECK(t.zero_fails >= 1, "no preset failed with 'counted 0'");
    CHECK(t.other_fails == 0, "%d failures that are not a count of 0", t.other_fails);
    CHECK(t.sve_nc == 4, "%d SVE kernels reported not countable (want 4: no SVE here)", t.sve_nc);
    CHECK(json_whole(rc), "%s is missing or not whole", JSON_OUT);
    return test_done("pmu_validate");
}
