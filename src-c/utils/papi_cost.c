/* papi_cost: what PAPI's calls cost, in cycles of PAPI_get_real_cyc: start/stop, read,
 * read_ts, accum, reset. Counts PAPI_TOT_CYC and PAPI_TOT_INS by default and falls back
 * to software events when this machine has no hardware counters. */
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"
#include "util_cost.h"

static const char usage[] =
    "Usage: papi_cost [options]\n"
    "Measure the cost of PAPI_start/stop, PAPI_read, PAPI_read_ts, PAPI_accum and\n"
    "PAPI_reset in cycles (PAPI_get_real_cyc), on an event set of two events.\n\n"
    "Options:\n"
    "  -b BINS      number of histogram bins for -d (default 100)\n"
    "  -d           print the distribution of each measurement as a histogram\n"
    "  -e EVENT     count EVENT (repeat for several; default PAPI_TOT_CYC and PAPI_TOT_INS,\n"
    "               or perf::TASK-CLOCK and perf::PAGE-FAULTS when those cannot be counted)\n"
    "  -p           also print the 25th, 50th and 75th percentiles (for box plots)\n"
    "  -s           also print the standard deviation\n"
    "  -t N         iterations per measurement (default 100000)\n"
    "  --json       print the results as one JSON document (all statistics)\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 on success, 1 when the events cannot be counted, 2 on bad usage.\n";

#define MAX_EVENTS 16

struct opts {
    int bins, dist, stddev, json, percentiles;
    long iters;
    int nev;
    const char *ev[MAX_EVENTS];
};

static void parse(int argc, char **argv, struct opts *o)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    long v;
    memset(o, 0, sizeof *o);
    o->bins = 100;
    o->iters = 100000;
    util_options("papi_cost", usage);
    while ((c = util_getopt(argc, argv, "b:de:pst:", longopts)) != -1) {
        if (c == 'd')
            o->dist = 1;
        else if (c == 's')
            o->stddev = 1;
        else if (c == 'p')
            o->percentiles = 1;
        else if (c == UTIL_OPT_JSON)
            o->json = 1;
        else if (c == 'b' && util_parse_long(optarg, 1, 10000, &v))
            o->bins = (int)v;
        else if (c == 'b')
            util_usage_error("-b needs a number of bins from 1 to 10000, not '%s'", optarg);
        else if (c == 't' && util_parse_long(optarg, 2, 100000000, &v))
            o->iters = v;
        else if (c == 't')
            util_usage_error("-t needs a number from 2 to 100000000, not '%s'", optarg);
        else if (c == 'e' && o->nev == MAX_EVENTS)
            util_usage_error("at most %d events with -e", MAX_EVENTS);
        else if (c == 'e')
            o->ev[o->nev++] = optarg;
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
}

/* Build the event set; with no -e, the first of the default pairs that adds. */
static int make_eventset(struct opts *o, int *es, char *note, size_t notelen)
{
    static const char *pairs[][2] = {{"PAPI_TOT_CYC", "PAPI_TOT_INS"},
                                     {"perf::TASK-CLOCK", "perf::PAGE-FAULTS"}};
    char why[PAPI_HUGE_STR_LEN];
    note[0] = '\0';
    if (PAPI_create_eventset(es) != PAPI_OK)
        return 0;
    if (o->nev) {
        for (int i = 0; i < o->nev; i++) {
            int r = PAPI_add_named_event(*es, o->ev[i]);
            if (r != PAPI_OK) {
                util_error_detail(r, why, sizeof why);
                fprintf(stderr, "papi_cost: cannot add %s: %s\n", o->ev[i], why);
                return 0;
            }
        }
        return 1;
    }
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        int r = PAPI_add_named_event(*es, pairs[p][0]);
        if (r == PAPI_OK)
            r = PAPI_add_named_event(*es, pairs[p][1]);
        if (r == PAPI_OK) {
            o->ev[0] = pairs[p][0];
            o->ev[1] = pairs[p][1];
            o->nev = 2;
            return 1;
        }
        util_error_detail(r, why, sizeof why);
        if (p == 0)
            snprintf(note, notelen,
                     "%s and %s cannot be counted here (%.600s); measuring with "
                     "software events instead.",
                     pairs[0][0], pairs[0][1], why);
        PAPI_cleanup_eventset(*es);
    }
    fprintf(stderr, "papi_cost: no default event can be counted: %s\n", why);
    return 0;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The 25th, 50th and 75th percentiles of d (sorted in place: the last use of d). */
static void percentiles(long long *d, long n, long long out[3])
{
    qsort(d, (size_t)n, sizeof *d, cmp_ll);
    for (int q = 0; q < 3; q++)
        out[q] = d[(long)((double)(n - 1) * (q + 1) / 4.0 + 0.5)];
}

