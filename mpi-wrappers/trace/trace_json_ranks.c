/* trace_json_ranks.c: the job's JSON trace, a file per rank and an index
 * (trace_json_ranks.h). What crosses the network: one MIN reduction (the job's base),
 * the directory's agreement (a broadcast), 16 bytes a rank to rank 0 (written, records,
 * drops) and the verdict (a broadcast). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include "idle_wait.h"
#include "json_writer.h"
#include "output_file.h"
#include "trace_json.h"
#include "trace_json_ranks.h"

#define RANK_FILE "rank_%06d"

/* What each rank tells rank 0 once its file is written (or not). */
struct rank_head {
    uint32_t written, pad;
    uint64_t nrec, dropped;
};

/* Rank 0: dir/<base>.ranks made (or there, a directory of ours): 0, or -1 with why. */
static int make_ranks_dir(const char *path, char *why, size_t whylen)
{
    char dwhy[512];
    int fd = output_dir_open(path, 1, dwhy, sizeof dwhy);
    if (fd < 0) {
        snprintf(why, whylen, "trace not written: %s", dwhy);
        return -1;
    }
    close(fd);
    return 0;
}

/* Rank 0: the index, dir/<base>.index.json. 0, or -1 with why. */
static int write_index(const char *dir, const char *base, const struct trace_meta *meta, int P,
                       uint64_t nrec, uint64_t dropped, int one_file, char *why, size_t whylen)
{
    char name[NAME_MAX + 1], tmp[NAME_MAX + 1], text[PATH_MAX], dwhy[512];
    snprintf(name, sizeof name, "%.200s.index.json", base);
    int dirfd = output_dir_open(dir, 0, dwhy, sizeof dwhy), ret = -1;
    int fd = dirfd < 0 ? -1 : output_file_create(dirfd, name, tmp, sizeof tmp);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (f) {
        struct jw w;
        jw_init(&w, f);
        jw_obj_begin(&w, NULL);
        jw_str(&w, "format", "papi-compat trace index");
        jw_int(&w, "version", 1);
        snprintf(text, sizeof text, "%.200s.ranks/%s.json", base, RANK_FILE);
        jw_str(&w, "files", text);
        jw_int(&w, "ranks", P);
        jw_uint(&w, "base_ns", meta->base_ns);
        jw_uint(&w, "records", nrec);
        jw_uint(&w, "dropped", dropped);
        snprintf(text, sizeof text, "%.200s.json", base);
        if (one_file)
            jw_str(&w, "one_file", text);
        else
            jw_null(&w, "one_file");
        const char *keys[] = {"program", "run_id", "creator"};
        const char *vals[] = {meta->program, meta->run_id, meta->creator};
        for (int i = 0; i < 3; i++)
            if (vals[i])
                jw_str(&w, keys[i], vals[i]);
        jw_obj_end(&w);
        int bad = jw_finish(&w) != 0;
        bad |= fclose(f) != 0;
        ret = bad ? -1 : output_file_publish(dirfd, tmp, name);
        if (bad)
            output_file_discard(dirfd, tmp);
    } else if (fd >= 0) {
        close(fd);
        output_file_discard(dirfd, tmp);
    }
    if (ret != 0)
        snprintf(why, whylen, "cannot write the trace's index %.200s/%s: %s", dir, name,
                 dirfd < 0 ? dwhy : strerror(errno ? errno : EIO));
    if (dirfd >= 0)
        close(dirfd);
    return ret;
}

/* Rank 0: the ranks' files as one, dir/<base>.json. 0, or -1 with why. */
static int one_file(const char *dir, const char *base, const char *rdir, int P,
                    const struct trace_meta *meta, uint64_t dropped, char *why, size_t whylen)
{
    char(*path)[PATH_MAX] = malloc((size_t)P * sizeof *path);
    const char **p = malloc((size_t)P * sizeof *p);
    int rc = -1;
    if (path && p) {
        int r = 0;
        while (r < P && (size_t)snprintf(path[r], sizeof path[r], "%s/" RANK_FILE ".json", rdir,
                                         r) < sizeof path[r])
            p[r] = path[r], r++;
        if (r == P)
            rc = trace_json_concat(dir, base, p, P, meta, dropped, why, whylen);
        else
            snprintf(why, whylen, "trace path %.200s is too long", rdir);
    } else {
        snprintf(why, whylen, "no memory to join the ranks' traces");
    }
    free(path);
    free(p);
    return rc;
}

