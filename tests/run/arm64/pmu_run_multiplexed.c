/* pmu_run_multiplexed (arm64 PMU lane): papi_run counting eight hardware events, more
 * than the PMU's six event counters, of a program it runs (this test again, "loop":
 * 2 x 40M user instructions). The events do not fit together, so papi_run multiplexes
 * them by itself and prints perf stat's running fraction: every event line of the banner
 * ends with "(xx.xx%)", each fraction in (0, 100) (the kernel rotated them all), the
 * banner says why it multiplexed, and INST_RETIRED's scaled estimate is within 10% of
 * the loop's instructions (the program's start-up is counted too). papi_run is staged
 * beside the test programs by scripts/pmu-lane.sh. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "pmu_hw.h"

#define NEV   8
#define LOOP  40000000L
#define PAPI_RUN "./bin/papi_run"

/* The percentage at the end of a banner line naming event e, or -1. */
static double percent_of(const char *line, const char *e)
{
    const char *at = strstr(line, e), *open = strrchr(line, '(');
    double pct = -1;
    if (!at || !open || sscanf(open, "(%lf%%)", &pct) != 1)
        return -1;
    return pct;
}

/* "   80,123,456       NAME  (62.50%)": the count before the name, commas dropped. */
static long long count_of(const char *line)
{
    long long v = 0;
    const char *p = line + strspn(line, " ");
    for (; (*p >= '0' && *p <= '9') || *p == ','; p++)
        if (*p != ',')
            v = v * 10 + (*p - '0');
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "loop") == 0) {
        pmu_loop(LOOP);
        return 0;
    }
    init_or_die();
    pmu_require_hw();
    char names[NEV][PAPI_MAX_STR_LEN], cmd[4096] = PAPI_RUN " -o /tmp/pmu_run_mpx -e ";
    if (pmu_counter_events(names, NEV) < NEV)
        test_skip("fewer than 8 core PMU events known to libpfm4");
    for (int i = 0; i < NEV; i++)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%s%s", i ? "," : "", names[i]);
    snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " -- %s loop 2>&1", argv[0]);
    unsetenv("PAPI_MULTIPLEX");
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "cannot run %s", cmd);
    if (!p)
        return test_done("pmu_run_multiplexed");
    char line[1024];
    int lines = 0, below = 0, said = 0;
    while (fgets(line, sizeof line, p)) {
        fputs(line, stdout);
        said |= strstr(line, "multiplexed (the events do not fit the counters together)") != NULL;
        for (int i = 0; i < NEV; i++) {
            double pct = percent_of(line, names[i]);
            if (!strstr(line, names[i]))
                continue;
            lines++;
            CHECK(pct > 0 && pct <= 100, "%s: running fraction %.2f%%", names[i], pct);
            below += pct > 0 && pct < 100;
            if (i == 0) {
                long long v = count_of(line);
                CHECK(v >= 2 * LOOP * 97 / 100 && v <= 2 * LOOP * 110 / 100,
                      "INST_RETIRED %lld, the loop alone is %ld", v, 2 * LOOP);
            }
            break;
        }
    }
    int st = pclose(p);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "papi_run exit status %d", st);
    CHECK(lines == NEV, "%d event lines in the banner, want %d", lines, NEV);
    CHECK(below >= 1, "no event was descheduled (%d below 100%%)", below);
    CHECK(said, "the banner does not say the events were multiplexed");
    return test_done("pmu_run_multiplexed");
}
