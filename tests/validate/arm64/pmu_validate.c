/* pmu_validate: papi_validate in the arm64 PMU guest (emulated PMUv3 under QEMU, where
 * user-only INST_RETIRED is exact and every other event opens and reads 0). Runs
 * "papi_validate --quick --json" (staged beside the test programs by
 * scripts/pmu-lane.sh) and checks its verdicts against what the emulated PMU counts:
 *  - PAPI_TOT_INS passes for every kernel that runs here, which checks each kernel's
 *    expected instruction count against the instruction counter;
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
};

static void classify(const char *line, struct tally *t)
{
    char kernel[64], event[64];
    if (sscanf(line, "%63s %63s", kernel, event) != 2 || strncmp(event, "PAPI_", 5) != 0)
        return;
    int pass = strstr(line, "  pass") != NULL, fail = strstr(line, "  fail") != NULL;
    int nc = strstr(line, "  not countable here") != NULL;
    if (!pass && !fail && !nc)
        return;
    t->rows++;
    if (strcmp(event, "PAPI_TOT_INS") == 0 && !nc) {
        t->tot_ins_rows++;
        t->tot_ins_pass += pass;
        if (!pass)
            printf("TOT_INS wrong: %s", line);
    }
    if (fail && strstr(line, "(counted 0 of "))
        t->zero_fails++;
    else if (fail) {
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
        if (strstr(line, "passed,") || strstr(line, "not found") || strstr(line, "Counts:"))
            printf("%s", line);
    }
    int st = pclose(p);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    printf("papi_validate exit %d: %d rows; PAPI_TOT_INS passed for %d of %d kernels; %d "
           "presets counted 0; %d other failures; %d SVE kernels not countable here\n",
           rc, t.rows, t.tot_ins_pass, t.tot_ins_rows, t.zero_fails, t.other_fails, t.sve_nc);
    CHECK(rc == 1, "exit status %d, want 1 (presets the emulator leaves at 0 fail)", rc);
    CHECK(t.tot_ins_rows >= 11 && t.tot_ins_pass == t.tot_ins_rows,
          "PAPI_TOT_INS passed for %d of %d kernels", t.tot_ins_pass, t.tot_ins_rows);
    CHECK(t.zero_fails >= 1, "no preset failed with 'counted 0'");
    CHECK(t.other_fails == 0, "%d failures that are not a count of 0", t.other_fails);
    CHECK(t.sve_nc == 4, "%d SVE kernels reported not countable (want 4: no SVE here)", t.sve_nc);
    CHECK(json_whole(rc), "%s is missing or not whole", JSON_OUT);
    return test_done("pmu_validate");
}
