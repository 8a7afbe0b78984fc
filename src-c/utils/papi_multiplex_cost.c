/* papi_multiplex_cost: what start/stop, read, read_ts, accum and reset cost in cycles on
 * an event set of 1..N events, multiplexed by the kernel (as this library multiplexes)
 * and not multiplexed. Writes PAPI's .dat files (papi_startstop.dat, papi_read.dat, ...)
 * with PAPI's first five columns, the cost without multiplexing in four more columns. */
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"
#include "util_cost.h"

static const char usage[] =
    "Usage: papi_multiplex_cost [options]\n"
    "Measure the cost in cycles of PAPI_start/stop, PAPI_read, PAPI_read_ts, PAPI_accum\n"
    "and PAPI_reset for event sets of MIN to MAX events, multiplexed by the kernel and not\n"
    "multiplexed. The results go to papi_startstop.dat, papi_read.dat, papi_read_ts.dat,\n"
    "papi_accum.dat and papi_reset.dat in the current directory (columns: number of\n"
    "events; min, max, mean cycles and std deviation multiplexed; the same not\n"
    "multiplexed) and a summary to stdout.\n\n"
    "Options:\n"
    "  -m N         smallest number of events (default 1)\n"
    "  -x N         largest number of events (default: all events found, at most 8)\n"
    "  -s           accepted for PAPI's scripts: there is no software multiplexing to skip\n"
    "  -k           leave out the kernel-multiplexed measurement\n"
    "  -t N         iterations per measurement (default 100000)\n"
    "  --json       print the results as one JSON document (no .dat files)\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 on success, 1 when the events cannot be counted, 2 on bad usage.\n";

#define MAX_EVENTS 32

enum test { T_STARTSTOP, T_READ, T_READ_TS, T_ACCUM, T_RESET, T_COUNT };
static const char *const test_title[T_COUNT] = {
    "PAPI start/stop", "Multiplexed PAPI_read()", "Multiplexed PAPI_read_ts()",
    "Multiplexed PAPI_accum()", "Multiplexed PAPI_reset()"};
static const char *const test_key[T_COUNT] = {"start_stop", "read", "read_ts", "accum", "reset"};
static const enum util_call call_of[T_COUNT] = {UTIL_CALL_START_STOP, UTIL_CALL_READ,
                                                UTIL_CALL_READ_TS, UTIL_CALL_ACCUM, UTIL_CALL_RESET};
static const char *const test_file[T_COUNT] = {"papi_startstop.dat", "papi_read.dat",
                                               "papi_read_ts.dat", "papi_accum.dat",
                                               "papi_reset.dat"};

struct opts {
    long min, max, iters;
    int no_kernel, json;
};

/* The events measured, and whether any of them is a hardware event. */
struct events {
    int code[MAX_EVENTS];
    char name[MAX_EVENTS][PAPI_HUGE_STR_LEN];
    int n, software_only;
};

static void parse(int argc, char **argv, struct opts *o)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->min = 1;
    o->max = 0;
    o->iters = 100000;
    util_options("papi_multiplex_cost", usage);
    while ((c = util_getopt(argc, argv, "skm:x:t:", longopts)) != -1) {
        if (c == 'k')
            o->no_kernel = 1;
        else if (c == UTIL_OPT_JSON)
            o->json = 1;
        else if ((c == 'm' && !util_parse_long(optarg, 1, MAX_EVENTS, &o->min)) ||
                 (c == 'x' && !util_parse_long(optarg, 1, MAX_EVENTS, &o->max)))
            util_usage_error("-%c needs a number of events from 1 to %d, not '%s'", c,
                             MAX_EVENTS, optarg);
        else if (c == 't' && !util_parse_long(optarg, 2, 100000000, &o->iters))
            util_usage_error("-t needs a number from 2 to 100000000, not '%s'", optarg);
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
    if (o->max && o->min > o->max)
        util_usage_error("Error! Min # of Events > Max # of Events");
}

/* One event alone in a multiplexed set: the test PAPI_add_event applies to each. */
static int addable_multiplexed(int code)
{
    int es = PAPI_NULL, ok = 0;
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return 0;
    ok = PAPI_assign_eventset_component(es, 0) == PAPI_OK && PAPI_set_multiplex(es) == PAPI_OK &&
         PAPI_add_event(es, code) == PAPI_OK;
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return ok;
}

