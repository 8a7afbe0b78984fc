/* bench_papi_run: what papi_run and the PAPI_INTERVAL sampler cost.
 *   bench_papi_run [--seconds S] [--rounds N]      (defaults 10 s, 3 rounds)
 * 1. Wall time: a program spinning S seconds run alone and under papi_run (default
 *    events), alternated ABBA; the median of the per-pair ratios (goal: <= 1.01).
 * 2. The samplers at 10 Hz, as CPU time (user + system of the whole process tree, from
 *    wait4) over S seconds of a sleeping program, with and without sampling, as a share
 *    of one core (goal: <= 1%): papi_run --interval 0.1, and PAPI_INTERVAL=0.1 on a
 *    region open for S seconds. The program is this one (/proc/self/exe spin|sleep|region). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv (env: one extra variable or NULL); wall seconds, CPU seconds in *cpu. */
static double run(char *const argv[], char *env, double *cpu)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (env)
            putenv(env);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    double wall = now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_papi_run: %s failed (status 0x%x)\n", argv[0], status);
        exit(1);
    }
    if (cpu)
        *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    return wall;
}

static int child_mode(int argc, char **argv)
{
    double s = atof(argv[2]);
    if (strcmp(argv[1], "spin") == 0) {
        double end = now() + s;
        while (now() < end)
            ;
    } else if (strcmp(argv[1], "sleep") == 0) {
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
    } else if (strcmp(argv[1], "region") == 0) {
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        PAPI_hl_region_begin("sleep");
        nanosleep(&ts, NULL);
        PAPI_hl_region_end("sleep");
    }
    (void)argc;
    return 0;
}

/* Wall time of the spinning program alone (A) and under papi_run (B), ABBA. */
static void wall_overhead(char *self, const char *secs, const char *out, int rounds)
{
    char *alone[] = {self, "spin", (char *)secs, NULL};
    char *under[] = {PAPI_RUN_PATH, "--quiet", "-o",         (char *)out, "--",
                     self,          "spin",    (char *)secs, NULL};
    double ratio[64], a[64], b[64];
    for (int r = 0; r < rounds && r < 64; r++) {
        int flip = r % 2;
        double x = run(flip ? under : alone, NULL, NULL);
        double y = run(flip ? alone : under, NULL, NULL);
        a[r] = flip ? y : x;
        b[r] = flip ? x : y;
        ratio[r] = b[r] / a[r];
        printf("  round %d: alone %.4f s, under papi_run %.4f s, ratio %.4f\n", r + 1, a[r], b[r],
               ratio[r]);
    }
    printf("papi_run wall time on a %s s program: median ratio %.4f (%+.2f%%), goal <= 1.01\n",
           secs, median(ratio, rounds), (median(ratio, rounds) - 1) * 100);
}

/* CPU seconds of the whole tree with and without sampling, as % of one core. */
static void sampler_cost(char *const plain[], char *const sampled[], char *env_plain,
                         char *env_sampled, double secs, const char *what, int rounds)
{
    double d[64];
    for (int r = 0; r < rounds && r < 64; r++) {
        double c0, c1;
        run(plain, env_plain, &c0);
        run(sampled, env_sampled, &c1);
        d[r] = (c1 - c0) / secs * 100;
        printf("  round %d: CPU %.4f s without, %.4f s with sampling\n", r + 1, c0, c1);
    }
    printf("%s at 10 Hz: median %.3f%% of one core, goal <= 1%%\n", what, median(d, rounds));
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seconds") != 0 && strcmp(argv[1], "--rounds") != 0)
        return child_mode(argc, argv);
    double secs = 10;
    int rounds = 3;
    if (bench_time_options(argc, argv, &secs, &rounds) != 0) {
        fprintf(stderr, "usage: bench_papi_run [--seconds S] [--rounds 1..64]\n");
        return 2;
    }
    char self[4096], s[32], out[] = "/tmp/bench_papi_run.XXXXXX", envdir[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || !mkdtemp(out))
        return 1;
    self[n] = 0;
    snprintf(s, sizeof s, "%g", secs);
    snprintf(envdir, sizeof envdir, "PAPI_OUTPUT_DIRECTORY=%s", out);
    wall_overhead(self, s, out, rounds);
    char *plain[] = {PAPI_RUN_PATH, "--quiet", "-o", out, "--", self, "sleep", s, NULL};
    char *sampled[] = {PAPI_RUN_PATH, "--quiet", "--interval", "0.1", "-o", out,
                       "--",          self,      "sleep",      s,     NULL};
    sampler_cost(plain, sampled, NULL, NULL, secs, "papi_run --interval 0.1", rounds);
    char *region[] = {self, "region", s, NULL};
    char env_interval[] = "PAPI_INTERVAL=0.1";
    setenv("PAPI_OUTPUT_DIRECTORY", out, 1);
    setenv("PAPI_EVENTS", "perf::TASK-CLOCK,perf::PAGE-FAULTS", 1);
    sampler_cost(region, region, NULL, env_interval, secs, "PAPI_INTERVAL=0.1 (regions)", rounds);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    return system(cmd) == 0 ? 0 : 1;
}
