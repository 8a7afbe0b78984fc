/* hl_regions_report.c: the region report, one JSON file per process,
 * <PAPI_OUTPUT_DIRECTORY or .>/papi_hl_output/rank_XXXXXX.json (as PAPI 7 names it), and
 * the PAPI_REPORT=1 summary on stdout. The rank comes from papi_hl_set_rank (the MPI
 * wrapper library calls it), else from the launcher's environment, else the process id
 * names the file and "rank" is null.
 *
 * The schema is PAPI 7's (read by its papi_hl_output_writer): "event_definitions"
 * (name -> component, type), then "threads" -> id -> "regions" -> id -> name,
 * parent_region_id (-1 at top level), region_count, cycles, real_time_nsec and one member
 * per event; a region read with PAPI_hl_read has {region_value, read_1, ..., read_N} for
 * each value. Our additions live beside them at the top level: rank, rank_source, pid,
 * event_source, note (why software events were chosen) and skipped_events.
 *
 * The file is written under an exclusive temporary name in a directory this user owns,
 * then renamed into place: a planted symlink is never followed, and a full disk leaves the
 * previous report (or none), never a truncated one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hl_regions.h"
#include "json_writer.h"
#include "output_file.h"
#include "papi_hl_rank.h"

static int set_rank = -1;

int papi_hl_set_rank(int rank)
{
    if (rank < 0)
        return papi_error(PAPI_EINVAL, "papi_hl_set_rank: rank %d is negative", rank);
    set_rank = rank;
    return PAPI_OK;
}

/* The rank and where it came from; -1 when unknown. */
static int find_rank(const char **source)
{
    static const char *const vars[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", "MPI_LOCALRANKID"};
    if (set_rank >= 0) {
        *source = "MPI";
        return set_rank;
    }
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        if (!v || !*v)
            continue;
        long r = strtol(v, &end, 10);
        if (*end == '\0' && r >= 0 && r < 1000000000L) {
            *source = vars[i];
            return (int)r;
        }
    }
    *source = NULL;
    return -1;
}

/* A value: plain, or {region_value, read_1, ...} when the region was read midway. */
static void write_value(struct jw *w, const char *key, const struct hlr_region *g, int which)
{
#define PICK(s) (which == -2 ? (s).real : which == -1 ? (s).cyc : (s).value[which])
    if (g->nreads == 0) {
        jw_int(w, key, PICK(g->total));
        return;
    }
    char rk[32];
    jw_obj_begin(w, key);
    jw_int(w, "region_value", PICK(g->total));
    for (int k = 0; k < g->nreads; k++) {
        snprintf(rk, sizeof rk, "read_%d", k + 1);
        jw_int(w, rk, PICK(g->reads[k]));
    }
    jw_obj_end(w);
#undef PICK
}