static void consider(struct events *ev, int code, int want)
{
    if (ev->n >= want || !addable_multiplexed(code))
        return;
    PAPI_event_info_t info;
    if (PAPI_get_event_info(code, &info) != PAPI_OK)
        return;
    snprintf(ev->name[ev->n], sizeof ev->name[0], "%s", info.symbol);
    ev->code[ev->n++] = code;
    if (strncmp(info.symbol, "perf::", 6) != 0)
        ev->software_only = 0;
}

/* Available presets first (as PAPI's tool), then the CPU component's native events. */
static void find_events(struct events *ev, int want)
{
    memset(ev, 0, sizeof *ev);
    ev->software_only = 1;
    int code = PAPI_PRESET_MASK;
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
        do {
            PAPI_event_info_t info;
            if (PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0)
                consider(ev, code, want);
        } while (ev->n < want && PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
    code = PAPI_NATIVE_MASK;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0) == PAPI_OK)
        do
            consider(ev, code, want);
        while (ev->n < want && PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, 0) == PAPI_OK);
}

static int build(const struct events *ev, int n, int multiplexed, int *es)
{
    *es = PAPI_NULL;
    if (PAPI_create_eventset(es) != PAPI_OK)
        return 0;
    if (multiplexed &&
        (PAPI_assign_eventset_component(*es, 0) != PAPI_OK || PAPI_set_multiplex(*es) != PAPI_OK))
        return 0;
    for (int i = 0; i < n; i++)
        if (PAPI_add_event(*es, ev->code[i]) != PAPI_OK)
            return 0;
    return 1;
}

/* results[mode][test][n - min]; mode 0 multiplexed, 1 not. */
struct results {
    struct util_stats *s[2][T_COUNT];
    long nrows;
};

static int run_all(const struct opts *o, const struct events *ev, struct results *r, long long *d)
{
    for (long n = o->min; n <= o->max; n++)
        for (int mode = o->no_kernel; mode < 2; mode++) {
            int es;
            if (!build(ev, (int)n, mode == 0, &es)) {
                char why[PAPI_HUGE_STR_LEN];
                util_error_detail(PAPI_ECNFLCT, why, sizeof why);
                fprintf(stderr, "papi_multiplex_cost: cannot build a%s set of %ld events: %s\n",
                        mode == 0 ? " multiplexed" : "n unmultiplexed", n, why);
                return 0;
            }
            for (int t = 0; t < T_COUNT; t++) {
                long long values[MAX_EVENTS];
                if (!util_time_calls(call_of[t], es, o->iters, d, values))
                    return 0;
                util_stats_compute(d, o->iters, &r->s[mode][t][n - o->min]);
            }
            PAPI_cleanup_eventset(es);
            PAPI_destroy_eventset(&es);
        }
    return 1;
}

static void stats_json(struct jw *w, const char *key, const struct util_stats *s)
{
    jw_obj_begin(w, key);
    jw_int(w, "min_cycles", s->min);
    jw_int(w, "max_cycles", s->max);
    jw_double(w, "mean_cycles", s->mean);
    jw_double(w, "std_cycles", s->std);
    jw_obj_end(w);
}

static void write_dat(const struct opts *o, const struct results *r, int t)
{
    FILE *f = fopen(test_file[t], "w");
    if (!f) {
        printf("Unable to open output file, %s, output will not be saved.\n", test_file[t]);
        return;
    }
    fprintf(f, "#number of events");
    if (!o->no_kernel)
        fprintf(f, "\tmin cycles\tmax cycles\tmean cycles\tstd deviation");
    fprintf(f, "\tno-mpx min cycles\tno-mpx max cycles\tno-mpx mean cycles\tno-mpx std deviation\n");
    for (long i = 0; i < r->nrows; i++) {
        fprintf(f, "%20ld", o->min + i);
        for (int mode = o->no_kernel; mode < 2; mode++) {
            const struct util_stats *s = &r->s[mode][t][i];
            fprintf(f, "\t%10lld\t%10lld\t%10lf\t%10lf", s->min, s->max, s->mean, s->std);
        }
        fprintf(f, "\n");
    }
    if (fclose(f) != 0)
        printf("Unable to write output file, %s, output will not be saved.\n", test_file[t]);
}

