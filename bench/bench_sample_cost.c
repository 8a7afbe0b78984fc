/* bench_sample_cost: what papi_run --sample costs a CPU-bound program (issue 48: sampling
 * at 1 kHz adds at most 2% to a 10 s program's wall time), beside the kernel's floor.
 *   bench_sample_cost [--seconds S] [--rounds N] [--base PAPI_RUN] [--papi-run PAPI_RUN]
 * The work: a fixed number of xorshift steps in a call chain four frames deep (this file is
 * built -O2 -g, frame pointers omitted, as users build), calibrated once to about S seconds
 * of CPU. Each round runs, in turn (reversed in odd rounds: ABBA), the work alone, under
 * papi_run without --sample, under papi_run --sample default (999 Hz on the first event
 * that samples: perf::TASK-CLOCK on this VM) with --call-graph none, fp, dwarf and auto,
 * and under the floor: the same attr (run_sample_attr.c, the one papi_run's threads open),
 * a ring of the same size mapped by the work's process itself and emptied every 10 ms by
 * one thread that only moves the tail (the kernel's cost alone). Per mode, medians of the
 * rounds, each against the plain run of its round: the work's wall time (timed inside the
 * program) and its thread's CPU time as ratios, the extra CPU of the whole process tree
 * (user + system, wait4) per sample in us and as % of one core over the work's length,
 * the same outside the work's thread (the drain thread, papi_run, start and exit: the
 * work thread's CPU noise left out), and the samples taken. The
 * work's thread CPU ratio is the wall-time cost on a machine with a spare core for the
 * drain thread; on a loaded machine the wall ratio is mostly the load. --base names
 * another build's papi_run (its libpapi_run_sample.so beside it): its --call-graph dwarf
 * runs in the same rounds, to compare a change of the unwinder; --papi-run replaces this
 * build's (a copy, so that the build may change while the bench runs). Child modes: work ITERS OUT [FLOOR_CG]. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"
#include "run_sample_stacks.h"
#include "run_sample.h"
#include "run_sample_attr.h"

#define CHUNK      100000L /* xorshift steps per leaf call: frames stay put for ~0.1 ms */
#define MAX_ROUNDS 32

static volatile uint64_t sink;

