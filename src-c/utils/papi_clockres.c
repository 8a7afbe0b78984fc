/* papi_clockres: latency and resolution of PAPI's six timers, measured from the step
 * between consecutive calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_clockres [options]\n"
    "Measure the latency (time between two consecutive calls) and resolution (smallest\n"
    "non-zero step) of PAPI_get_real_cyc/usec/nsec and PAPI_get_virt_cyc/usec/nsec.\n\n"
    "Options:\n"
    "  -n N         calls per timer (default 100000)\n"
    "  --json       print the results as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

struct timer {
    const char *name;
    long long (*fn)(void);
    const char *unit;
};

struct stats {
    double min, max, mean, std, resolution;
};

static void measure(const struct timer *t, long n, long long *buf, struct stats *s)
{
    for (long i = 0; i < n; i++)
        buf[i] = t->fn();
    double sum = 0, sq = 0;
    s->min = INFINITY;
    s->max = 0;
    s->resolution = 0;
    for (long i = 1; i < n; i++) {
        double d = (double)(buf[i] - buf[i - 1]);
        if (d < s->min)
            s->min = d;
        if (d > s->max)
            s->max = d;
        if (d > 0 && (s->resolution == 0 || d < s->resolution))
            s->resolution = d;
        sum += d;
        sq += d * d;
    }
    double k = (double)(n - 1);
    s->mean = sum / k;
    double var = sq / k - s->mean * s->mean;
    s->std = var > 0 ? sqrt(var) : 0;
}

int main(int argc, char **argv)
{
    long n = 100000;
    int json = 0;
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    util_options("papi_clockres", usage);
    while ((c = util_getopt(argc, argv, "n:", longopts)) != -1) {
        if (c == UTIL_OPT_JSON)
            json = 1;
        else if (c == 'n' && !util_parse_long(optarg, 2, 100000000, &n))
            util_usage_error("-n needs a number from 2 to 100000000, not '%s'", optarg);
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
    if (!util_init("papi_clockres"))
        return 1;
    static const struct timer timers[] = {
        {"PAPI_get_real_cyc", PAPI_get_real_cyc, "cycles"},
        {"PAPI_get_real_usec", PAPI_get_real_usec, "usec"},
        {"PAPI_get_real_nsec", PAPI_get_real_nsec, "nsec"},
        {"PAPI_get_virt_cyc", PAPI_get_virt_cyc, "cycles"},
        {"PAPI_get_virt_usec", PAPI_get_virt_usec, "usec"},
        {"PAPI_get_virt_nsec", PAPI_get_virt_nsec, "nsec"},
    };
    long long *buf = malloc((size_t)n * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "papi_clockres: out of memory for %ld samples\n", n);
        return 1;
    }
    struct jw w;
    if (json) {
        util_json_begin(&w);
        jw_int(&w, "calls_per_timer", n);
        jw_arr_begin(&w, "timers");
    } else {
        printf("Printing Clock latency and resolution.\n");
        printf("-----------------------------------------------\n");
    }
    for (size_t t = 0; t < sizeof timers / sizeof timers[0]; t++) {
        struct stats s;
        measure(&timers[t], n, buf, &s);
        if (json) {
            jw_obj_begin(&w, NULL);
            jw_str(&w, "timer", timers[t].name);
            jw_str(&w, "unit", timers[t].unit);
            jw_double(&w, "min", s.min);
            jw_double(&w, "max", s.max);
            jw_double(&w, "mean", s.mean);
            jw_double(&w, "std", s.std);
            jw_double(&w, "resolution", s.resolution);
            jw_obj_end(&w);
        } else {
            printf("%s: min %.3f  max %.3f \n                   average %.3f std %.3f\n",
                   timers[t].name, s.min, s.max, s.mean, s.std);
            printf("%-19s: resolution %.3f %s (smallest non-zero step)\n", timers[t].name,
                   s.resolution, timers[t].unit);
        }
    }
    free(buf);
    if (json) {
        jw_arr_end(&w);
        jw_obj_end(&w);
        jw_finish(&w);
    }
    return 0;
}
