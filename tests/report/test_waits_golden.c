/* test_waits_golden DIR: the wrapper's own wait rules (mpi-wrappers/waits/wait_rules.c)
 * on the golden cases of DIR (tests/report/waits_golden): every rank's event log of one
 * run of each mode of tests/mpi/mpi_waits.c, read here in one process, must give the
 * waits that the wrapper reported for that run at MPI_Finalize (DIR/expected.json), every
 * rank's every wait kind within TOL, and the same matched receives and collectives.
 * check_waits_golden.py holds papi_report's recomputation to the same file. What the
 * ranks exchange at MPI_Finalize (wait_states.c) is done here in memory, in the same
 * order. No MPI needed. Exit 0 pass, 1 fail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_json.h"
#include "wait_rules.h"

#define MAX_RANKS 64
#define TOL       0.0005 /* s: the wrapper interpolates the offsets to MPI_Finalize's */
#define ANY_TAG   (-1)   /* MPICH's and Open MPI's MPI_ANY_TAG */

static int failures;

static void check(int ok, const char *mode, const char *what)
{
    if (!ok) {
        printf("FAIL %s: %s\n", mode, what);
        failures++;
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *s = malloc(cap + 1);
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) {
            char *t = realloc(s, (cap *= 2) + 1);
            if (!t)
                free(s);
            s = t;
        }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

/* A record's call id: the call's, or a region's index among this rank's names. */
static int call_id(const char *name, int kind, char regions[][64], int *nregions)
{
    if (kind == PMPI_EV_REGION_ENTER || kind == PMPI_EV_REGION_EXIT) {
        for (int i = 0; i < *nregions; i++)
            if (strcmp(regions[i], name) == 0)
                return i;
        if (*nregions >= PMPI_MAX_REGIONS)
            return PMPI_MAX_REGIONS;
        snprintf(regions[*nregions], 64, "%s", name);
        return (*nregions)++;
    }
    for (int i = 0; i < PMPI_NCALLS; i++)
        if (strcmp(pmpi_calls[i].name, name) == 0)
            return i;
    return 0;
}

static struct pmpi_event to_event(const struct jval *a, char regions[][64], int *nregions)
{
    struct pmpi_event e = {0};
    const struct jval *it = a->items;
    e.kind = (uint8_t)it[0].inum;
    e.call = (uint16_t)call_id(it[1].t == J_STR ? it[1].str : "", e.kind, regions, nregions);
    e.t0 = it[2].inum, e.t1 = it[3].inum;
    e.peer = (int32_t)it[4].inum, e.tag = (int32_t)it[5].inum;
    e.bytes = it[6].inum, e.req = (uint64_t)it[7].inum, e.flags = (uint8_t)it[8].inum;
    e.site = (uint64_t)it[9].inum, e.pad = (uint32_t)it[10].inum;
    e.thread = a->n > 11 ? (uint32_t)it[11].inum : 0;
    return e;
}

/* One line of a rank's log: its records at their indices (have[] marks them). */
static int add_line(const struct jval *doc, struct pmpi_event **ev, char **have, long long *cap,
                    double *offset, char regions[][64], int *nregions)
{
    const struct jval *first = json_get(doc, "first"), *recs = json_get(doc, "records"),
                      *off = json_get(doc, "offset_ns");
    if (!first || !recs || recs->t != J_ARR || !off)
        return -1;
    *offset = off->num;
    for (size_t k = 0; k < recs->n; k++) {
        long long i = first->inum + (long long)k;
        if (recs->items[k].t != J_ARR || recs->items[k].n < 11 || i < 0)
            return -1;
        while (i >= *cap) {
            long long nc = *cap ? 2 * *cap : 1024;
            struct pmpi_event *e = realloc(*ev, (size_t)nc * sizeof *e);
            char *h = e ? realloc(*have, (size_t)nc) : NULL;
            if (!e || !h)
                return -1;
            memset(h + *cap, 0, (size_t)(nc - *cap));
            *ev = e, *have = h, *cap = nc;
        }
        (*ev)[i] = to_event(&recs->items[k], regions, nregions);
        (*have)[i] = 1;
    }
    return 0;
}

/* Rank r's log of DIR/MODE: its records up to the first gap, on rank 0's clock through
 * the offset the file gives. 0, 1 when there is no such rank, -1 on a bad file. */
static int load_rank(const char *dir, const char *mode, int r, struct pmpi_wait_log *w)
{
    char path[4096], err[200], regions[PMPI_MAX_REGIONS][64];
    int nregions = 0;
    snprintf(path, sizeof path, "%s/%s/papi_mpi_rank%d.events.jsonl", dir, mode, r);
    char *text = read_text(path), *line = text, *next;
    struct pmpi_event *ev = NULL;
    char *have = NULL;
    long long cap = 0;
    double offset = 0;
    if (!text)
        return 1;
    for (; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        struct jval *doc = *line ? json_parse(line, err, sizeof err) : NULL;
        if (*line && (!doc || add_line(doc, &ev, &have, &cap, &offset, regions, &nregions))) {
            printf("FAIL %s: %s\n", path, doc ? "not an event log line" : err);
            json_free(doc);
            free(text), free(ev), free(have);
            return -1;
        }
        json_free(doc);
    }
    free(text);
    w->n = 0;
    while (w->n < cap && have[w->n])
        w->n++;
    free(have);
    w->ev = ev;
    w->clock = (struct pmpi_wait_clock){0, 0, 1.0, offset, offset, 0};
    return pmpi_wait_log_cells(w);
}

/* Point-to-point as wait_states.c's p2p() exchanges it: each sender's sends to each
 * receiver in its log order, every receiver's answers back to each sender in turn. */
static int p2p(struct pmpi_wait_log *w, int P, struct pmpi_wait_result *res)
{
    int cnt[MAX_RANKS][MAX_RANKS] = {{0}}, dis[MAX_RANKS][MAX_RANKS], fill[MAX_RANKS] = {0};
    struct pmpi_send_info *out[MAX_RANKS] = {0};
    struct pmpi_recv_answer *ans[MAX_RANKS] = {0};
    int acnt[MAX_RANKS][MAX_RANKS] = {{0}}, adis[MAX_RANKS][MAX_RANKS];
    long long nrecv[MAX_RANKS];
    int rc = 0;
    for (int s = 0; s < P; s++) {
        long long n = pmpi_wait_sends_count(&w[s], P, cnt[s], &nrecv[s]);
        out[s] = malloc((size_t)(n ? n : 1) * sizeof *out[s]);
        memset(fill, 0, sizeof fill);
        for (int r = 0; r < P; r++)
            dis[s][r] = r ? dis[s][r - 1] + cnt[s][r - 1] : 0;
        if (out[s])
            pmpi_wait_sends_fill(&w[s], P, dis[s], fill, out[s]);
    }
    for (int r = 0; r < P && rc == 0; r++) { /* receiver r gets each sender's sends here */
        int rcnt[MAX_RANKS], rdis[MAX_RANKS];
        long long ntot = 0;
        for (int s = 0; s < P; s++)
            rdis[s] = (int)ntot, rcnt[s] = cnt[s][r], ntot += cnt[s][r];
        struct pmpi_send_info *in = malloc((size_t)(ntot ? ntot : 1) * sizeof *in);
        int64_t *sk = malloc((size_t)(ntot ? ntot : 1) * 5 * sizeof *sk);
        int64_t *rk = malloc((size_t)(nrecv[r] ? nrecv[r] : 1) * 5 * sizeof *rk);
        ans[r] = malloc((size_t)(ntot ? ntot : 1) * sizeof *ans[r]);
        rc = in && sk && rk && ans[r] ? 0 : -1;
        for (int s = 0; rc == 0 && s < P; s++)
            if (rcnt[s] && out[s])
                memcpy(in + rdis[s], out[s] + dis[s][r], (size_t)rcnt[s] * sizeof *in);
        if (rc == 0)
            pmpi_wait_receives_match(&w[r], P, in, rcnt, rdis, sk, rk, ans[r], acnt[r], &res[r]);
        for (int s = 0; s < P; s++)
            adis[r][s] = s ? adis[r][s - 1] + acnt[r][s - 1] : 0;
        free(in), free(sk), free(rk);
    }
    for (int s = 0; s < P && rc == 0; s++) /* sender s: the answers of each receiver in turn */
        for (int r = 0; r < P; r++)
            pmpi_wait_sends_answered(&w[s], ans[r] + adis[r][s], acnt[r][s]);
    for (int s = 0; s < P; s++)
        free(out[s]), free(ans[s]);
    return rc;
}

/* World-congruent collectives: the arrivals' maxima over the ranks (an Allreduce). */
static int collectives(struct pmpi_wait_log *w, int P, struct pmpi_wait_result *res)
{
    int nseq = 0;
    for (int r = 0; r < P; r++) {
        int n = pmpi_wait_coll_count(&w[r]);
        nseq = n > nseq ? n : nseq;
    }
    if (nseq == 0)
        return 0;
    double *in = malloc((size_t)nseq * 3 * sizeof *in),
           *last = malloc((size_t)nseq * 3 * sizeof *last);
    for (int k = 0; in && last && k < 3 * nseq; k++)
        last[k] = -INFINITY;
    for (int r = 0; in && last && r < P; r++) {
        pmpi_wait_coll_arrivals(&w[r], 0, nseq, in);
        for (int k = 0; k < 3 * nseq; k++)
            last[k] = in[k] > last[k] ? in[k] : last[k];
    }
    for (int r = 0; in && last && r < P; r++)
        pmpi_wait_coll_waits(&w[r], 0, nseq, last, NULL, &res[r]);
    int rc = in && last ? 0 : -1;
    free(in), free(last);
    return rc;
}

/* Collectives on other communicators: each rank's items to rank key % P, answered there
 * in the order they came, the answers back in the order they were sent. */
static int grouped(struct pmpi_wait_log *w, int P, struct pmpi_wait_result *res)
{
    int cnt[MAX_RANKS][MAX_RANKS] = {{0}}, dis[MAX_RANKS][MAX_RANKS], fill[MAX_RANKS];
    struct pmpi_grp_item *out[MAX_RANKS] = {0};
    struct pmpi_grp_answer *back[MAX_RANKS] = {0};
    long long n[MAX_RANKS], idle[MAX_RANKS];
    int rc = 0;
    for (int s = 0; s < P; s++) {
        n[s] = pmpi_wait_group_count(&w[s], P, cnt[s], &idle[s]);
        out[s] = malloc((size_t)(n[s] ? n[s] : 1) * sizeof *out[s]);
        back[s] = malloc((size_t)(n[s] ? n[s] : 1) * sizeof *back[s]);
        rc |= out[s] && back[s] ? 0 : -1;
        memset(fill, 0, sizeof fill);
        for (int d = 0; d < P; d++)
            dis[s][d] = d ? dis[s][d - 1] + cnt[s][d - 1] : 0;
        if (out[s])
            pmpi_wait_group_fill(&w[s], P, dis[s], fill, out[s]);
    }
    for (int d = 0; d < P && rc == 0; d++) { /* rank d answers the items sent to it */
        long long nin = 0, at = 0;
        for (int s = 0; s < P; s++)
            nin += cnt[s][d];
        struct pmpi_grp_item *in = malloc((size_t)(nin ? nin : 1) * sizeof *in);
        struct pmpi_grp_item **order = malloc((size_t)(nin ? nin : 1) * sizeof *order);
        struct pmpi_grp_answer *ans = malloc((size_t)(nin ? nin : 1) * sizeof *ans);
        rc = in && order && ans ? 0 : -1;
        for (int s = 0; rc == 0 && s < P; at += cnt[s][d], s++)
            memcpy(in + at, out[s] + dis[s][d], (size_t)cnt[s][d] * sizeof *in);
        if (rc == 0)
            pmpi_wait_group_answer(in, nin, order, ans);
        at = 0;
        for (int s = 0; rc == 0 && s < P; at += cnt[s][d], s++)
            memcpy(back[s] + dis[s][d], ans + at, (size_t)cnt[s][d] * sizeof *ans);
        free(in), free(order), free(ans);
    }
    for (int s = 0; s < P && rc == 0; s++) {
        res[s].coll_matched += idle[s];
        pmpi_wait_group_waits(&w[s], back[s], n[s], &res[s]);
    }
    for (int s = 0; s < P; s++)
        free(out[s]), free(back[s]);
    return rc;
}

/* One mode: its ranks' logs through the rules, against the wrapper's answers. */
static void run_mode(const char *dir, const char *mode, const struct jval *want, double *seen)
{
    struct pmpi_wait_log w[MAX_RANKS] = {0};
    struct pmpi_wait_result res[MAX_RANKS] = {0};
    char what[300];
    int P = 0, rc = 0;
    while (P < MAX_RANKS && (rc = load_rank(dir, mode, P, &w[P])) == 0)
        P++;
    check(rc >= 0 && P > 1, mode, "the ranks' event logs read");
    for (int r = 0; r < P; r++)
        pmpi_wait_link(&w[r], ANY_TAG);
    if (rc >= 0 && P > 1)
        check(p2p(w, P, res) == 0 && collectives(w, P, res) == 0 && grouped(w, P, res) == 0, mode,
              "memory for the exchanges");
    long long p2p_matched = 0, coll_matched = 0;
    double worst = 0;
    const struct jval *ranks = json_get(want, "ranks");
    check(ranks && ranks->n == (size_t)P, mode, "as many ranks as expected.json has");
    for (int r = 0; r < P; r++) {
        pmpi_wait_attribute(&w[r], &res[r]);
        p2p_matched += res[r].p2p_matched, coll_matched += res[r].coll_matched;
        char key[16];
        snprintf(key, sizeof key, "%d", r);
        for (int k = 0; k < PMPI_WAIT_KINDS; k++) {
            const struct jval *v = json_get(json_get(ranks, key), pmpi_wait_names[k]);
            double c = res[r].rank_ns[k] * 1e-9;
            snprintf(what, sizeof what, "rank %d %s: wrapper %.6f, these rules %.6f", r,
                     pmpi_wait_names[k], v ? v->num : NAN, c);
            check(v && fabs(v->num - c) <= TOL, mode, what);
            worst = v && fabs(v->num - c) > worst ? fabs(v->num - c) : worst;
            seen[k] = v && v->num > seen[k] ? v->num : seen[k];
        }
        pmpi_waits_free(&res[r]);
        pmpi_wait_log_free(&w[r]);
        free(w[r].ev);
    }
    const struct jval *pm = json_get(want, "p2p_matched"),
                      *cm = json_get(want, "collectives_matched");
    snprintf(what, sizeof what, "matched receives %lld, collectives %lld; the wrapper's %lld, %lld",
             p2p_matched, coll_matched, pm ? pm->inum : -1, cm ? cm->inum : -1);
    check(pm && cm && pm->inum == p2p_matched && cm->inum == coll_matched, mode, what);
    printf("%s: %d ranks, largest difference %.1f us\n", mode, P, worst * 1e6);
}

int main(int argc, char **argv)
{
    char path[4096], err[200];
    if (argc != 2) {
        fprintf(stderr, "usage: test_waits_golden DIR\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/expected.json", argv[1]);
    char *text = read_text(path);
    struct jval *expected = text ? json_parse(text, err, sizeof err) : NULL;
    if (!text)
        snprintf(err, sizeof err, "cannot read it");
    free(text);
    if (!expected || expected->t != J_OBJ) {
        printf("FAIL %s: %s\n", path, expected ? "not an object" : err);
        json_free(expected);
        return 1;
    }
    double seen[PMPI_WAIT_KINDS] = {0};
    int modes = 0;
    for (size_t i = 0; i < expected->n; i++)
        if (expected->keys[i][0] != '_') {
            run_mode(argv[1], expected->keys[i], &expected->items[i], seen);
            modes++;
        }
    check(modes >= 8, "expected.json", "the golden modes present");
    for (int k = 0; k < PMPI_WAIT_KINDS; k++)
        check(seen[k] >= 0.05, pmpi_wait_names[k], "met by some case (0.05 s at least)");
    json_free(expected);
    printf("test_waits_golden: %s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
