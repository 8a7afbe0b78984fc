/* bench_counting: ns per PAPI_read / accum / reset / start+stop / add_event for 1, 2
 * and 4 software events, PAPI_library_init, and the raw perf_event floor measured in
 * the same run. Built twice from this source: against this library, and (when
 * libpapi-dev is installed) against the system's PAPI, whose figures the first binary
 * collects by running the second and prints as our/their ratios.
 *
 *   bench_counting [--reps N] [--machine]      --machine: one "key value" line each */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"
#include "papi.h"

#define MAXREP 20001
static const char *events[4] = {"perf::PAGE-FAULTS", "perf::MINOR-FAULTS",
                                "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"};
static double samples[MAXREP];
static int reps = 5001;

/* ---- the raw perf_event floor ------------------------------------------------------ */
struct raw_group {
    int fd[4];
    int n;
};

static int raw_open(struct raw_group *g, int n)
{
    static const unsigned long long cfg[4] = {PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN,
                                              PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS};
    g->n = n;
    for (int i = 0; i < n; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = cfg[i];
        a.disabled = i == 0;
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        g->fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? g->fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
        if (g->fd[i] < 0)
            return -1;
    }
    return 0;
}

static void raw_close(struct raw_group *g)
{
    for (int i = g->n - 1; i >= 0; i--)
        close(g->fd[i]);
}

/* ---- one library (ours or the system's) against the raw floor ------------------------
 * Each operation is timed alternately with its raw perf_event counterpart in the same
 * loop, so drift of the machine (frequency, other load) hits both sides alike. */
struct lib_result {
    double read[3], accum[3], reset[3], startstop[3], add[3], reset_stopped;
    double raw_read[3], raw_reset[3], raw_ss[3], raw_open[3];
};
static double samples_raw[MAXREP];

static int make_set(int n)
{
    int es = PAPI_NULL;
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return -1;
    for (int i = 0; i < n; i++)
        if (PAPI_add_named_event(es, events[i]) != PAPI_OK)
            return -1;
    return es;
}

static double median_of(double *a, int n)
{
    qsort(a, (size_t)n, sizeof a[0], cmp_double);
    return a[n / 2];
}

/* Time lib_stmt and raw_stmt 8 times each, alternating, reps times. */
#define PAIRED(out_lib, out_raw, lib_stmt, raw_stmt)                       \
    do {                                                                   \
        for (int r_ = 0; r_ < reps; r_++) {                                \
            long long t0_ = now_ns();                                      \
            for (int k_ = 0; k_ < 8; k_++) {                               \
                lib_stmt;                                                  \
            }                                                              \
            long long t1_ = now_ns();                                      \
            for (int k_ = 0; k_ < 8; k_++) {                               \
                raw_stmt;                                                  \
            }                                                              \
            long long t2_ = now_ns();                                      \
            samples[r_] = (double)(t1_ - t0_) / 8.0;                       \
            samples_raw[r_] = (double)(t2_ - t1_) / 8.0;                   \
        }                                                                  \
        (out_lib) = median_of(samples, reps);                              \
        (out_raw) = median_of(samples_raw, reps);                          \
    } while (0)

static int raw_open_sw(int group_fd)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CPU_MIGRATIONS;
    a.disabled = group_fd < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int bench_library(struct lib_result *r)
{
    long long v[4] = {0};
    unsigned long long buf[3 + 4];
    for (int k = 0; k < 3; k++) {
        int n = 1 << k;
        int es = make_set(n);
        struct raw_group g;
        if (es < 0 || raw_open(&g, n) != 0)
            return -1;
        int fd = g.fd[0];
        PAPI_start(es);
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        PAIRED(r->read[k], r->raw_read[k], PAPI_read(es, v),
               if (read(fd, buf, sizeof buf) < 0) abort());
        PAIRED(r->accum[k], r->raw_read[k], PAPI_accum(es, v),
               if (read(fd, buf, sizeof buf) < 0) abort());
        PAIRED(r->reset[k], r->raw_reset[k], PAPI_reset(es),
               ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
        PAPI_stop(es, v);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (k == 0) {
            double unused;
            PAIRED(r->reset_stopped, unused, PAPI_reset(es), (void)0);
            (void)unused;
        }
        PAIRED(r->startstop[k], r->raw_ss[k],
               {
                   PAPI_start(es);
                   PAPI_stop(es, v);
               },
               {
                   ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
                   ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
                   if (read(fd, buf, sizeof buf) < 0)
                       abort();
               });
        PAPI_cleanup_eventset(es);
        /* add_event: adding the n-th event to a set holding n-1, against one
         * perf_event_open into a raw group of n-1; removal/close are not timed. */
        int codes[4];
        for (int i = 0; i < n; i++)
            PAPI_event_name_to_code(events[i], &codes[i]);
        for (int i = 0; i < n - 1; i++)
            PAPI_add_event(es, codes[i]);
        int nr = reps / 4;
        for (int rr = 0; rr < nr; rr++) {
            long long t0 = now_ns();
            PAPI_add_event(es, codes[n - 1]);
            long long t1 = now_ns();
            int nfd = raw_open_sw(n > 1 ? fd : -1);
            long long t2 = now_ns();
            samples[rr] = (double)(t1 - t0);
            samples_raw[rr] = (double)(t2 - t1);
            PAPI_remove_event(es, codes[n - 1]);
            if (nfd >= 0)
                close(nfd);
        }
        r->add[k] = median_of(samples, nr);
        r->raw_open[k] = median_of(samples_raw, nr);
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
        raw_close(&g);
    }
    return 0;
}

static double init_time_ns(const char *self)
{
    /* PAPI_library_init runs once per process: time it in fresh child processes. */
    int n = 15;
    for (int i = 0; i < n; i++) {
        int p[2];
        if (pipe(p))
            return -1;
        pid_t c = fork();
        if (c == 0) {
            dup2(p[1], 1);
            execl(self, self, "--init-once", (char *)NULL);
            _exit(1);
        }
        close(p[1]);
        char buf[64] = {0};
        ssize_t got = read(p[0], buf, sizeof buf - 1);
        close(p[0]);
        waitpid(c, NULL, 0);
        samples[i] = got > 0 ? atof(buf) : -1;
    }
    return median(samples, n);
}

int main(int argc, char **argv)
{
    int machine = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--init-once")) {
            long long t0 = now_ns();
            int r = PAPI_library_init(PAPI_VER_CURRENT);
            long long t = now_ns() - t0;
            printf("%lld\n", r == PAPI_VER_CURRENT ? t : -1LL);
            return 0;
        } else if (!strcmp(argv[i], "--machine")) {
            machine = 1;
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 11 || reps >= MAXREP)
                reps = 5001;
        }
    }
    double init_ns = init_time_ns(argv[0]);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    struct lib_result ours = {0};
    if (bench_library(&ours) != 0) {
        const PAPI_component_info_t *c = PAPI_get_component_info(0);
        printf("error cannot add perf::PAGE-FAULTS and friends (component %s: %s)\n",
               c ? c->name : "?", c && c->disabled_reason[0] ? c->disabled_reason : "no reason given");
        return 1;
    }
    if (machine) {
        printf("init %.0f\n", init_ns);
        for (int k = 0; k < 3; k++)
            printf("read%d %.1f\naccum%d %.1f\nreset%d %.1f\nstartstop%d %.1f\nadd%d %.1f\n", 1 << k,
                   ours.read[k], 1 << k, ours.accum[k], 1 << k, ours.reset[k], 1 << k,
                   ours.startstop[k], 1 << k, ours.add[k]);
        return 0;
    }

    /* The system's PAPI, if its build of this benchmark exists. */
    double their[32] = {0};
    int have_their = 0;
