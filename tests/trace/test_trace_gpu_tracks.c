/* test_trace_gpu_tracks.c: the GPU tracks' shared code (src-c/common/trace_gpu_tracks.c)
 * with known answers: the operations ordered per track and cut where one starts before
 * the previous one on its stream ends; added to a builder as enter/leave pairs, a name a
 * region once, the builder's bound and the log's drops counted as dropped records (two
 * an operation, never an enter without its leave); the file form written by two
 * processes read back whole (names renumbered), each process's operations ordered and cut
 * on its own tracks, and another process's added on tracks of its own; a missing file, a cut block and a bad
 * line each said, naming the file and the line. Usage: test_trace_gpu_tracks DIR. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_check.h"
#include "trace_gpu_tracks.h"

#define T7 TRACE_GPU_TRACK(0, 7)
#define T2 TRACE_GPU_TRACK(1, 2)

/* Two tracks, given out of order: on T7 1000..2000 and 1500..2500 overlap (the second cut
 * to 2000..2500), 3000..3200; on T2 100..400. */
static void staged(struct trace_gpu_ops *g)
{
    int sq = trace_gpu_ops_name(g, "square(float*, int)"), pk = trace_gpu_ops_name(g, "plain");
    int hd = trace_gpu_ops_name(g, "memcpy\nHtoD"); /* a newline: the file form's line */
    trace_gpu_ops_push(g, T7, 3000, 3200, hd);
    trace_gpu_ops_push(g, T2, 100, 400, pk);
    trace_gpu_ops_push(g, T7, 1500, 2500, sq);
    trace_gpu_ops_push(g, T7, 1000, 2000, sq);
}

static void test_order(void)
{
    struct trace_gpu_ops g = {0};
    staged(&g);
    trace_gpu_ops_order(&g);
    const struct trace_gpu_op want[] = {{1000, 2000, T7, 0, 0},
                                        {2000, 2500, T7, 0, 0},
                                        {3000, 3200, T7, 2, 0},
                                        {100, 400, T2, 1, 0}};
    CHECK(g.n == 4, "order: %zu operations, want 4", g.n);
    for (size_t i = 0; i < g.n && i < 4; i++)
        CHECK(g.op[i].start == want[i].start && g.op[i].end == want[i].end &&
                  g.op[i].label == want[i].label && g.op[i].name == want[i].name,
              "order: op %zu: %llu..%llu on %#x name %d", i, (unsigned long long)g.op[i].start,
              (unsigned long long)g.op[i].end, g.op[i].label, g.op[i].name);
    CHECK(strcmp(g.name[2], "memcpy HtoD") == 0, "a name's newline kept: '%s'", g.name[2]);
    trace_gpu_ops_free(&g);
}

/* Into a builder bounded at 7 records, one counter record in it already: 3 operations fit
 * (6 records), the 4th is dropped whole (2), and the log's 5 drops count 10. */
static void test_add(void)
{
    struct trace_gpu_ops g = {0};
    staged(&g);
    trace_gpu_ops_order(&g);
    g.dropped = 5;
    struct trace_writer *w = trace_open(TRACE_JSON, 0, 1, NULL, 7);
    trace_counter(w, 1, 1, trace_define_counter(w, "x"), 0);
    CHECK(trace_gpu_ops_add(w, &g) == 0, "add: returned an error");
    struct trace_rank v;
    trace_view(w, &v);
    CHECK(v.nrec == 7 && v.dropped == 12, "add: %zu records, %llu dropped; want 7 and 12", v.nrec,
          (unsigned long long)v.dropped);
    CHECK(v.nregions == 2 && strcmp(v.region[0], "square(float*, int)") == 0 &&
              strcmp(v.region[1], "memcpy HtoD") == 0,
          "add: the used names once each as regions (%d)", v.nregions);
    int enters = 0, leaves = 0;
    for (size_t i = 1; i < v.nrec; i++) {
        enters += v.rec[i].kind == TR_ENTER;
        leaves += v.rec[i].kind == TR_LEAVE;
        CHECK(TRACE_IS_GPU_TRACK(v.rec[i].thread), "add: record %zu off a GPU track", i);
    }
    CHECK(enters == 3 && leaves == 3, "add: %d enters and %d leaves, want 3 and 3", enters, leaves);
    trace_close(w);
    trace_gpu_ops_free(&g);
}

