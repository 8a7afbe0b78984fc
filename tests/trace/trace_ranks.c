/* trace_ranks.c: four ranks' records written through the trace writer (trace_writer.h),
 * as the MPI wrapper hands them over at finalize: a ring of NITER rounds (rank r sends
 * to r+1 with tag i, receives from r-1), each round ending in an allreduce, then every
 * rank but 0 sends rank 0 two messages with tag 7 (the receives in rank order), counter
 * samples, and a second thread per rank with nested regions.
 *
 *   trace_ranks DIR json|otf2   the job in one file (DIR/job.json or DIR/job/, written
 *                               twice: the second replaces the first) and, for
 *                               json, each rank alone (DIR/rank<r>.json)
 *   trace_ranks DIR bad         bad input: unknown format, unwritable directory
 *   trace_ranks DIR nootf2      (built without libotf2) OTF2 refused in one line, JSON
 *                               still written
 * check_trace.py checks the files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_writer.h"

#define NRANKS 4
#define NITER  5
#define US     1000ULL

static const uint64_t t0 = 1700000000000000000ULL; /* a realtime clock's ns */

static void rank_records(struct trace_writer *w, int r)
{
    uint32_t main_t = 1000 + 10 * (uint32_t)r, side_t = main_t + 1;
    int send = trace_define_region(w, "MPI_Send"), recv = trace_define_region(w, "MPI_Recv");
    int allr = trace_define_region(w, "MPI_Allreduce"), comp = trace_define_region(w, "compute");
    int outer = trace_define_region(w, "outer"), inner = trace_define_region(w, "inner");
    int ins = trace_define_counter(w, "PAPI_TOT_INS");
    uint64_t t = t0 + (uint64_t)r * 3 * US; /* ranks' clocks start apart */
    for (int i = 0; i < NITER; i++) {
        trace_enter(w, t, main_t, comp);
        trace_counter(w, t + 1, main_t, ins, 1000LL * i);
        trace_leave(w, t + 100 * US, main_t, comp);
        trace_enter(w, t + 101 * US, main_t, send);
        trace_send(w, t + 102 * US, main_t, (r + 1) % NRANKS, i, 0, 64 * (uint64_t)(i + 1));
        trace_leave(w, t + 103 * US, main_t, send);
        trace_enter(w, t + 104 * US, main_t, recv);
        trace_recv(w, t + 150 * US, main_t, (r + NRANKS - 1) % NRANKS, i, 0,
                   64 * (uint64_t)(i + 1));
        trace_leave(w, t + 151 * US, main_t, recv);
        trace_enter(w, t + 152 * US, main_t, allr);
        trace_coll_begin(w, t + 152 * US, main_t);
        trace_coll_end(w, t + 190 * US, main_t, TC_ALLREDUCE, 0, -1, 8, 8);
        trace_leave(w, t + 190 * US, main_t, allr);
        t += 200 * US;
    }
    for (int k = 0; k < 2; k++) {
        if (r != 0) {
            trace_enter(w, t, main_t, send);
            trace_send(w, t + 1, main_t, 0, 7, 5, 100 + (uint64_t)k);
            trace_leave(w, t + 2, main_t, send);
        } else {
            for (int s = 1; s < NRANKS; s++) {
                trace_enter(w, t + (uint64_t)s * 10 * US, main_t, recv);
                trace_recv(w, t + (uint64_t)s * 10 * US + 5, main_t, s, 7, 5, 100 + (uint64_t)k);
                trace_leave(w, t + (uint64_t)s * 10 * US + 6, main_t, recv);
            }
        }
        t += 50 * US;
    }
    /* The second thread: outer { inner } twice, a counter of its own. */
    for (int k = 0; k < 2; k++) {
        uint64_t s = t0 + (uint64_t)k * 300 * US;
        trace_enter(w, s, side_t, outer);
        trace_enter(w, s + 10 * US, side_t, inner);
        trace_counter(w, s + 11 * US, side_t, ins, 77 + k);
        trace_leave(w, s + 20 * US, side_t, inner);
        trace_leave(w, s + 30 * US, side_t, outer);
    }
}