#ifdef SYSTEM_PAPI_BENCH
    {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s --machine --reps %d 2>/dev/null", SYSTEM_PAPI_BENCH, reps);
        FILE *f = popen(cmd, "r");
        char key[32], why[640] = "";
        double val;
        const char *order[] = {"init", "read1", "accum1", "reset1", "startstop1", "add1", "read2",
                               "accum2", "reset2", "startstop2", "add2", "read4", "accum4",
                               "reset4", "startstop4", "add4"};
        char line[600];
        while (f && fgets(line, sizeof line, f)) {
            if (!strncmp(line, "error ", 6)) {
                snprintf(why, sizeof why, "%s", line + 6);
                continue;
            }
            if (sscanf(line, "%31s %lf", key, &val) != 2)
                continue;
            for (int i = 0; i < 16; i++)
                if (!strcmp(key, order[i])) {
                    their[i] = val;
                    have_their++;
                }
        }
        if (f)
            pclose(f);
        if (why[0])
            printf("system PAPI cannot count here: %s", why);
    }
#endif
    printf("ns per call, median of %d (x8 each), software events, this machine\n", reps);
    printf("%-22s %10s %10s %8s %10s %8s\n", "operation", "ours", "raw", "ours/raw", "sys PAPI",
           "ours/sys");
    for (int k = 0; k < 3; k++) {
        int n = 1 << k;
        double *t = have_their == 16 ? their + 1 + 5 * k : NULL;
        struct {
            const char *name;
            double ours, raw, theirs;
        } rows[] = {
            {"PAPI_read", ours.read[k], ours.raw_read[k], t ? t[0] : 0},
            {"PAPI_accum", ours.accum[k], ours.raw_read[k], t ? t[1] : 0},
            {"PAPI_reset (running)", ours.reset[k], ours.raw_reset[k], t ? t[2] : 0},
            {"PAPI_start+stop", ours.startstop[k], ours.raw_ss[k], t ? t[3] : 0},
            {"PAPI_add_event", ours.add[k], ours.raw_open[k], t ? t[4] : 0},
        };
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            char label[40];
            snprintf(label, sizeof label, "%s x%d", rows[i].name, n);
            printf("%-22s %10.0f %10.0f %8.2f", label, rows[i].ours, rows[i].raw, rows[i].ours / rows[i].raw);
            if (rows[i].theirs > 0)
                printf(" %10.0f %8.2f\n", rows[i].theirs, rows[i].ours / rows[i].theirs);
            else
                printf(" %10s %8s\n", "-", "-");
        }
    }
    printf("%-22s %10.1f %10s %8s %10s %8s\n", "PAPI_reset (stopped)", ours.reset_stopped, "-", "-", "-", "-");
    printf("%-22s %10.0f %10s %8s", "PAPI_library_init", init_ns, "-", "-");
    if (have_their == 16)
        printf(" %10.0f %8.2f\n", their[0], init_ns / their[0]);
    else
        printf(" %10s %8s\n", "-", "-");
    printf("raw floors: read() of the group, ioctl(RESET), enable+disable+read(), one perf_event_open\n");
#ifndef SYSTEM_PAPI_BENCH
    printf("(system PAPI not measured: install libpapi-dev and rebuild to compare)\n");
#endif
    PAPI_shutdown();
    return 0;
}
