/* test_trace_openmp.c: the OpenMP slices' shared code (src-c/common/trace_openmp.c) with
 * known answers: a worker's late ends cut at its parallel region's end (by instance), a
 * slice crossing the one around it cut there, the walk's enter/leave sequence per thread
 * (a leave before an enter at one time); the ticks moved onto CLOCK_MONOTONIC by the
 * tool's two clock pairs; added to a builder as enter/leave pairs with its bound and the
 * logs' drops counted (two a slice, never an enter without its leave); the file form of
 * two processes read back whole (names renumbered, instances kept apart per process);
 * a missing file, a cut block and bad lines each said with the file and the line;
 * each slice's region typed by its name (trace_region_type.c: OpenMP's role and JSON
 * category, a named parallel region's file and line, MPI and user regions apart).
 * Usage: test_trace_openmp DIR. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_check.h"
#include "trace_openmp.h"
#include "trace_region_type.h"

static void push(struct trace_omp_spans *s, uint32_t thread, int kind, int name, uint64_t start,
                 uint64_t end, uint64_t instance)
{
    struct trace_omp_span sp = {.start = start,
                                .end = end,
                                .instance = instance,
                                .thread = thread,
                                .kind = (int16_t)kind,
                                .name = name};
    trace_omp_spans_push(s, &sp);
}

/* Instance 5 of region "r" forked by thread 10 (100..200) with its worker 11, whose join
 * and implicit task end late (390, 400: the team's next fork), and an explicit task run
 * in the join; a barrier of no instance on 11 after it; on 12 a barrier (40..70) that
 * crosses its implicit task's end (50). 9 slices, given out of order. */
static void staged(struct trace_omp_spans *s)
{
    int r = trace_omp_spans_name(s, "r (a.c:3)");
    push(s, 11, TRACE_OMP_BARRIER, -1, 210, 260, 0);
    push(s, 11, TRACE_OMP_EXPLICIT, -1, 160, 170, 5);
    push(s, 11, TRACE_OMP_JOIN, -1, 150, 390, 5);
    push(s, 11, TRACE_OMP_IMPLICIT, -1, 115, 400, 5);
    push(s, 10, TRACE_OMP_JOIN, -1, 180, 185, 5);
    push(s, 10, TRACE_OMP_IMPLICIT, -1, 110, 190, 5);
    push(s, 10, TRACE_OMP_PARALLEL, r, 100, 200, 5);
    push(s, 12, TRACE_OMP_BARRIER, -1, 40, 70, 0);
    push(s, 12, TRACE_OMP_IMPLICIT, -1, 0, 50, 0);
}

struct seq {
    char text[1024];
};

static void note(void *ctx, uint64_t ts, uint32_t thread, int enter,
                 const struct trace_omp_span *sp)
{
    struct seq *q = ctx;
    size_t n = strlen(q->text);
    snprintf(q->text + n, sizeof q->text - n, "%s%u%c%s@%llu", n ? " " : "", thread,
             enter ? '+' : '-', trace_omp_kind_name(sp->kind), (unsigned long long)ts);
}

static const char *const want_walk =
    "10+parallel region@100 10+implicit task@110 10+join@180 10-join@185 "
    "10-implicit task@190 10-parallel region@200 "
    "11+implicit task@115 11+join@150 11+explicit task@160 11-explicit task@170 "
    "11-join@200 11-implicit task@200 11+barrier@210 11-barrier@260 "
    "12+implicit task@0 12+barrier@40 12-barrier@50 12-implicit task@50";

static void test_order(void)
{
    struct trace_omp_spans s = {0};
    struct seq q = {""};
    staged(&s);
    trace_omp_spans_order(&s);
    trace_omp_spans_walk(&s, note, &q);
    CHECK(strcmp(q.text, want_walk) == 0, "walk:\n  %s\nexpected\n  %s", q.text, want_walk);
    CHECK(strcmp(trace_omp_span_name(&s, &s.span[0]), "r (a.c:3)") == 0,
          "the region's slice named by its name: %s", trace_omp_span_name(&s, &s.span[0]));
    trace_omp_spans_free(&s);
}

static void test_mono(void)
{
    struct trace_omp_spans s = {.tick0 = 1000, .mono0 = 5000, .tick1 = 3000, .mono1 = 6000};
    push(&s, 1, TRACE_OMP_IMPLICIT, -1, 2000, 3000, 0);
    trace_omp_spans_to_mono(&s);
    CHECK(s.mono && s.span[0].start == 5500 && s.span[0].end == 6000,
          "ticks 2000..3000 on the line (1000, 5000)-(3000, 6000): %llu..%llu",
          (unsigned long long)s.span[0].start, (unsigned long long)s.span[0].end);
    trace_omp_spans_free(&s);
}