/* Rank 0, every file written: the index and, for a small job, the one file. */
static int finish(const char *dir, const char *base, const char *rdir, const struct rank_head *h,
                  int P, const struct trace_meta *meta, uint64_t *dropped, char *why, size_t whylen)
{
    uint64_t nrec = 0;
    for (int r = 0; r < P; r++)
        nrec += h[r].nrec, *dropped += h[r].dropped;
    int one = P <= TRACE_ONE_FILE_RANKS;
    if (one && one_file(dir, base, rdir, P, meta, *dropped, why, whylen) != 0)
        return -1;
    char path[PATH_MAX + 64];
    if (write_index(dir, base, meta, P, nrec, *dropped, one, why, whylen) == 0) {
        for (int r = P;; r++) { /* an earlier, larger job's files: not this trace's */
            snprintf(path, sizeof path, "%s/" RANK_FILE ".json", rdir, r);
            if (unlink(path) != 0)
                break;
        }
        return 0;
    }
    snprintf(path, sizeof path, "%s/%s.json", dir, base);
    if (one)
        unlink(path); /* no index: no trace */
    return -1;
}

/* Rank 0, no trace: every rank's file removed, and their directory when empty. */
static void remove_files(const char *rdir, int P)
{
    char path[PATH_MAX + 64];
    for (int r = 0; r < P; r++) {
        snprintf(path, sizeof path, "%s/" RANK_FILE ".json", rdir, r);
        unlink(path);
    }
    rmdir(rdir);
}

int pmpi_trace_json_ranks(const struct trace_rank *mine, const struct trace_meta *meta,
                          const char *dir, const char *base, uint64_t *dropped, char *why,
                          size_t whylen)
{
    int me = 0, P = 1, ok = 1;
    char rdir[PATH_MAX], name[64], mywhy[PATH_MAX + 256] = "";
    uint64_t first, last, job_first = 0;
    struct trace_meta m = *meta;
    struct rank_head h = {0}, *heads = NULL;
    *dropped = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    trace_span(mine, 1, &first, &last);
    if (mine->nrec == 0)
        first = UINT64_MAX;
    MPI_Request req; /* each step waits for the others' writing: without a core (idle_wait.h) */
    pmpi_idle_complete(
        PMPI_Iallreduce(&first, &job_first, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &req), &req);
    m.base_ns = job_first == UINT64_MAX ? 0 : job_first;
    if ((size_t)snprintf(rdir, sizeof rdir, "%s/%s.ranks", dir, base) >= sizeof rdir) {
        snprintf(why, whylen, "trace path %.200s/%.40s.ranks is too long", dir, base);
        ok = 0;
    }
    if (me == 0 && ok && !(heads = malloc((size_t)P * sizeof *heads))) {
        snprintf(why, whylen, "no memory on rank 0 for the trace's %d ranks", P);
        ok = 0;
    }
    if (me == 0 && ok)
        ok = make_ranks_dir(rdir, why, whylen) == 0;
    pmpi_idle_complete(PMPI_Ibcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), &req);
    if (!ok) {
        free(heads);
        return -1;
    }
    snprintf(name, sizeof name, RANK_FILE, me);
    h.written = trace_json_write(rdir, name, &m, mine, 1, mywhy, sizeof mywhy) == 0;
    h.nrec = mine->nrec;
    h.dropped = mine->dropped;
    pmpi_idle_complete(PMPI_Igather(&h, (int)sizeof h, MPI_BYTE, heads, (int)sizeof h, MPI_BYTE, 0,
                                    MPI_COMM_WORLD, &req),
                       &req);
    int all = 1, failed = -1;
    for (int r = 0; me == 0 && r < P && all; r++)
        if (!heads[r].written)
            all = 0, failed = r;
    if (me == 0 && !all)
        snprintf(why, whylen, "rank %d could not write its trace file in %.200s%s%.300s", failed,
                 rdir, failed == 0 ? ": " : "", failed == 0 ? mywhy : "");
    else if (me == 0)
        all = finish(dir, base, rdir, heads, P, &m, dropped, why, whylen) == 0;
    if (me == 0 && !all)
        remove_files(rdir, P); /* no trace: no rank's file left behind */
    free(heads);
    return all ? 0 : -1;
}