/* Two processes append a block each; the load has both, names renumbered, ordered. */
static void test_file(const char *dir)
{
    char path[4096], why[512] = "";
    snprintf(path, sizeof path, "%s/gpu_ops.txt", dir);
    unlink(path);
    struct trace_gpu_ops a = {0}, b = {0}, got = {0};
    staged(&a);
    a.dropped = 3;
    int k = trace_gpu_ops_name(&b, "late");
    trace_gpu_ops_push(&b, T7, 2100, 2200, k);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    CHECK(fd >= 0 && trace_gpu_ops_save(fd, 10, &a) == 0 && trace_gpu_ops_save(fd, 11, &b) == 0,
          "save: failed");
    close(fd);
    int rc = trace_gpu_ops_load(path, &got, why, sizeof why);
    CHECK(rc == 0 && got.n == 5 && got.nnames == 4 && got.dropped == 3,
          "load: rc %d, %zu operations, %d names, %llu dropped (%s)", rc, got.n, got.nnames,
          (unsigned long long)got.dropped, why);
    /* Per process, then track and start: process 10's T7 1000..2000, 1500..2500 cut to
     * 2000..2500, 3000..3200, its T2 100..400; process 11's T7 2100..2200 whole (process
     * 10's stream 7 is not its own: no cut across processes) */
    const struct trace_gpu_op want[] = {{1000, 2000, T7, 0, 10},
                                        {2000, 2500, T7, 0, 10},
                                        {3000, 3200, T7, 2, 10},
                                        {100, 400, T2, 1, 10},
                                        {2100, 2200, T7, 3, 11}};
    for (size_t i = 0; rc == 0 && i < got.n && i < 5; i++)
        CHECK(got.op[i].start == want[i].start && got.op[i].end == want[i].end &&
                  got.op[i].label == want[i].label && got.op[i].name == want[i].name &&
                  got.op[i].pid == want[i].pid,
              "load: op %zu: %llu..%llu on %#x name %d pid %d", i,
              (unsigned long long)got.op[i].start, (unsigned long long)got.op[i].end,
              got.op[i].label, got.op[i].name, (int)got.op[i].pid);
    CHECK(got.nnames == 4 && strcmp(got.name[3], "late") == 0, "load: the second block's name");
    /* Added to process 10's builder: process 11's operation on a track of its own,
     * "GPU 0 stream 7 (pid 11)"; process 10's on its plain tracks */
    struct trace_writer *w = trace_open(TRACE_JSON, 0, 10, "host", 0);
    CHECK(w && trace_gpu_ops_add(w, &got) == 0, "add two processes: failed");
    struct trace_rank v;
    trace_view(w, &v);
    CHECK(v.nrec == 10 && v.ntracks == 1 && v.track[0].gpu == T7 && v.track[0].pid == 11,
          "add two processes: %zu records, %d other tracks", v.nrec, v.ntracks);
    int own = 0, other = 0;
    for (size_t i = 0; i < v.nrec; i++) {
        own += v.rec[i].thread == T7 || v.rec[i].thread == T2;
        other +=
            v.rec[i].thread == TRACE_GPU_TRACK_OF(0) && v.rec[i].ts >= 2100 && v.rec[i].ts <= 2200;
    }
    char name[64];
    trace_track_name(TRACE_GPU_TRACK_OF(0), v.track, v.ntracks, name, sizeof name);
    CHECK(own == 8 && other == 2 && strcmp(name, "GPU 0 stream 7 (pid 11)") == 0 &&
              TRACE_IS_GPU_TRACK(TRACE_GPU_TRACK_OF(0)),
          "add two processes: %d records on process 10's tracks, %d on '%s'", own, other, name);
    trace_close(w);
    trace_gpu_ops_free(&a);
    trace_gpu_ops_free(&b);
    trace_gpu_ops_free(&got);
}

/* Counter points (papi_run --gpu-counters' per kernel values): saved and loaded exactly
 * (a value with a fraction), ordered per track, and added in time order with the
 * operations of their track: a point at an operation's start after its enter, one at its
 * end after its leave; counter records of a double. */