static void write_thread(struct jw *w, struct hlr_thread *t)
{
    char key[32];
    pthread_mutex_lock(&t->lock);
    if (t->nregions == 0) { /* its first begin failed */
        pthread_mutex_unlock(&t->lock);
        return;
    }
    snprintf(key, sizeof key, "%lu", t->id);
    jw_obj_begin(w, key);
    jw_obj_begin(w, "regions");
    for (int r = 0; r < t->nregions; r++) {
        const struct hlr_region *g = &t->region[r];
        snprintf(key, sizeof key, "%d", r);
        jw_obj_begin(w, key);
        jw_str(w, "name", g->name);
        jw_int(w, "parent_region_id", g->parent);
        jw_int(w, "region_count", g->count);
        write_value(w, "cycles", g, -1);
        write_value(w, "real_time_nsec", g, -2);
        for (int i = 0; i < g_hlr.nevents; i++)
            write_value(w, g_hlr.name[i], g, i);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    jw_obj_end(w);
    pthread_mutex_unlock(&t->lock);
}

static int write_json(FILE *f, int rank, const char *rank_source)
{
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "papi_version", "7.0.0.0");
    jw_obj_begin(&w, "event_definitions");
    for (int i = 0; i < g_hlr.nevents; i++) {
        jw_obj_begin(&w, g_hlr.name[i]);
        jw_str(&w, "component", g_hlr.component[i]);
        jw_str(&w, "type", "delta");
        jw_obj_end(&w);
    }
    jw_obj_end(&w);
    if (rank >= 0) {
        jw_int(&w, "rank", rank);
        jw_str(&w, "rank_source", rank_source);
    } else {
        jw_null(&w, "rank");
        jw_null(&w, "rank_source");
    }
    jw_int(&w, "pid", (long long)getpid());
    jw_str(&w, "event_source", g_hlr.source ? g_hlr.source : "none");
    jw_str(&w, "note", g_hlr.note);
    jw_arr_begin(&w, "skipped_events");
    for (int i = 0; i < g_hlr.nskipped; i++) {
        jw_obj_begin(&w, NULL);
        jw_str(&w, "name", g_hlr.skipped[i].name);
        jw_str(&w, "reason", g_hlr.skipped[i].why);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_begin(&w, "threads");
    for (struct hlr_thread *t = g_hlr.threads; t; t = t->next)
        write_thread(&w, t);
    jw_obj_end(&w);
    jw_obj_end(&w);
    return jw_finish(&w);
}

static void write_summary(const char *path, int rank)
{
    printf("PAPI high-level report%s", rank >= 0 ? "" : "\n");
    if (rank >= 0)
        printf(" (rank %d)\n", rank);
    if (g_hlr.note[0])
        printf("  note: %s\n", g_hlr.note);
    for (struct hlr_thread *t = g_hlr.threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        for (int r = 0; r < t->nregions; r++) {
            const struct hlr_region *g = &t->region[r];
            printf("  thread %lu region %s: count %lld, real %.6f s", t->id, g->name, g->count,
                   (double)g->total.real * 1e-9);
            for (int i = 0; i < g_hlr.nevents; i++)
                printf(", %s %lld", g_hlr.name[i], g->total.value[i]);
            putchar('\n');
        }
        pthread_mutex_unlock(&t->lock);
    }
    printf("  written to %s\n", path);
    fflush(stdout);
}

/* When this process started, in seconds since the epoch (/proc/self/stat's start time in
 * clock ticks after boot, plus the boot time of /proc/stat); 0 when unknown. */
static time_t process_start_time(void)
{
    char buf[1024];
    unsigned long long ticks = 0, btime = 0;
    FILE *f = fopen("/proc/self/stat", "re");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
        return 0;
    f = fopen("/proc/stat", "re");
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

/* As PAPI 7: a papi_hl_output left by an earlier run is set aside as
 * papi_hl_output-YYYYMMDD-HHMMSS (its last change), so the new run's files are not mixed
 * with old ones. "Earlier" means last changed before this process started: the ranks of
 * one job all start before any of them writes, so they share the new directory. */
static void set_aside_earlier_run(const char *dir)
{
    struct stat st;
    time_t started = process_start_time();
    if (!started || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        st.st_mtime >= started)
        return;
    char stamp[32], old[PATH_MAX + 40];
    struct tm tm;
    if (!localtime_r(&st.st_mtime, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
        return;
    if (snprintf(old, sizeof old, "%s-%s", dir, stamp) >= (int)sizeof old)
        return;
    /* Fails harmlessly when another rank moved it first or the name is taken. */
    if (rename(dir, old) == 0 && getenv("PAPI_REPORT"))
        printf("PAPI: the earlier run's %s was renamed %s\n", dir, old);
}

/* <PAPI_OUTPUT_DIRECTORY or .>/papi_hl_output, created when missing, refused when it
 * belongs to another user. Returns its fd or a PAPI error. */
static int open_output_dir(char *dir, size_t dirlen)
{
    const char *base = getenv("PAPI_OUTPUT_DIRECTORY");
    char why[PAPI_HUGE_STR_LEN + 64];
    if (!base || !*base)
        base = ".";
    if (strlen(base) + sizeof "/papi_hl_output" > dirlen)
        return papi_error(PAPI_EINVAL, "PAPI_OUTPUT_DIRECTORY is longer than %zu bytes; the "
                          "region report is not written", dirlen - sizeof "/papi_hl_output");
    snprintf(dir, dirlen, "%s/papi_hl_output", base);
    set_aside_earlier_run(dir);
    int fd = output_dir_open(dir, 1, why, sizeof why);
    if (fd < 0)
        return papi_error(PAPI_ESYS, "region report (PAPI_OUTPUT_DIRECTORY): %s", why);
    return fd;
}

static int write_file(int dirfd, const char *dir, const char *name, int rank,
                      const char *rank_source)
{
    char tmp[NAME_MAX + 1];
    int fd = output_file_create(dirfd, name, tmp, sizeof tmp);
    if (fd < 0)
        return papi_error(PAPI_ESYS, "cannot create the region report in %s: %s", dir,
                          strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        output_file_discard(dirfd, tmp);
        return papi_error(PAPI_ESYS, "cannot write the region report in %s: %s", dir,
                          strerror(errno));
    }
    errno = 0;
    int bad = write_json(f, rank, rank_source);
    int err = bad ? (errno ? errno : EIO) : 0;
    if (fsync(fileno(f)) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        output_file_discard(dirfd, tmp);
        return papi_error(PAPI_ESYS, "writing the region report %s/%s failed (%s); nothing "
                          "was published", dir, name, strerror(err));
    }
    if (output_file_publish(dirfd, tmp, name) != 0)
        return papi_error(PAPI_ESYS, "cannot rename the region report into %s/%s: %s", dir, name,
                          strerror(errno));
    return PAPI_OK;
}

int hlr_write_report(int summary)
{
    char dir[PATH_MAX], name[64], path[PATH_MAX + 64];
    const char *rank_source;
    int ret = PAPI_OK;
    pthread_mutex_lock(&g_hlr_lock);
    int any = 0;
    for (struct hlr_thread *t = g_hlr.threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        any |= t->nregions > 0;
        pthread_mutex_unlock(&t->lock);
    }
    if (!any)
        goto out;
    int rank = find_rank(&rank_source);
    int dirfd = open_output_dir(dir, sizeof dir);
    if (dirfd < 0) {
        ret = dirfd;
        goto out;
    }
    snprintf(name, sizeof name, "rank_%06d.json", rank >= 0 ? rank : (int)getpid());
    ret = write_file(dirfd, dir, name, rank, rank_source);
    close(dirfd);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ret == PAPI_OK && summary)
        write_summary(path, rank);
out:
    if (ret != PAPI_OK)
        fprintf(stderr, "PAPI: %s\n", papi_last_error_detail());
    pthread_mutex_unlock(&g_hlr_lock);
    return ret;
}

int papi_hl_write_report(void)
{
    return hlr_write_report(0);
}
