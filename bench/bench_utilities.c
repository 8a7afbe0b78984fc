/* bench_utilities: wall time of whole utility processes (start, run, exit), ours against
 * the system's PAPI 7 utilities of the same name, run alternately so both see the same
 * machine state. The floor is a process that does nothing (/bin/true): what any
 * command costs here before it does any work.
 *
 *   bench_utilities [--rounds N] [--machine] [UTILITY [ARGS...]]
 *
 * Without a utility it measures papi_avail, papi_avail -a, papi_component_avail and
 * papi_mem_info. Output is stdout/stderr of the children sent to /dev/null. Beside the
 * wall time, the CPU time (user + system, from wait4) of each: a process that waits
 * (issue 34: papi_avail's membarrier registration waited for an RCU grace period) shows
 * a wall time well above its CPU time. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"

#ifndef OUR_UTILS_DIR
#error "OUR_UTILS_DIR must name the directory of this project's papi_* programs"
#endif
#define SYSTEM_UTILS_DIR "/usr/bin"
#define FLOOR_DIR "/bin"
#define FLOOR_NAME "true"
#define MAX_ROUNDS 5001
#define MAX_ARGS 16

extern char **environ;

static double tv_ns(struct timeval tv) { return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3; }

/* One run: ns from spawn to reaped exit, or -1 when the program could not run or failed;
 * *cpu: the child's user + system ns. */
static double run_once(char *const argv[], posix_spawn_file_actions_t *quiet, double *cpu)
{
    pid_t pid;
    int status;
    struct rusage ru;
    long long t0 = now_ns();
    if (posix_spawn(&pid, argv[0], quiet, NULL, argv, environ) != 0)
        return -1;
    if (wait4(pid, &status, 0, &ru) != pid)
        return -1;
    long long t1 = now_ns();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *cpu = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
    return (double)(t1 - t0);
}

struct subject {
    char path[512];
    char *argv[MAX_ARGS + 2];
    double t[MAX_ROUNDS], cpu[MAX_ROUNDS];
    int usable;
};

static void set_subject(struct subject *s, const char *dir, const char *prog, int argc, char **args)
{
    snprintf(s->path, sizeof s->path, "%s/%s", dir, prog);
    s->argv[0] = s->path;
    int n = 0;
    for (; n < argc && n < MAX_ARGS; n++)
        s->argv[n + 1] = args[n];
    s->argv[n + 1] = NULL;
    s->usable = access(s->path, X_OK) == 0;
}

static void measure(const char *prog, int argc, char **args, int rounds, int machine)
{
    static struct subject ours, theirs, floor_run;
    static double ratio_floor[MAX_ROUNDS], ratio_papi[MAX_ROUNDS];
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);

    set_subject(&ours, OUR_UTILS_DIR, prog, argc, args);
    set_subject(&theirs, SYSTEM_UTILS_DIR, prog, argc, args);
    set_subject(&floor_run, FLOOR_DIR, FLOOR_NAME, 0, NULL);
    if (!ours.usable) {
        fprintf(stderr, "bench_utilities: %s is missing\n", ours.path);
        exit(1);
    }
    /* Warm the page cache for all three before timing anything. */
    double ca = 0, cb = 0, cf = 0;
    for (int w = 0; w < 5; w++) {
        run_once(ours.argv, &quiet, &ca);
        if (theirs.usable && run_once(theirs.argv, &quiet, &cb) < 0)
            theirs.usable = 0; /* it fails here: report that instead of a time */
        run_once(floor_run.argv, &quiet, &cf);
    }
    int n = 0;
    for (int r = 0; r < rounds; r++) {
        /* Alternate the order so neither always runs right after the other. */
        double a, b = 0, f;
        if (r & 1) {
            f = run_once(floor_run.argv, &quiet, &cf);
            b = theirs.usable ? run_once(theirs.argv, &quiet, &cb) : 0;
            a = run_once(ours.argv, &quiet, &ca);
        } else {
            a = run_once(ours.argv, &quiet, &ca);
            b = theirs.usable ? run_once(theirs.argv, &quiet, &cb) : 0;
            f = run_once(floor_run.argv, &quiet, &cf);
        }
        if (a < 0) {
            fprintf(stderr, "bench_utilities: %s failed\n", ours.path);
            exit(1);
        }
        if (f <= 0 || b < 0)
            continue;
        ours.t[n] = a;
        theirs.t[n] = b;
        floor_run.t[n] = f;
        ours.cpu[n] = ca;
        theirs.cpu[n] = cb;
        ratio_floor[n] = a / f;
        ratio_papi[n] = theirs.usable ? a / b : 0;
        n++;
    }
    posix_spawn_file_actions_destroy(&quiet);
    if (n == 0) {
        fprintf(stderr, "bench_utilities: no round completed\n");
        exit(1);
    }
    char label[256] = "";
    snprintf(label, sizeof label, "%s", prog);
    for (int i = 0; i < argc && i < MAX_ARGS; i++) {
        strncat(label, " ", sizeof label - strlen(label) - 1);
        strncat(label, args[i], sizeof label - strlen(label) - 1);
    }
    double mo = median(ours.t, n) / 1e6, mf = median(floor_run.t, n) / 1e6;
    double rf = median(ratio_floor, n), co = median(ours.cpu, n) / 1e6;
    double mt = median(theirs.t, n) / 1e6, ct = median(theirs.cpu, n) / 1e6;
    if (machine) {
        printf("%s ours_ms %.3f ours_cpu_ms %.3f floor_ms %.3f ratio_floor %.3f", label, mo, co,
               mf, rf);
        if (theirs.usable)
            printf(" papi7_ms %.3f papi7_cpu_ms %.3f ratio_papi7 %.3f", mt, ct,
                   median(ratio_papi, n));
        printf("\n");
        return;
    }
    printf("%-28s ours %6.3f ms (CPU %6.3f)  floor (%s/%s) %6.3f ms  ours/floor %5.2f", label,
           mo, co, FLOOR_DIR, FLOOR_NAME, mf, rf);
    if (theirs.usable)
        printf("  PAPI 7 %6.3f ms (CPU %6.3f)  ours/PAPI 7 %5.2f [goal <= 1]", mt, ct,
               median(ratio_papi, n));
    else
        printf("  (no working %s/%s to compare with)", SYSTEM_UTILS_DIR, prog);
    printf("   median of %d rounds\n", n);
}

int main(int argc, char **argv)
{
    int rounds = 301, machine = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
            if (rounds < 1 || rounds > MAX_ROUNDS) {
                fprintf(stderr, "bench_utilities: --rounds takes 1..%d\n", MAX_ROUNDS);
                return 2;
            }
        } else if (!strcmp(argv[i], "--machine")) {
            machine = 1;
        } else {
            fprintf(stderr, "usage: bench_utilities [--rounds N] [--machine] [UTILITY [ARGS...]]\n");
            return 2;
        }
    }
    if (i < argc) {
        measure(argv[i], argc - i - 1, argv + i + 1, rounds, machine);
        return 0;
    }
    static char *avail_a[] = {"-a"};
    measure("papi_avail", 0, NULL, rounds, machine);
    measure("papi_avail", 1, avail_a, rounds, machine);
    measure("papi_component_avail", 0, NULL, rounds, machine);
    measure("papi_mem_info", 0, NULL, rounds, machine);
    return 0;
}