static void test_points(const char *dir)
{
    char path[4096], why[512] = "";
    snprintf(path, sizeof path, "%s/gpu_points.txt", dir);
    unlink(path);
    struct trace_gpu_ops a = {0}, got = {0};
    int k = trace_gpu_ops_name(&a, "kernA"), m = trace_gpu_ops_name(&a, "cycles (per kernel)");
    trace_gpu_ops_push(&a, T7, 1000, 2000, k);
    trace_gpu_ops_point(&a, T7, 2000, m, 0.0); /* given out of order: the load orders them */
    trace_gpu_ops_point(&a, T7, 1000, m, 300.25);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    CHECK(fd >= 0 && trace_gpu_ops_save(fd, 10, &a) == 0, "points: save failed");
    close(fd);
    int rc = trace_gpu_ops_load(path, &got, why, sizeof why);
    CHECK(rc == 0 && got.n == 1 && got.npt == 2 && got.pt[0].t == 1000 &&
              got.pt[0].value == 300.25 && got.pt[1].t == 2000 && got.pt[1].value == 0.0 &&
              got.pt[0].pid == 10 && got.pt[0].label == T7 && got.pt[0].name == m,
          "points: rc %d, %zu ops, %zu points (%s)", rc, got.n, got.npt, why);
    struct trace_writer *w = trace_open(TRACE_JSON, 0, 10, "host", 0);
    CHECK(w && trace_gpu_ops_add(w, &got) == 0, "points: add failed");
    struct trace_rank v;
    trace_view(w, &v);
    const int kinds[] = {TR_ENTER, TR_COUNTER, TR_LEAVE, TR_COUNTER};
    int ok = v.nrec == 4 && v.ncounters == 1 && strcmp(v.counter[0], "cycles (per kernel)") == 0;
    for (size_t i = 0; ok && i < 4; i++)
        ok = v.rec[i].kind == kinds[i] && v.rec[i].thread == T7 &&
             (v.rec[i].kind != TR_COUNTER || v.rec[i].vtype == TR_VALUE_DOUBLE);
    CHECK(ok && trace_value_double(&v.rec[1]) == 300.25 && v.rec[1].ts == 1000 &&
              trace_value_double(&v.rec[3]) == 0.0 && v.rec[3].ts == 2000,
          "points: %zu records: enter, the value, leave, 0 on the kernel's track", v.nrec);
    trace_close(w);
    trace_gpu_ops_free(&a);
    trace_gpu_ops_free(&got);
}

/* A file's text, loaded: rc, and why holds want. */
static void bad_file(const char *dir, const char *text, int want_rc, const char *want)
{
    char path[4096], why[512] = "";
    snprintf(path, sizeof path, "%s/bad_ops.txt", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    struct trace_gpu_ops g = {0};
    int rc = trace_gpu_ops_load(path, &g, why, sizeof why);
    CHECK(rc == want_rc && strstr(why, want) && strstr(why, path),
          "bad file: rc %d, '%s'; want %d and '%s'", rc, why, want_rc, want);
    printf("bad file said: %s\n", why);
    trace_gpu_ops_free(&g);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    test_order();
    test_add();
    test_file(argv[1]);
    test_points(argv[1]);
    bad_file(argv[1], "gpu_ops 1 1 2 0\nn k\no 1 0 5 0\n", -1, "line 4: the block ends early");
    bad_file(argv[1], "gpu_ops 1 1 1 0\nn k\no 1 9 5 0\n", -1,
             "line 3: expected an operation (o LABEL START END NAME) or a counter point (p "
             "LABEL T NAME VALUE): 'o 1 9 5 0'");
    bad_file(argv[1], "gpu_ops 1 1 1 0\nn k\no 1 0 5 1\n", -1, "line 3: expected an operation");
    bad_file(argv[1], "gpu_ops 1 1 1 0\nn k\np 1 5 1 0x1p+0\n", -1,
             "line 3: expected an operation"); /* a point naming no name of its block */
    bad_file(argv[1], "gpu_ops 1 1 1 0\nn k\np 1 5 0 one\n", -1, "line 3: expected an operation");
    bad_file(argv[1], "gpu ops\n", -1, "line 1: expected 'gpu_ops PID NAMES ITEMS DROPPED'");
    bad_file(argv[1], "gpu_ops 0 1 1 0\nn k\no 1 0 5 0\n", -1, "line 1: process id 0 out of range");
    char path[4096], why[64] = "";
    snprintf(path, sizeof path, "%s/none.txt", argv[1]);
    struct trace_gpu_ops g = {0};
    CHECK(trace_gpu_ops_load(path, &g, why, sizeof why) == 1 && g.n == 0,
          "a missing file: 1 (no process wrote one)");
    return test_done("test_trace_gpu_tracks");
}