static int bad_input(const char *dir)
{
    char why[256] = "";
    enum trace_format f;
    int fails = 0;
    if (trace_format_parse("xml", &f, why, sizeof why) != -1 || !strstr(why, "xml")) {
        fprintf(stderr, "FAIL: format 'xml' taken (%s)\n", why);
        fails++;
    }
    printf("unknown format: %s\n", why);
    char ro[4096];
    /* A file where the directory should be: unwritable for root too. */
    snprintf(ro, sizeof ro, "%s/not_a_directory", dir);
    FILE *plain = fopen(ro, "w");
    if (plain)
        fclose(plain);
    struct trace_writer *w = trace_open(TRACE_JSON, 0, 1, "h", 0);
    trace_enter(w, 1, 1, trace_define_region(w, "r"));
    struct trace_rank v;
    trace_view(w, &v);
    for (int k = 0; k < 2; k++) {
        enum trace_format fk = k ? TRACE_OTF2 : TRACE_JSON;
        why[0] = 0;
        int ret = trace_write(ro, "t", fk, NULL, &v, 1, why, sizeof why);
        printf("unwritable directory (%s): %s\n", trace_format_name(fk), why);
        if (ret != -1 || !*why || strchr(why, '\n')) {
            fprintf(stderr, "FAIL: %s trace into %s: %d '%s'\n", trace_format_name(fk), ro, ret,
                    why);
            fails++;
        }
    }
    trace_close(w);
    /* A builder whose bound is 3 records drops the rest and counts them. */
    w = trace_open(TRACE_JSON, 0, 1, NULL, 3);
    for (int i = 0; i < 5; i++)
        trace_enter(w, (uint64_t)i, 1, 0);
    trace_view(w, &v);
    if (v.nrec != 3 || v.dropped != 2) {
        fprintf(stderr, "FAIL: bound 3: %zu kept, %llu dropped\n", v.nrec,
                (unsigned long long)v.dropped);
        fails++;
    }
    trace_close(w);
    return fails ? 1 : 0;
}

static int without_otf2(const char *dir)
{
    char why[256] = "";
    int fails = 0;
    struct trace_writer *w = trace_open(TRACE_OTF2, 0, 1, "h", 0);
    rank_records(w, 0);
    struct trace_rank v;
    trace_view(w, &v);
    if (trace_otf2_available(why, sizeof why) || !strstr(why, "built without libotf2"))
        fails++;
    printf("available: %s\n", why);
    why[0] = 0;
    if (trace_write(dir, "job", TRACE_OTF2, NULL, &v, 1, why, sizeof why) != -1 ||
        !strstr(why, "built without libotf2") || strchr(why, '\n'))
        fails++;
    printf("otf2: %s\n", why);
    if (trace_write(dir, "job", TRACE_JSON, NULL, &v, 1, why, sizeof why) != 0) {
        printf("json: %s\n", why);
        fails++;
    }
    trace_close(w);
    if (fails)
        fprintf(stderr, "FAIL: %d checks\n", fails);
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    char why[512] = "";
    enum trace_format f;
    if (argc != 3) {
        fprintf(stderr, "usage: trace_ranks DIR json|otf2|bad\n");
        return 2;
    }
    if (strcmp(argv[2], "bad") == 0)
        return bad_input(argv[1]);
    if (strcmp(argv[2], "nootf2") == 0)
        return without_otf2(argv[1]);
    if (trace_format_parse(argv[2], &f, why, sizeof why) != 0) {
        fprintf(stderr, "%s\n", why);
        return 2;
    }
    if (f == TRACE_OTF2 && !trace_otf2_available(why, sizeof why)) {
        printf("SKIPPED: %s\n", why);
        return 77;
    }
    struct trace_writer *w[NRANKS];
    struct trace_rank v[NRANKS];
    char host[32];
    for (int r = 0; r < NRANKS; r++) {
        snprintf(host, sizeof host, "node%d", r / 2);
        w[r] = trace_open(f, r, 4000 + r, host, 0);
        rank_records(w[r], r);
        trace_view(w[r], &v[r]);
    }
    const struct trace_meta meta = {"trace_ranks", "test-run", "papi-compat test", 0};
    int ret = trace_write(argv[1], "job", f, &meta, v, NRANKS, why, sizeof why);
    /* Written again: the new file replaces the old (an OTF2 archive is a directory). */
    if (ret == 0)
        ret = trace_write(argv[1], "job", f, &meta, v, NRANKS, why, sizeof why);
    for (int r = 0; r < NRANKS && ret == 0 && f == TRACE_JSON; r++) {
        char base[32];
        snprintf(base, sizeof base, "rank%d", r);
        ret = trace_write(argv[1], base, f, &meta, &v[r], 1, why, sizeof why);
    }
    for (int r = 0; r < NRANKS; r++)
        trace_close(w[r]);
    if (ret != 0) {
        fprintf(stderr, "FAIL: %s\n", why);
        return 1;
    }
    return 0;
}
