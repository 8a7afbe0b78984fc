/* run_merge_dir.c: papi_run --merge DIR [--run ID]. An output folder's processes'
 * profiles (.sample_RUNID_PID.txt, left by every process of a --sample run) merged by
 * run_sample_merge, the end of a run's own merge, under its lock: job_profile_RUNID.json
 * and the folded files, for a folder an older papi_run left without the job file.
 * The job's "run" header is the run's papi_run region file's, else its first process's. */
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
#include "run_sample_opts.h"

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

static char metrics[RS_METRICS_TEXT]; /* the processes' -m metrics (metrics_of) */

/* The JSON string value of key after at (its first occurrence) into out; 0, or -1. */
static int json_string(const char *at, const char *key, char *out, size_t len)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(at, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    p += strspn(p, " \t\r\n");
    if (*p++ != ':')
        return -1;
    p += strspn(p, " \t\r\n");
    if (*p++ != '"')
        return -1;
    size_t n = 0;
    for (; *p && *p != '"' && n + 4 < len; p++) {
        unsigned c = (unsigned char)*p;
        if (c == '\\') {
            static const char from[] = "nrtbf", to[] = "\n\r\t\b\f";
            const char *k = strchr(from, *++p);
            if (!*p)
                return -1;
            if (*p == 'u') { /* (papi's writers escape control characters only) */
                unsigned v = 0;
                if (sscanf(p + 1, "%4x", &v) != 1)
                    return -1;
                c = v < 0x80 ? v : '?';
                p += 4;
            } else {
                c = k ? (unsigned char)to[k - from] : (unsigned char)*p;
            }
        }
        out[n++] = (char)c;
    }
    out[n] = 0;
    return *p == '"' ? 0 : -1;
}

/* The "metrics" member of a process profile's text (profile_metrics_write's) back into
 * the lines papi_run passed it (PAPI_RUN_SAMPLE_METRICS: "NAME\tUNIT\tFORMULA", then
 * "\tEVENT\tPLACE" per term), which the job file's "metrics" are written from. */
static void metrics_of(const char *text, char *out, size_t len)
{
    const char *p = strstr(text, "\"metrics\"");
    const char *end = p ? strchr(p, ']') : NULL; /* (no formula or event name has one) */
    out[0] = 0;
    for (p = p ? strstr(p, "\"name\"") : NULL; p && p < end; p = strstr(p + 1, "\"name\"")) {
        char name[PAPI_MIN_STR_LEN], unit[PAPI_MIN_STR_LEN], formula[PAPI_HUGE_STR_LEN];
        const char *terms = strstr(p, "\"terms\"");
        if (!terms || terms > end || json_string(p, "name", name, sizeof name) != 0 ||
            json_string(p, "unit", unit, sizeof unit) != 0 ||
            json_string(p, "formula", formula, sizeof formula) != 0)
            return;
        size_t n = strlen(out);
        snprintf(out + n, len - n, "%s%s\t%s\t%s", n ? "\n" : "", name, unit, formula);
        const char *q = strchr(terms, '{'), *close = q ? strchr(q, '}') : NULL;
        for (q = q ? strchr(q, '"') : NULL; q && q < close; q = strchr(q + 1, '"')) {
            char ev[RS_NAME_LEN + 8];
            int place;
            const char *e = strchr(q + 1, '"');
            if (!e || sscanf(e + 1, " : %d", &place) != 1)
                break;
            snprintf(ev, sizeof ev, "%.*s", (int)(e - q - 1), q + 1);
            n = strlen(out);
            snprintf(out + n, len - n, "\t%s\t%d", ev, place);
            q = e;
        }
        p = close ? close : p;
    }
}

/* s->run's command, start and host from file name's "run" member: 0, or -1. */
static int header_of(struct run_state *s, const char *name, struct run_identity *r)
{
    int fd = openat(s->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    static char text[1 << 16]; /* the header is at the file's start */
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    else if (fd >= 0)
        close(fd);
    text[n] = 0;
    char id[RUN_ID_LEN];
    const char *run = strstr(text, "\"run\"");
    if (strncmp(name, "profile_", 8) == 0 && !metrics[0])
        metrics_of(text, metrics, sizeof metrics);
    return run && json_string(run, "id", id, sizeof id) == 0 && strcmp(id, s->run.id) == 0 &&
                   json_string(run, "command", r->command, sizeof r->command) == 0 &&
                   json_string(run, "start", r->start, sizeof r->start) == 0 &&
                   json_string(run, "host", r->host, sizeof r->host) == 0
               ? 0
               : -1;
}

/* The run's header: papi_run's region file of the run (its name ends in -RUNID.json),
 * else the process profile (profile_RUNID_*.json) that started first; the -m metrics
 * from a process profile. */
static void find_header(struct run_state *s)
{
    int fd = dup(s->dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d)
        rewinddir(d); /* (a dup shares the offset an earlier reading left) */
    char tail[RUN_ID_LEN + 8], head[RUN_ID_LEN + 16];
    snprintf(tail, sizeof tail, "-%s.json", s->run.id);
    snprintf(head, sizeof head, "profile_%s_", s->run.id);
    int from_region = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name), t = strlen(tail);
        struct run_identity r;
        int region = n > t && strcmp(e->d_name + n - t, tail) == 0;
        if (!region && strncmp(e->d_name, head, strlen(head)) != 0)
            continue;
        if (header_of(s, e->d_name, &r) != 0)
            continue;
        if (region || (!from_region && (!s->run.start[0] || strcmp(r.start, s->run.start) < 0))) {
            memcpy(s->run.command, r.command, sizeof r.command);
            memcpy(s->run.start, r.start, sizeof r.start);
            memcpy(s->run.host, r.host, sizeof r.host);
        }
        from_region |= region;
    }
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
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
    find_header(s);
    setenv("PAPI_RUN_SAMPLE_METRICS", metrics, 1); /* (what a run's merge writes them from) */
    int ret = run_sample_merge(s) == 0 ? 0 : 1;
    if (ret == 0)
        fprintf(stderr, "papi_run: --merge: %s/job_profile_%s.json written\n", s->dir, s->run.id);
    close(s->dirfd);
    return ret;
}