static void report_text(const struct opts *o, const struct events *ev, const struct results *r)
{
    for (int t = 0; t < T_COUNT; t++) {
        write_dat(o, r, t);
        printf("\n%s (mean cycles per call; %ld iterations)\n", test_title[t], o->iters);
        printf("%-8s %16s %16s\n", "events", o->no_kernel ? "" : "multiplexed", "not multiplexed");
        for (long i = 0; i < r->nrows; i++) {
            printf("%-8ld ", o->min + i);
            if (!o->no_kernel)
                printf("%16.1f ", r->s[0][t][i].mean);
            else
                printf("%16s ", "");
            printf("%16.1f\n", r->s[1][t][i].mean);
        }
    }
    printf("\nEvents, in the order added:");
    for (int i = 0; i < (int)o->max; i++)
        printf(" %s", ev->name[i]);
    printf("\n");
}

static void report_json(const struct opts *o, const struct events *ev, const struct results *r)
{
    struct jw w;
    util_json_begin(&w);
    jw_bool(&w, "software_events_only", ev->software_only);
    jw_int(&w, "iterations", o->iters);
    jw_arr_begin(&w, "events");
    for (int i = 0; i < (int)o->max; i++)
        jw_str(&w, NULL, ev->name[i]);
    jw_arr_end(&w);
    jw_arr_begin(&w, "measurements");
    for (long i = 0; i < r->nrows; i++)
        for (int t = 0; t < T_COUNT; t++) {
            jw_obj_begin(&w, NULL);
            jw_str(&w, "test", test_key[t]);
            jw_int(&w, "number_of_events", o->min + i);
            if (!o->no_kernel)
                stats_json(&w, "multiplexed", &r->s[0][t][i]);
            stats_json(&w, "not_multiplexed", &r->s[1][t][i]);
            jw_obj_end(&w);
        }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
}

int main(int argc, char **argv)
{
    struct opts o;
    parse(argc, argv, &o);
    if (!util_init("papi_multiplex_cost"))
        return 1;
    if (PAPI_multiplex_init() != PAPI_OK) {
        fprintf(stderr, "Error! PAPI_multiplex_init\n");
        return 1;
    }
    struct events ev;
    find_events(&ev, o.max ? (int)o.max : 8);
    if (!o.max)
        o.max = ev.n;
    if (ev.n < o.max || o.min > o.max) {
        fprintf(stderr, "I can't find %ld events to count at once (found %d that can be "
                "multiplexed here; papi_native_avail -c says why others cannot).\n",
                o.max > o.min ? o.max : o.min, ev.n);
        return 1;
    }
    struct results r = {.nrows = o.max - o.min + 1};
    long long *d = malloc((size_t)o.iters * sizeof *d);
    int ok = d != NULL;
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < T_COUNT; t++)
            ok = ok && (r.s[m][t] = calloc((size_t)r.nrows, sizeof(struct util_stats))) != NULL;
    if (!ok)
        fprintf(stderr, "Memory allocation error!\n");
    if (ok && !o.json) {
        printf("This utility benchmarks the overhead of PAPI multiplexing\n");
        printf("Warning!  This can take a long time (many minutes) to run\n");
        printf("The output goes to multiple .dat files in the current directory\n\n");
        printf("Running test[s]\n");
        if (!o.no_kernel)
            printf("\tKernel multiplexing read\n");
        printf("\tUnmultiplexed read (no software multiplexing: the kernel multiplexes)\n");
        if (ev.software_only)
            util_print_wrapped(stdout, "", "Note: no hardware event can be counted here, so this "
                               "measures with the kernel's software events, which the kernel "
                               "never takes off a counter: the multiplexed figures are the cost "
                               "of the multiplexed code path, not of counter rotation.", 80);
        fflush(stdout);
    }
    ok = ok && run_all(&o, &ev, &r, d);
    if (ok) {
        if (o.json)
            report_json(&o, &ev, &r);
        else
            report_text(&o, &ev, &r);
    }
    free(d);
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < T_COUNT; t++)
            free(r.s[m][t]);
    return ok ? 0 : 1;
}
