/* run_merge_dir.c: papi_run --merge DIR [--run ID]. An output folder's processes'
 * profiles (.sample_RUNID_PID.txt, the stacks block every process of a --sample run
 * leaves, run_sample_stacks.h) merged by
 * run_sample_merge, the end of a run's own merge, under its lock: job_profile_RUNID.json
 * and the folded files, for a folder an older papi_run left without the job file.
 * The job's "run" header and -m metrics are read from those files too (run_sample_header.c:
 * the papi_run that started first). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "run_merge_dir.h"
#include "run_sample_merge.h"

/* The run id of a process's file name, ".sample_ID_PID[_execN].txt", into id; 0, or -1
 * for another file. */
static int run_of(const char *name, char *id, size_t len)
{
    size_t n = strlen(name);
    if (strncmp(name, ".sample_", 8) != 0 || n < 13 || strcmp(name + n - 4, ".txt") != 0)
        return -1;
    char s[512];
    snprintf(s, sizeof s, "%.*s", (int)(n - 12), name + 8);
    char *u = strrchr(s, '_');
    if (u && strncmp(u, "_exec", 5) == 0 && u[5] && strspn(u + 5, "0123456789") == strlen(u + 5))
        *u = 0, u = strrchr(s, '_');
    if (!u || u == s || !u[1] || strspn(u + 1, "0123456789") != strlen(u + 1))
        return -1;
    *u = 0;
    if ((size_t)(u - s) >= len)
        return -1; /* (longer than a run id) */
    memcpy(id, s, (size_t)(u - s) + 1);
    return 0;
}

/* The run asked (want, "" any: the newest file's) among the folder's processes' files:
 * 0 with its id in s->run.id, else one line saying why and -1. */
static int choose_run(struct run_state *s, const char *want)
{
    int fd = dup(s->dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d)
        rewinddir(d); /* (a dup shares the offset an earlier reading left) */
    char runs[512] = "", id[RUN_ID_LEN];
    time_t newest = 0;
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        struct stat st;
        if (run_of(e->d_name, id, sizeof id) != 0 ||
            fstatat(s->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (!strstr(runs, id) && strlen(runs) + strlen(id) + 3 < sizeof runs)
            snprintf(runs + strlen(runs), sizeof runs - strlen(runs), "%s%s", runs[0] ? ", " : "",
                     id);
        if (want[0] ? strcmp(id, want) == 0 && !found : !found || st.st_mtime > newest) {
            snprintf(s->run.id, sizeof s->run.id, "%s", id);
            newest = st.st_mtime;
            found = 1;
        }
    }
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
    if (found)
        return 0;
    if (runs[0])
        fprintf(stderr, "papi_run: --merge %s: no profiles of run %s (the folder's runs: %s)\n",
                s->dir, want, runs);
    else
        fprintf(stderr,
                "papi_run: --merge %s: no processes' profiles (.sample_RUNID_PID.txt, left by "
                "papi_run --sample) in this folder\n",
                s->dir);
    return -1;
}

/* DIR is the output folder, or the -o DIR above it (DIR/papi_run_output). */
static int open_dir(struct run_state *s, const char *dir)
{
    snprintf(s->dir, sizeof s->dir, "%s/papi_run_output", dir);
    s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (s->dirfd >= 0)
        return 0;
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (s->dirfd >= 0)
        return 0;
    fprintf(stderr, "papi_run: --merge %s: no such folder (%s)\n", dir, strerror(errno));
    return -1;
}

int run_merge_dir(struct run_state *s)
{
    if (open_dir(s, s->opt.merge_dir) != 0)
        return 2;
    if (choose_run(s, s->opt.merge_run) != 0) {
        close(s->dirfd);
        return 2;
    }
    int ret = run_sample_merge(s) == 0 ? 0 : 1;
    if (ret == 0)
        fprintf(stderr, "papi_run: --merge: %s/job_profile_%s.json written\n", s->dir, s->run.id);
    close(s->dirfd);
    return ret;
}
