/* bench_sampler_cost: what the PAPI_INTERVAL sampling thread costs at 10 Hz, under the MPI
 * wrapper (its default events, a rank under mpirun -np 1) and under the region API (a
 * region open around the work: perf::TASK-CLOCK and perf::PAGE-FAULTS).
 *   bench_sampler_cost_<mpi> [--seconds S] [--rounds N]     (defaults 2 s, 3 rounds;
 *                                                           the goal is stated for 10 s)
 * A fixed amount of work (calibrated here to take about S seconds) is timed inside the
 * program, without and with PAPI_INTERVAL=0.1, alternated ABBA: the median of the
 * per-pair ratios of the work's wall time (goal: <= 1.01). With sampling, the program
 * also reads the sampling thread's own CPU time (the thread named papi-interval, through
 * its CPU-time clock) over the work's wall time: the median, as a share of one core
 * (goal: <= 1%). The program is this one (/proc/self/exe child mpi|region ITERATIONS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"

static double now(void)
{
    return (double)now_ns() * 1e-9;
}

static void work(long iterations)
{
    volatile double x = 1.0;
    for (long i = 0; i < iterations; i++)
        x = x * 1.0000001 + 1e-9;
}

/* CPU seconds of this process's thread named papi-interval, -1 when there is none. The
 * kernel's per-thread CPU clock of a thread id: ~tid << 3 | CPUCLOCK_PERTHREAD | SCHED. */
static double sampler_cpu_s(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    double cpu = -1;
    while (d && (e = readdir(d))) {
        char path[300], name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int ok = fgets(name, sizeof name, f) != NULL;
        fclose(f);
        struct timespec ts;
        clockid_t id = (clockid_t)((~(unsigned)atoi(e->d_name)) << 3) | 6;
        if (ok && strncmp(name, "papi-interval", 13) == 0 && clock_gettime(id, &ts) == 0)
            cpu = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
    if (d)
        closedir(d);
    return cpu;
}

static int child(const char *mode, long iterations, int argc, char **argv)
{
    int mpi = strcmp(mode, "mpi") == 0;
    if (mpi)
        MPI_Init(&argc, &argv);
    else
        PAPI_hl_region_begin("work");
    double t0 = now();
    work(iterations);
    double wall = now() - t0, cpu = sampler_cpu_s();
    printf("%.6f %.9f\n", wall, cpu);
    fflush(stdout);
    if (mpi)
        MPI_Finalize();
    else
        PAPI_hl_region_end("work");
    return 0;
}

/* One run: the work's wall time and the sampler's CPU seconds (-1: no sampler). */
static void run(const char *self, const char *mode, long iterations, int sampled, double *wall,
                double *cpu)
{
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "%s '%s' child %s %ld 2>/dev/null",
             strcmp(mode, "mpi") == 0 ? PAPI_MPIRUN " -np 1" : "", self, mode, iterations);
    if (sampled)
        setenv("PAPI_INTERVAL", "0.1", 1);
    else
        unsetenv("PAPI_INTERVAL");
    FILE *p = popen(cmd, "r");
    if (!p || fscanf(p, "%lf %lf", wall, cpu) != 2) {
        fprintf(stderr,
                "bench_sampler_cost: %s gave no figures (run it without 2>/dev/null to see "
                "why; Open MPI as root needs OMPI_ALLOW_RUN_AS_ROOT=1 "
                "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)\n",
                cmd);
        exit(1);
    }
    pclose(p);
}

static void measure(const char *self, const char *mode, long iterations, int rounds)
{
    double ratio[64], share[64];
    for (int r = 0; r < rounds; r++) {
        double w0, w1, c0, c1;
        if (r % 2) { /* ABBA */
            run(self, mode, iterations, 1, &w1, &c1);
            run(self, mode, iterations, 0, &w0, &c0);
        } else {
            run(self, mode, iterations, 0, &w0, &c0);
            run(self, mode, iterations, 1, &w1, &c1);
        }
        if (c1 < 0 || c0 >= 0) {
            fprintf(stderr, "bench_sampler_cost: %s: the sampling thread %s\n", mode,
                    c1 < 0 ? "was not found with PAPI_INTERVAL" : "ran without PAPI_INTERVAL");
            exit(1);
        }
        ratio[r] = w1 / w0;
        share[r] = c1 / w1 * 100;
        printf("  %s round %d: work %.4f s without, %.4f s with sampling (ratio %.4f); "
               "sampler thread %.2f ms CPU (%.4f%% of one core)\n",
               mode, r + 1, w0, w1, ratio[r], c1 * 1e3, share[r]);
    }
    printf("%s sampler at 10 Hz: work wall time ratio %.4f (%+.2f%%, goal <= 1.01); sampler "
           "thread %.4f%% of one core (goal <= 1%%); medians of %d rounds\n",
           mode, median(ratio, rounds), (median(ratio, rounds) - 1) * 100, median(share, rounds),
           rounds);
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "child") == 0)
        return child(argv[2], atol(argv[3]), argc, argv);
    double secs = 2;
    int rounds = 3;
    if (bench_time_options(argc, argv, &secs, &rounds) != 0 || argc % 2 == 0) {
        fprintf(stderr, "usage: bench_sampler_cost [--seconds S] [--rounds 1..64]\n");
        return 2;
    }
    char self[4096], dir[] = "/tmp/bench_sampler_cost.XXXXXX";
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || !mkdtemp(dir))
        return 1;
    self[n] = 0;
    setenv("PAPI_MPI_OUTPUT_DIR", dir, 1);
    setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
    setenv("PAPI_EVENTS", "perf::TASK-CLOCK,perf::PAGE-FAULTS", 1);
    double t0 = now();
    work(20000000);
    long iterations = (long)(20000000 * secs / (now() - t0));
    printf("work: %ld iterations, about %g s\n", iterations, secs);
    measure(self, "mpi", iterations, rounds);
    measure(self, "region", iterations, rounds);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
