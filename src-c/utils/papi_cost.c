/* papi_cost: what PAPI's calls cost, in cycles of PAPI_get_real_cyc: start/stop, read,
 * read_ts, accum, reset. Counts PAPI_TOT_CYC and PAPI_TOT_INS by default and falls back
 * to software events when this machine has no hardware counters. */
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
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
    "  -s           also print the standard deviation\n"
    "  -t N         iterations per measurement (default 100000)\n"
    "  --json       print the results as one JSON document (all statistics)\n"
    "  -h, --help   print this help\n\n"
    "Exit status: 0 on success, 1 when the events cannot be counted, 2 on bad usage.\n";

#define MAX_EVENTS 16

struct opts {
    int bins, dist, stddev, json;
    long iters;
    int nev;
    const char *ev[MAX_EVENTS];
};

static int parse(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->bins = 100;
    o->iters = 100000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (util_is_help(a)) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "-d"))
            o->dist = 1;
        else if (!strcmp(a, "-s"))
            o->stddev = 1;
        else if (!strcmp(a, "--json"))
            o->json = 1;
        else if (!strcmp(a, "-b") && i + 1 < argc && util_parse_long(argv[i + 1], 1, 10000, &v)) {
            o->bins = (int)v;
            i++;
        } else if (!strcmp(a, "-t") && i + 1 < argc && util_parse_long(argv[i + 1], 2, 100000000, &v)) {
            o->iters = v;
            i++;
        } else if (!strcmp(a, "-e") && i + 1 < argc && o->nev < MAX_EVENTS)
            o->ev[o->nev++] = argv[++i];
        else {
            fprintf(stderr, "papi_cost: unknown, incomplete or out-of-range option '%s'\n\n%s", a,
                    usage);
            return 0;
        }
    }
    return 1;
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
            snprintf(note, notelen, "%s and %s cannot be counted here (%.600s); measuring with "
                     "software events instead.", pairs[0][0], pairs[0][1], why);
        PAPI_cleanup_eventset(*es);
    }
    fprintf(stderr, "papi_cost: no default event can be counted: %s\n", why);
    return 0;
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
            printf("  %8.0f%s: %ld\n", (double)s->min + b * width, b == bins - 1 ? "+" : " ",
                   h[b]);
    free(h);
}

static const char *test_names[UTIL_CALL_COUNT] = {"loop latency", "PAPI_start/stop", "PAPI_read",
                                          "PAPI_read_ts", "PAPI_accum", "PAPI_reset"};

int main(int argc, char **argv)
{
    struct opts o;
    if (!parse(argc, argv, &o))
        return 2;
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
    if (o.json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "events");
        for (int i = 0; i < o.nev; i++)
            jw_str(&w, NULL, o.ev[i]);
        jw_arr_end(&w);
        if (note[0])
            jw_str(&w, "note", note);
        jw_int(&w, "iterations", o.iters);
        jw_arr_begin(&w, "measurements");
    } else {
        printf("Cost of execution for PAPI start/stop, read and accum.\n");
        if (note[0])
            util_print_wrapped(stdout, "", note, 80);
        printf("Events:");
        for (int i = 0; i < o.nev; i++)
            printf(" %s", o.ev[i]);
        printf("\n");
    }
    int rc = 0;
    for (int t = 0; t < UTIL_CALL_COUNT; t++) {
        if (!util_time_calls((enum util_call)t, es, o.iters, d, values)) {
            fprintf(stderr, "papi_cost: %s: PAPI_start failed\n", test_names[t]);
            rc = 1;
            break;
        }
        struct util_stats s;
        util_stats_compute(d, o.iters, &s);
        if (o.json) {
            jw_obj_begin(&w, NULL);
            jw_str(&w, "test", test_names[t]);
            jw_int(&w, "min_cycles", s.min);
            jw_int(&w, "max_cycles", s.max);
            jw_double(&w, "mean_cycles", s.mean);
            jw_double(&w, "std_cycles", s.std);
            jw_obj_end(&w);
            continue;
        }
        printf("\nTotal cost for %s (%d counters) over %ld iterations\n", test_names[t], o.nev,
               o.iters);
        printf("min cycles   : %lld\nmax cycles   : %lld\nmean cycles  : %f\n", s.min, s.max,
               s.mean);
        if (o.stddev)
            printf("std deviation: %f\n", s.std);
        if (o.dist) {
            printf("distribution (cycles: calls):\n");
            histogram(d, o.iters, &s, o.bins);
        }
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
