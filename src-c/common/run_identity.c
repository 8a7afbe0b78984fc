/* run_identity.c: the run id and the "run" header (run_identity.h). The launcher's job
 * id keeps the ranks of one job together; a run with no launcher is its host, process
 * and start, which no other run shares. */
#include "run_identity.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "fsroot.h"

/* dst = prefix + text, characters outside [A-Za-z0-9._-] made '_'. */
static void clean_id(char *dst, size_t len, const char *prefix, const char *text)
{
    snprintf(dst, len, "%s%s", prefix, text);
    for (char *c = dst; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '.' || *c == '-'))
            *c = '_';
}

/* Process pid's parent and command name (/proc/PID/stat); 0, or -1. */
static int parent_of(pid_t pid, pid_t *ppid, char *comm, size_t len)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (fsroot_read_file(path, buf, sizeof buf) < 0)
        return -1;
    char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    long p;
    if (!open || !close || close < open || sscanf(close + 1, " %*c %ld", &p) != 1)
        return -1;
    *close = '\0';
    snprintf(comm, len, "%s", open + 1);
    *ppid = (pid_t)p;
    return 0;
}

/* MPICH's hydra names no job in the environment, but every proxy of one mpiexec has its
 * --control-port (host:port of mpiexec) and --pgid: the id of the job on every host. */
static int hydra_id(char *id, size_t len)
{
    char comm[64], path[64], args[4096], text[512] = "";
    pid_t pid = getppid(), up;
    for (int depth = 0; depth < 8 && pid > 1; depth++, pid = up) {
        if (parent_of(pid, &up, comm, sizeof comm) != 0)
            return -1;
        if (strcmp(comm, "hydra_pmi_proxy") != 0)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
        long got = fsroot_read_file(path, args, sizeof args);
        if (got < 0)
            return -1;
        size_t n = (size_t)got;
        const char *port = NULL, *pgid = "0";
        for (size_t i = 0; i < n; i += strlen(args + i) + 1) {
            size_t next = i + strlen(args + i) + 1;
            if (next < n && strcmp(args + i, "--control-port") == 0)
                port = args + next;
            else if (next < n && strcmp(args + i, "--pgid") == 0)
                pgid = args + next;
        }
        if (!port)
            return -1;
        snprintf(text, sizeof text, "%.200s-%.20s", port, pgid);
        clean_id(id, len, "hydra-", text);
        return 0;
    }
    return -1;
}

static const char *const launcher_ranks[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                             "SLURM_PROCID"};

int run_launcher_rank(const char **source)
{
    for (size_t i = 0; i < sizeof launcher_ranks / sizeof *launcher_ranks; i++) {
        const char *v = env_get(launcher_ranks[i]);
        char *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && r >= 0 && r <= INT_MAX) {
            *source = launcher_ranks[i];
            return (int)r;
        }
    }
    *source = NULL;
    return -1;
}

int run_launcher_size(void)
{
    static const char *const sizes[] = {"PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const char *v = env_get(sizes[i]);
        char *end;
        long n = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && n >= 1 && n <= INT_MAX)
            return (int)n;
    }
    return -1;
}

static int launcher_id(char *id, size_t len)
{
    int ranked = 0;
    for (size_t i = 0; i < sizeof launcher_ranks / sizeof *launcher_ranks; i++)
        ranked |= env_get(launcher_ranks[i]) != NULL;
    if (!ranked)
        return -1;
    const char *v = env_get("PMIX_NAMESPACE");
    if (v && *v)
        return clean_id(id, len, "pmix-", v), 0;
    if ((v = env_get("OMPI_MCA_ess_base_jobid")) && *v)
        return clean_id(id, len, "ompi-", v), 0;
    if (env_get("PMI_RANK") && hydra_id(id, len) == 0)
        return 0;
    const char *job = env_get("SLURM_JOB_ID"), *step = env_get("SLURM_STEP_ID");
    if (job && *job && step && *step) { /* a step of srun (a batch script has no step id) */
        char text[128];
        snprintf(text, sizeof text, "%.60s.%.60s", job, step);
        return clean_id(id, len, "slurm-", text), 0;
    }
    return -1;
}

void run_time_utc(time_t t, char *buf, size_t len)
{
    struct tm tm;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (gmtime_r(&t, &tm))
        strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void run_id_make(char *id, size_t len, int use_env, pid_t pid, time_t start_s, long start_ns)
{
    const char *v = use_env ? env_get("PAPI_RUN_ID") : NULL;
    if (v && *v) {
        clean_id(id, len, "", v);
        return;
    }
    if (launcher_id(id, len) == 0)
        return;
    char host[RUN_HOST_LEN] = "", stamp[32], text[RUN_HOST_LEN + 96];
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "host");
    struct tm tm;
    if (!gmtime_r(&start_s, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm))
        snprintf(stamp, sizeof stamp, "%lld", (long long)start_s);
    snprintf(text, sizeof text, "%.64s-%ld-%s.%09ldZ", host, (long)pid, stamp, start_ns);
    clean_id(id, len, "", text);
}

time_t run_process_start(void)
{
    char buf[1024];
    unsigned long long ticks = 0, btime = 0;
    if (fsroot_read_file("/proc/self/stat", buf, sizeof buf) < 0)
        return 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
        return 0;
    FILE *f = fsroot_fopen_in("", "/proc/stat"); /* this boot, also when replaying */
    if (!f)
        return 0;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "btime %llu", &btime) == 1)
            break;
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    return btime && hz > 0 ? (time_t)(btime + ticks / (unsigned long long)hz) : 0;
}

void run_identity_self(struct run_identity *r, const char *cpu, const char *version)
{
    memset(r, 0, sizeof *r);
    r->cpu = cpu ? cpu : "";
    r->version = version ? version : "";
    time_t start = run_process_start();
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    /* without a launcher: the process and its start (the id stays the same all run) */
    run_id_make(r->id, sizeof r->id, 1, getpid(), start ? start : now.tv_sec, 0);
    run_time_utc(start ? start : now.tv_sec, r->start, sizeof r->start);
    if (gethostname(r->host, sizeof r->host - 1) != 0)
        r->host[0] = '\0';
    long got = fsroot_read_file("/proc/self/cmdline", r->command, sizeof r->command);
    if (got > 0) {
        size_t n = (size_t)got;
        while (n > 0 && r->command[n - 1] == '\0')
            n--;
        for (size_t i = 0; i < n; i++)
            if (r->command[i] == '\0')
                r->command[i] = ' ';
        r->command[n] = '\0';
    }
}