static double now(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The work's call chain: work_outer -> work_middle -> work_inner -> work_leaf. */
__attribute__((noinline)) static uint64_t work_leaf(uint64_t x, long n)
{
    for (long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

__attribute__((noinline)) static uint64_t work_inner(uint64_t x, long n)
{
    uint64_t a = work_leaf(x, n / 2);
    return work_leaf(a, n - n / 2) + a;
}

__attribute__((noinline)) static uint64_t work_middle(uint64_t x, long n)
{
    return work_inner(x, n) ^ (x >> 3);
}

__attribute__((noinline)) static void work_outer(long iters)
{
    uint64_t x = 88172645463325252ULL;
    for (long done = 0; done < iters; done += CHUNK)
        x = work_middle(x, iters - done < CHUNK ? iters - done : CHUNK);
    sink = x;
}

/* The floor: one ring of the calling thread, emptied by a thread that only moves its tail. */
struct floor_ring {
    unsigned char *base;
    size_t data_size;
    uint64_t samples, lost;
    int stop;
};

static void floor_drain(struct floor_ring *f)
{
    struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)f->base;
    const unsigned char *data = f->base + sysconf(_SC_PAGESIZE);
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
    while (tail < head) {
        struct perf_event_header h;
        for (size_t i = 0; i < sizeof h; i++)
            ((unsigned char *)&h)[i] = data[(tail + i) % f->data_size];
        if (h.size < sizeof h)
            break;
        if (h.type == PERF_RECORD_SAMPLE)
            f->samples++;
        else if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16) {
            uint64_t lost = 0;
            for (size_t i = 0; i < 8; i++)
                ((unsigned char *)&lost)[i] = data[(tail + sizeof h + 8 + i) % f->data_size];
            f->lost += lost;
        }
        tail += h.size;
    }
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void *floor_loop(void *arg)
{
    struct floor_ring *f = arg;
    const struct timespec ts = {0, 10000000L};
    while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
        nanosleep(&ts, NULL);
        floor_drain(f);
    }
    return NULL;
}

/* papi_run --sample default's attr here: perf::TASK-CLOCK at 999 Hz, user mode only. */
static int floor_open(int cg, struct floor_ring *f)
{
    struct rs_config c;
    memset(&c, 0, sizeof c);
    c.type[0] = PERF_TYPE_SOFTWARE;
    c.config[0] = PERF_COUNT_SW_TASK_CLOCK;
    c.freq = 1;
    c.value = 999;
    struct perf_event_attr a;
    rs_sample_attr(&c, 0, cg, &a);
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = cg == RS_CG_DWARF ? 64 : 32;
    void *m = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -1;
    f->base = m;
    f->data_size = pages * page;
    return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0 ? fd : -1;
}

/* work ITERS OUT [none|fp|dwarf]: the work timed inside, optionally under the floor. */
static int child_work(int argc, char **argv)
{
    long iters = atol(argv[2]);
    struct floor_ring f = {0};
    pthread_t drainer;
    int fd = -1;
    if (argc == 5) {
        int cg = strcmp(argv[4], "dwarf") == 0 ? RS_CG_DWARF
                 : strcmp(argv[4], "fp") == 0  ? RS_CG_FP
                                               : RS_CG_NONE;
        if ((fd = floor_open(cg, &f)) < 0 || pthread_create(&drainer, NULL, floor_loop, &f)) {
            perror("bench_sample_cost: the floor's ring");
            return 1;
        }
    }
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
    work_outer(iters);
    double c1 = now(CLOCK_THREAD_CPUTIME_ID), w1 = now(CLOCK_MONOTONIC);
    if (fd >= 0) {
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        __atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
        pthread_join(drainer, NULL);
        floor_drain(&f);
    }
    FILE *out = fopen(argv[3], "w");
    if (!out)
        return 1;
    fprintf(out, "%.6f %.6f %llu %llu\n", w1 - w0, c1 - c0, (unsigned long long)f.samples,
            (unsigned long long)f.lost);
    return fclose(out) == 0 ? 0 : 1;
}

struct result {
    double wall, work_wall, work_cpu, cpu; /* run's wall, work's wall and CPU, tree CPU */
    unsigned long long samples, lost;
};

/* A process's samples and lost records (its stacks block's counts). */
static int add_counts(void *ctx, const struct rs_stacks *b)
{
    struct result *r = ctx;
    r->samples += b->samples;
    r->lost += b->lost;
    return 0;
}

/* papi_run's samples: the counts of each .sample_*.txt in dir (run_sample_stacks.h). */
static void count_samples(const char *dir, struct result *r)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[8192], why[512];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_type == DT_DIR) {
            count_samples(path, r);
            continue;
        }
        if (strncmp(e->d_name, ".sample_", 8) == 0 &&
            rs_stacks_load(path, add_counts, r, why, sizeof why) < 0)
            fprintf(stderr, "bench_sample_cost: %s\n", why);
    }
    if (d)
        closedir(d);
}

#define NMODES 10
static int nmodes = NMODES - 1;             /* the last only with --base */
static const char *base_run;                /* --base: another build's papi_run */
static const char *our_run = PAPI_RUN_PATH; /* --papi-run: this build's, or a copy */
static const char *mode_name[NMODES] = {"plain",
                                        "papi_run (no --sample)",
                                        "--sample, --call-graph none",
                                        "--sample, --call-graph fp",
                                        "--sample, --call-graph dwarf",
                                        "--sample, --call-graph auto",
                                        "floor: raw ring, none",
                                        "floor: raw ring, fp",
                                        "floor: raw ring, dwarf",
                                        "--base's papi_run, --call-graph dwarf"};
static const char *mode_cg[NMODES] = {NULL,   NULL,   "none", "fp",    "dwarf",
                                      "auto", "none", "fp",   "dwarf", "dwarf"};

static void run_mode(int m, const char *self, const char *iters, struct result *r)
{
    char dir[] = "/tmp/bench_sample_cost.XXXXXX", out[64];
    if (!mkdtemp(dir))
        exit(1);
    snprintf(out, sizeof out, "%s/work.txt", dir);
    char *argv[16];
    int n = 0;
    int papi_run = (m >= 1 && m <= 5) || m == 9;
    if (papi_run) {
        argv[n++] = m == 9 ? (char *)base_run : (char *)our_run;
        argv[n++] = "--quiet";
        argv[n++] = "-o";
        argv[n++] = dir;
        if (m >= 2) {
            argv[n++] = "--sample";
            argv[n++] = "default";
            argv[n++] = "--call-graph";
            argv[n++] = (char *)mode_cg[m];
        }
        argv[n++] = "--";
    }
    argv[n++] = (char *)self;
    argv[n++] = "work";
    argv[n++] = (char *)iters;
    argv[n++] = out;
    if (m >= 6 && m <= 8)
        argv[n++] = (char *)mode_cg[m];
    argv[n] = NULL;
    double t0 = now(CLOCK_MONOTONIC);
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    memset(r, 0, sizeof *r);
    r->wall = now(CLOCK_MONOTONIC) - t0;
    r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    FILE *f = fopen(out, "r");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !f ||
        fscanf(f, "%lf %lf %llu %llu", &r->work_wall, &r->work_cpu, &r->samples, &r->lost) != 4) {
        fprintf(stderr, "bench_sample_cost: %s failed (status 0x%x)\n", mode_name[m], status);
        exit(1);
    }
    fclose(f);
    if (papi_run)
        count_samples(dir, r);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        exit(1);
}