static void test_add(void)
{
    struct trace_omp_spans s = {0};
    staged(&s);
    s.dropped = 3; /* the tool's logs dropped 3 */
    trace_omp_spans_order(&s);
    /* room for 4 records: thread 10's region and implicit task (their enters and leaves);
     * the join nested in them finds no room for its pair beside the leaves owed */
    struct trace_writer *w = trace_open(TRACE_JSON, 0, 1, "h", 4);
    CHECK(trace_omp_spans_add(w, &s) == 0, "added");
    struct trace_rank v;
    trace_view(w, &v);
    CHECK(v.nrec == 4 && v.dropped == 2 * (9 - 2) + 2 * 3,
          "4 records kept, %llu dropped (expected 4, %d)", (unsigned long long)v.dropped,
          2 * 7 + 6);
    int balanced = v.nrec == 4 && v.rec[0].kind == TR_ENTER && v.rec[1].kind == TR_ENTER &&
                   v.rec[2].kind == TR_LEAVE && v.rec[3].kind == TR_LEAVE &&
                   v.rec[0].id == v.rec[3].id && v.rec[1].id == v.rec[2].id;
    CHECK(balanced, "every enter kept has its leave, nested");
    CHECK(v.nregions == 2 && strcmp(v.region[v.rec[0].id], "r (a.c:3)") == 0 &&
              strcmp(v.region[v.rec[1].id], "implicit task") == 0,
          "only the names used become regions (%d)", v.nregions);
    trace_close(w);
    trace_omp_spans_free(&s);
}

static void test_file(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/spans", dir);
    unlink(path);
    struct trace_omp_spans a = {0}, b = {0}, got = {0};
    char why[512] = "";
    staged(&a);
    a.mono = 1;
    a.dropped = 2;
    trace_omp_spans_name(&b, "other\nname"); /* a newline: the file form's line */
    int q = trace_omp_spans_name(&b, "q (b.f90:7)");
    push(&b, 20, TRACE_OMP_PARALLEL, q, 150, 180, 5); /* process 2's instance 5 */
    push(&b, 21, TRACE_OMP_IMPLICIT, -1, 155, 300, 5);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    CHECK(fd >= 0 && trace_omp_spans_save(fd, 1, &a) == 0 && trace_omp_spans_save(fd, 2, &b) == 0,
          "both processes' blocks written");
    close(fd);
    int rc = trace_omp_spans_load(path, &got, why, sizeof why);
    CHECK(rc == 0 && got.n == 11 && got.nnames == 3 && got.dropped == 2 && got.mono,
          "read back: rc %d, %zu slices, %d names, %llu dropped (%s)", rc, got.n, got.nnames,
          (unsigned long long)got.dropped, why);
    CHECK(got.nnames == 3 && strcmp(got.name[1], "other name") == 0, "names renumbered, whole");
    struct seq s = {""};
    trace_omp_spans_walk(&got, note, &s);
    /* process 1's instance 5 ends at 200, process 2's at 180: each cut by its own */
    CHECK(strstr(s.text, "11-join@200 11-implicit task@200") &&
              strstr(s.text, "21+implicit task@155 21-implicit task@180"),
          "late ends cut by their own process's region: %s", s.text);
    const struct trace_omp_span *r2 = NULL;
    for (size_t i = 0; i < got.n; i++)
        if (got.span[i].thread == 20)
            r2 = &got.span[i];
    CHECK(r2 && strcmp(trace_omp_span_name(&got, r2), "q (b.f90:7)") == 0,
          "process 2's region keeps its name");
    trace_omp_spans_free(&a);
    trace_omp_spans_free(&b);
    trace_omp_spans_free(&got);
}