/* Bins from the minimum up to twice the mean: the tail beyond goes into the last bin. */
static void histogram(const long long *d, long n, const struct util_stats *s, int bins)
{
    long *h = calloc((size_t)bins, sizeof *h);
    if (!h)
        return;
    double hi = 2 * s->mean - (double)s->min;
    double width = (hi - (double)s->min) / bins;
    if (width < 1)
        width = 1;
    for (long i = 0; i < n; i++) {
        long b = (long)(((double)d[i] - (double)s->min) / width);
        h[b < 0 ? 0 : b >= bins ? bins - 1 : b]++;
    }
    for (int b = 0; b < bins; b++)
        if (h[b])
            printf("  %8.0f%s: %ld\n", (double)s->min + b * width, b == bins - 1 ? "+" : " ", h[b]);
    free(h);
}

static const char *test_names[UTIL_CALL_COUNT] = {"loop latency", "PAPI_start/stop", "PAPI_read",
                                                  "PAPI_read_ts", "PAPI_accum",      "PAPI_reset"};

/* The header: the events and the note, as JSON (opening the measurements) or text. */
static void print_head(const struct opts *o, const char *note, struct jw *w)
{
    if (o->json) {
        util_json_begin(w);
        jw_arr_begin(w, "events");
        for (int i = 0; i < o->nev; i++)
            jw_str(w, NULL, o->ev[i]);
        jw_arr_end(w);
        if (note[0])
            jw_str(w, "note", note);
        jw_int(w, "iterations", o->iters);
        jw_arr_begin(w, "measurements");
        return;
    }
    printf("Cost of execution for PAPI start/stop, read and accum.\n");
    if (note[0])
        util_print_wrapped(stdout, "", note, 80);
    printf("Events:");
    for (int i = 0; i < o->nev; i++)
        printf(" %s", o->ev[i]);
    printf("\n");
}

/* One call's figures from its d[] samples, as a JSON object or text. */
static void print_test(const struct opts *o, int t, long long *d, struct jw *w)
{
    struct util_stats s;
    long long pc[3] = {0, 0, 0}; /* read only where o->percentiles filled it */
    util_stats_compute(d, o->iters, &s);
    if (o->percentiles)
        percentiles(d, o->iters, pc);
    if (o->json) {
        jw_obj_begin(w, NULL);
        jw_str(w, "test", test_names[t]);
        jw_int(w, "min_cycles", s.min);
        jw_int(w, "max_cycles", s.max);
        jw_double(w, "mean_cycles", s.mean);
        jw_double(w, "std_cycles", s.std);
        if (o->percentiles) {
            jw_int(w, "p25_cycles", pc[0]);
            jw_int(w, "p50_cycles", pc[1]);
            jw_int(w, "p75_cycles", pc[2]);
        }
        jw_obj_end(w);
        return;
    }
    printf("\nTotal cost for %s (%d counters) over %ld iterations\n", test_names[t], o->nev,
           o->iters);
    printf("min cycles   : %lld\nmax cycles   : %lld\nmean cycles  : %f\n", s.min, s.max, s.mean);
    if (o->stddev)
        printf("std deviation: %f\n", s.std);
    if (o->dist) {
        printf("distribution (cycles: calls):\n");
        histogram(d, o->iters, &s, o->bins);
    }
    if (o->percentiles)
        printf("25%% cycles   : %lld\n50%% cycles   : %lld\n75%% cycles   : %lld\n", pc[0], pc[1],
               pc[2]);
}

int main(int argc, char **argv)
{
    struct opts o;
    parse(argc, argv, &o);
    if (!util_init("papi_cost"))
        return 1;
    int es = PAPI_NULL;
    char note[PAPI_HUGE_STR_LEN];
    if (!make_eventset(&o, &es, note, sizeof note))
        return 1;
    long long *d = malloc((size_t)o.iters * sizeof *d);
    long long values[MAX_EVENTS] = {0};
    if (!d) {
        fprintf(stderr, "papi_cost: out of memory for %ld samples\n", o.iters);
        return 1;
    }
    struct jw w;
    print_head(&o, note, &w);
    int rc = 0;
    for (int t = 0; t < UTIL_CALL_COUNT; t++) {
        if (!util_time_calls((enum util_call)t, es, o.iters, d, values)) {
            fprintf(stderr, "papi_cost: %s: PAPI_start failed\n", test_names[t]);
            rc = 1;
            break;
        }
        print_test(&o, t, d, &w);
    }
    free(d);
    if (o.json) {
        jw_arr_end(&w);
        jw_obj_end(&w);
        jw_finish(&w);
    }
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return rc;
}
