/* lane_sample.h: what the PMU lane's papi_run --sample tests share (pmu_run_sample.c,
 * pmu_sample_kernels.c): the hardware check, running papi_run on the test's own program,
 * and reading profile.folded's lines. Header only: each test is one program. */
#ifndef LANE_SAMPLE_H
#define LANE_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "papi_test.h"

/* Skips (exit 77, the reason said) where no hardware counts instructions. */
static inline void lane_need_instructions(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        test_skip("PAPI_library_init failed");
    if (PAPI_num_hwctrs() <= 0 || PAPI_query_event(PAPI_TOT_INS) != PAPI_OK) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(0);
        char why[PAPI_HUGE_STR_LEN + 64];
        snprintf(why, sizeof why, "no hardware PMU to sample instructions on: %s",
                 ci && ci->disabled_reason[0] ? ci->disabled_reason : "PAPI_TOT_INS unavailable");
        test_skip(why);
    }
}

/* papi_run (PMU_PAPI_RUN, else ./bin/papi_run) OPTIONS -o OUTDIR -- SELF MODE, its output
 * echoed and each line given to on_line (may be NULL). Skips where papi_run has no
 * sampling library; returns pclose's status, or -1 when it could not start. */
static inline int lane_sample(const char *options, const char *outdir, const char *self,
                              const char *mode, void (*on_line)(const char *, void *), void *ctx)
{
    const char *run = getenv("PMU_PAPI_RUN");
    char cmd[4096], line[8192];
    snprintf(cmd, sizeof cmd, "rm -rf %s && %s %s -o %s -- %s %s 2>&1", outdir,
             run && *run ? run : "./bin/papi_run", options, outdir, self, mode);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "cannot run %s", cmd);
    if (!p)
        return -1;
    int no_lib = 0;
    while (fgets(line, sizeof line, p)) {
        fputs(line, stdout);
        if (on_line)
            on_line(line, ctx);
        no_lib |= strstr(line, "libpapi_run_sample.so is not installed") != NULL;
    }
    int st = pclose(p);
    if (no_lib)
        test_skip("papi_run --sample's library, libpapi_run_sample.so, is not beside papi_run "
                  "(it is built only where libdw is found: the lane's arm64 sysroot needs "
                  "libdw-dev)");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "papi_run exit status %d", st);
    return st;
}

/* A function's name without a compiler clone's suffix (hot_loop.constprop.0 is hot_loop). */
static inline int lane_is_function(const char *name, const char *f)
{
    size_t n = strlen(f);
    return strncmp(name, f, n) == 0 && (name[n] == 0 || name[n] == '.');
}

/* The leaf of a folded line "root;..;leaf weight" (cut in place) and its weight. */
static inline int lane_folded_line(char *line, const char **leaf, unsigned long long *w)
{
    line[strcspn(line, "\n")] = 0;
    char *sp = strrchr(line, ' ');
    if (!sp || sscanf(sp + 1, "%llu", w) != 1)
        return 0;
    *sp = 0;
    char *semi = strrchr(line, ';');
    *leaf = semi ? semi + 1 : line;
    return 1;
}

#endif
