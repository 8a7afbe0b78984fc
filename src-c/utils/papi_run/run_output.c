/* run_output.c: DIR/papi_run_output, where each run leaves one file of its own. The file
 * name holds the run id (rank_XXXXXX-ID.json) and is created exclusively, so no run ever
 * replaces another's file. An earlier run's directory is set aside as
 * papi_run_output-YYYYMMDD-HHMMSS (its last change), as the region API does for
 * papi_hl_output, but only when no run is using it: each papi_run holds a shared flock on
 * the directory from start to end, and moves it only under an exclusive one it got
 * without waiting. So a run never moves a running run's directory (concurrent runs share
 * it: their files differ by run id), the ranks of one job (one run id) share it, and a
 * run that opened a directory another moved meanwhile opens the new one. The runs' traces
 * (--trace, DIR/papi_run_trace) are set aside with it, under the same suffix. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output_file.h"
#include "run.h"
#include "run_output.h"

/* Whether dirfd holds a report of another run: a rank_*.json whose name lacks our id. */
static int holds_other_runs(int dirfd, const char *id)
{
    int fd = dup(dirfd), found = 0;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    rewinddir(d);
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        found = strncmp(e->d_name, "rank_", 5) == 0 && n > 5 &&
                strcmp(e->d_name + n - 5, ".json") == 0 && !strstr(e->d_name, id);
    }
    closedir(d);
    return found;
}

/* Whether fd is still the directory named path (not moved aside by another run). */
static int still_there(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* The traces of the runs whose directory path was just renamed old: DIR/papi_run_trace
 * gets old's suffix (nothing when there is none, or the name is taken). */
static void set_aside_traces(const char *path, const char *old, int quiet)
{
    char from[4096 + 32], to[4096 + 80];
    size_t n = strlen(path) - strlen("papi_run_output");
    if (snprintf(from, sizeof from, "%.*s%s", (int)n, path, RUN_TRACE_DIR) >= (int)sizeof from ||
        snprintf(to, sizeof to, "%s%s", from, old + strlen(path)) >= (int)sizeof to)
        return;
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0 && !quiet)
        fprintf(stderr, "papi_run: the earlier runs' %s was renamed %s\n", from, to);
}

/* path -> path-YYYYMMDD-HHMMSS (local time of its last change), -2.. -9 when taken;
 * never over an existing name. 0, or -1 when it stays (this run then joins it). */
static int set_aside(int fd, const char *path, int quiet)
{
    struct stat st;
    struct tm tm;
    char stamp[32], old[4096 + 48]; /* s->dir and a suffix */
    if (fstat(fd, &st) != 0 || !localtime_r(&st.st_mtime, &tm) ||
        !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
        return -1;
    for (int k = 1; k < 10; k++) {
        if (k == 1)
            snprintf(old, sizeof old, "%s-%s", path, stamp);
        else
            snprintf(old, sizeof old, "%s-%s-%d", path, stamp, k);
        if (renameat2(AT_FDCWD, path, AT_FDCWD, old, RENAME_NOREPLACE) == 0) {
            if (!quiet)
                fprintf(stderr, "papi_run: the earlier run's %s was renamed %s\n", path, old);
            set_aside_traces(path, old, quiet);
            return 0;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/* The directory's fd, locked shared for the whole run; -1 with why. */
static int open_locked(const char *path, const char *id, int quiet, char *why, size_t len)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        int fd = output_dir_open(path, 1, why, len);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) { /* no run is using it */
            if (still_there(fd, path) && holds_other_runs(fd, id) &&
                set_aside(fd, path, quiet) == 0) {
                close(fd); /* and the lock: the next attempt opens the new directory */
                continue;
            }
            flock(fd, LOCK_SH); /* (a conversion: another starter may look in between) */
        } else if (flock(fd, LOCK_SH) != 0) {
            return fd; /* no flock here (some network file systems): used, never moved */
        }
        if (still_there(fd, path))
            return fd;
        close(fd); /* moved aside while we waited: open the one now there */
    }
    snprintf(why, len, "%.300s keeps being replaced by other runs", path);
    return -1;
}

void run_open_output(struct run_state *s)
{
    char why[512];
    if (snprintf(s->dir, sizeof s->dir, "%s/papi_run_output", s->opt.outdir) >=
        (int)sizeof s->dir) {
        fprintf(stderr, "papi_run: -o %.40s...: name too long\n", s->opt.outdir);
        exit(2);
    }
    const int quiet = s->opt.quiet || s->opt.json || s->opt.csv_sep[0];
    s->dirfd = open_locked(s->dir, s->run.id, quiet, why, sizeof why);
    if (s->dirfd < 0 || faccessat(s->dirfd, ".", W_OK, AT_EACCESS) != 0) {
        fprintf(stderr, "papi_run: -o %s: %s\n", s->opt.outdir,
                s->dirfd < 0 ? why : "the directory cannot be written");
        exit(2);
    }
    snprintf(s->threads_file, sizeof s->threads_file, "%s/.papi_run_threads.%ld", s->dir,
             (long)getpid());
}