static void print_load(const char *when)
{
    char l[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fgets(l, sizeof l, f))
        l[strcspn(l, "\n")] = 0;
    if (f)
        fclose(f);
    printf("load average %s: %s (%ld CPUs)\n", when, l, sysconf(_SC_NPROCESSORS_ONLN));
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "work") == 0)
        return child_work(argc, argv);
    double secs = 10;
    int rounds = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0)
            secs = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--base") == 0)
            base_run = argv[i + 1];
        else if (strcmp(argv[i], "--papi-run") == 0)
            our_run = argv[i + 1];
    }
    if (base_run)
        nmodes = NMODES;
    if (secs <= 0 || rounds < 1 || rounds > MAX_ROUNDS || (base_run && access(base_run, X_OK))) {
        fprintf(stderr,
                "usage: bench_sample_cost [--seconds S] [--rounds 1..%d] [--base PAPI_RUN] "
                "[--papi-run PAPI_RUN]\n",
                MAX_ROUNDS);
        return 2;
    }
    char self[4096], iters[32];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0)
        return 1;
    self[sl] = 0;
    /* calibration on the thread's CPU clock (the machine's load does not move it) */
    long cal = 20 * CHUNK;
    double c0 = now(CLOCK_THREAD_CPUTIME_ID);
    work_outer(cal);
    while (now(CLOCK_THREAD_CPUTIME_ID) - c0 < 0.3) {
        cal *= 2;
        c0 = now(CLOCK_THREAD_CPUTIME_ID);
        work_outer(cal);
    }
    double per = (now(CLOCK_THREAD_CPUTIME_ID) - c0) / (double)cal;
    snprintf(iters, sizeof iters, "%ld", (long)(secs / per));
    printf("work: %s xorshift steps (%.2f ns each: %.1f s of CPU), %d rounds ABBA\n", iters,
           per * 1e9, secs, rounds);
    print_load("before");
    static struct result res[MAX_ROUNDS][NMODES];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < nmodes; k++) {
            int m = r % 2 ? nmodes - 1 - k : k;
            run_mode(m, self, iters, &res[r][m]);
        }
        printf("round %d:", r + 1);
        for (int m = 0; m < nmodes; m++)
            printf(" %.2f/%.3f/%.3f", res[r][m].work_wall, res[r][m].work_cpu, res[r][m].cpu);
        printf("  (per mode: work wall / work thread CPU / tree CPU, s)\n");
        fflush(stdout);
    }
    print_load("after");
    printf("\n| mode | work wall ratio | work thread CPU ratio | extra CPU per sample | "
           "outside the work's thread | extra CPU, %% of one core | samples (lost) |\n"
           "| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int m = 0; m < nmodes; m++) {
        double ww[MAX_ROUNDS], wc[MAX_ROUNDS], per_s[MAX_ROUNDS], core[MAX_ROUNDS], smp[MAX_ROUNDS],
            lost[MAX_ROUNDS], over[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            const struct result *p = &res[r][0], *x = &res[r][m];
            double extra = x->cpu - p->cpu;
            ww[r] = x->work_wall / p->work_wall;
            wc[r] = x->work_cpu / p->work_cpu;
            per_s[r] = x->samples ? extra / (double)x->samples * 1e6 : 0;
            /* the drain thread, papi_run, start and exit: the work thread's noise left out */
            over[r] = x->samples ? ((x->cpu - x->work_cpu) - (p->cpu - p->work_cpu)) /
                                       (double)x->samples * 1e6
                                 : 0;
            core[r] = extra / p->cpu * 100;
            smp[r] = (double)x->samples;
            lost[r] = (double)x->lost;
        }
        printf("| %s | %.4f | %.4f | ", mode_name[m], median(ww, rounds), median(wc, rounds));
        if (m >= 2)
            printf("%.1f us | ", median(per_s, rounds));
        else
            printf("- | ");
        if (m >= 2)
            printf("%.1f us | ", median(over, rounds));
        else
            printf("- | ");
        printf("%.2f%% | %.0f (%.0f) |\n", median(core, rounds), median(smp, rounds),
               median(lost, rounds));
    }
    printf("goal: work wall ratio <= 1.02 at 1 kHz\n");
    return 0;
}