static void bad_file(const char *dir, const char *text, int want_rc, const char *want)
{
    char path[4096], why[512] = "";
    snprintf(path, sizeof path, "%s/bad", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    struct trace_omp_spans s = {0};
    int rc = trace_omp_spans_load(path, &s, why, sizeof why);
    CHECK(rc == want_rc && strstr(why, want) && strstr(why, path),
          "'%.40s': rc %d (expected %d), why '%s' (expected '%s')", text, rc, want_rc, why, want);
    trace_omp_spans_free(&s);
}

/* A name's category, and for an OpenMP one its role, file and line. */
static void typed(const char *name, const char *cat, int role, const char *file, int line)
{
    struct trace_region_type t = trace_region_type_of(name);
    int omp = strncmp(cat, "openmp.", 7) == 0;
    CHECK(strcmp(trace_region_category(name), cat) == 0 &&
              (!omp || (t.paradigm == TRACE_REGION_OPENMP && (int)t.role == role &&
                        t.file_len == strlen(file) && strncmp(t.file, file, t.file_len) == 0 &&
                        t.line == line)) &&
              (omp || t.file_len == 0),
          "%s: %s, role %d, file %.*s, line %d", name, trace_region_category(name), (int)t.role,
          (int)t.file_len, t.file ? t.file : "", t.line);
}

static void test_types(void)
{
    for (int k = 0; k < TRACE_OMP_KINDS; k++) /* every kind's name is OpenMP's */
        CHECK(strncmp(trace_region_category(trace_omp_kind_name(k)), "openmp.", 7) == 0, "kind %d",
              k);
    typed("r (a.c:3)", "openmp.parallel", TRACE_OMP_ROLE_PARALLEL, "a.c", 3);
    typed("outer (/src/x y (2)/b.f90:120)", "openmp.parallel", TRACE_OMP_ROLE_PARALLEL,
          "/src/x y (2)/b.f90", 120);
    typed("parallel region", "openmp.parallel", TRACE_OMP_ROLE_PARALLEL, "", 0);
    typed("implicit task", "openmp.implicit_task", TRACE_OMP_ROLE_IMPLICIT_TASK, "", 0);
    typed("barrier", "openmp.barrier", TRACE_OMP_ROLE_BARRIER, "", 0);
    typed("join", "openmp.implicit_barrier", TRACE_OMP_ROLE_IMPLICIT_BARRIER, "", 0);
    typed("taskwait", "openmp.taskwait", TRACE_OMP_ROLE_TASKWAIT, "", 0);
    typed("taskgroup", "openmp.taskgroup", TRACE_OMP_ROLE_TASKGROUP, "", 0);
    typed("explicit task", "openmp.task", TRACE_OMP_ROLE_TASK, "", 0);
    /* the constructs (issue 73): "ROLE function (file:line)" */
    typed("loop main (a.c:46)", "openmp.loop", TRACE_OMP_ROLE_LOOP, "a.c", 46);
    typed("critical f (/x y/b.c:9)", "openmp.critical", TRACE_OMP_ROLE_CRITICAL, "/x y/b.c", 9);
    typed("lock main (a.c:37)", "openmp.lock", TRACE_OMP_ROLE_LOCK, "a.c", 37);
    typed("reduction (no code address)", "openmp.reduction", TRACE_OMP_ROLE_REDUCTION, "", 0);
    typed("target", "openmp.target", TRACE_OMP_ROLE_TARGET, "", 0);
    /* a parallel region forked in a function named as a role is the region's */
    typed("single (a.c:3)", "openmp.parallel", TRACE_OMP_ROLE_PARALLEL, "a.c", 3);
    typed("critical main", "region", 0, "", 0);
    typed("loop (x)", "region", 0, "", 0);
    typed("MPI_Send", "mpi", 0, "", 0);
    typed("MPI_x (a.c:3)", "mpi", 0, "", 0);
    typed("iterations", "region", 0, "", 0);
    typed("f (a.c:)", "region", 0, "", 0);
    typed("f (:3)", "region", 0, "", 0);
    typed("(a.c:3)", "region", 0, "", 0);
    typed("f(a.c:3)", "region", 0, "", 0);
    typed("f (a.c:3) ", "region", 0, "", 0);
    typed("Barrier", "region", 0, "", 0);
    CHECK(strcmp(trace_region_role_name(TRACE_OMP_ROLE_IMPLICIT_BARRIER), "implicit_barrier") ==
                  0 &&
              strcmp(trace_region_role_name(TRACE_OMP_ROLES), "unknown") == 0,
          "role names");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_trace_openmp DIR\n");
        return 2;
    }
    test_order();
    test_mono();
    test_add();
    test_file(argv[1]);
    test_types();
    char none[4096], why[256] = "";
    snprintf(none, sizeof none, "%s/none", argv[1]);
    struct trace_omp_spans s = {0};
    CHECK(trace_omp_spans_load(none, &s, why, sizeof why) == 1 && s.n == 0,
          "a missing file: 1, nothing");
    bad_file(argv[1], "omp_spans 1 0 2 0\ns 1 1 -1 10 20 0\n", -1, "line 3: the block ends early");
    bad_file(argv[1], "omp_spans 1 0 1 0\ns 1 99 -1 10 20 0\n", -1, "line 2: expected a slice");
    /* a construct's slice names a name of its block, as a parallel region's does */
    bad_file(argv[1], "omp_spans 1 0 1 0\ns 1 8 0 10 20 0\n", -1, "line 2: expected a slice");
    bad_file(argv[1], "omp_spans 1 0 1 0\ns 1 1 -1 30 20 0\n", -1, "line 2: expected a slice");
    bad_file(argv[1], "omp_spans 1 1 1 0\nn r\ns 1 0 4 10 20 0\n", -1, "line 3: expected a slice");
    bad_file(argv[1], "gpu_ops 1 0 0 0\n", -1, "line 1: expected 'omp_spans");
    bad_file(argv[1], "omp_spans 1 1 0 0\nx r\n", -1, "line 2: expected a name");
    printf("%s\n", test_failures ? "FAILED" : "PASSED");
    return test_failures ? 1 : 0;
}
