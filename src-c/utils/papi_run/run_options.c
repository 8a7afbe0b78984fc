/* run_options.c: papi_run's command line (-e, -m, -o, --interval, --per-thread, --quiet,
 * then the program) and the events and metrics it puts into the event set. Bad usage is
 * one line naming the problem and exit status 2, before anything runs or is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "default_events.h"
#include "env.h"
#include "papi_metrics.h"
#include "run.h"
#include "run_options.h"
#include "software_event.h"
#include "util_common.h"
#include "util_options.h"

enum {
    OPT_INTERVAL = UTIL_OPT_OWN,
    OPT_PER_THREAD,
    OPT_QUIET,
    OPT_GPU,
    OPT_GPU_COUNTERS,
    OPT_SAMPLE,
    OPT_CALL_GRAPH,
    OPT_SAMPLE_STACKS,
    OPT_TRACE,
    OPT_MERGE,
    OPT_RUN,
    OPT_NO_LIBOMP,
    OPT_LIBOMP
};

static const char usage[] =
    "Usage: papi_run [options] -- PROGRAM [ARGS...]\n"
    "       papi_run --merge DIR [--run ID]\n"
    "Count a whole program, unchanged: every thread and every child process it forks.\n"
    "  -e EVENT        an event to count (repeatable, or a comma list as PAPI_EVENTS)\n"
    "  -m METRIC       a metric or group of papi_metric_avail (repeatable or a list)\n"
    "  -o DIR          write DIR/papi_run_output/rank_XXXXXX-RUNID.json (default: .)\n"
    "  --interval S    also take a sample of the counts every S seconds (with\n"
    "                  an OpenMP program's efficiencies of each interval)\n"
    "  --per-thread    split the counts per thread (a library the program loads)\n"
    "  --gpu           also record the program's NVIDIA GPU activity through CUPTI\n"
    "                  (kernels, copies, synchronisation: a library the program\n"
    "                  loads), DIR/papi_run_output/gpu_activity_RUNID_PID.json\n"
    "  --gpu-counters METRICS  also count CUPTI's metrics (comma-separated full\n"
    "                  names: sm__cycles_active.sum) per kernel on each device, one\n"
    "                  range per launch: launches and each metric's sum per device and\n"
    "                  kernel name in\n"
    "                  --gpu's file (implies --gpu); kernels are serialised while counted\n"
    "  --quiet         no banner on stderr\n"
    "  --libomp        run a libgomp (gcc, gfortran) OpenMP program under LLVM's libomp\n"
    "                  (OMPT: also what gcc inlines, static loops and reductions), not\n"
    "                  under libgomp with its GOMP_* entry points interposed (default)\n"
    "  --no-libomp     run a libgomp program under libgomp untouched: no OpenMP table\n"
    "  --sample EVENT[:u][@PERIOD|@FREQhz]  sample call stacks on EVENT (\"default\":\n"
    "                  cycles where counted, else perf::TASK-CLOCK, @999hz; :u user mode\n"
    "                  only, as perf's instructions:u); -e's generic events\n"
    "                  are read at each sample, -m's metrics computed per function;\n"
    "                  writes profile.folded and\n"
    "                  profile.EVENT.folded; the banner ends with the top functions\n"
    "  --call-graph auto|fp|dwarf|none  stacks by frame pointers, by DWARF unwinding\n"
    "                  of a copy of the user stack (8 KiB a sample, for code built\n"
    "                  without frame pointers) or the sampled address only; auto (the\n"
    "                  default): dwarf where the program's DWARF says it has no frame\n"
    "                  pointers, else fp, said in the banner and the profile\n"
    "  --sample-stacks N  distinct stacks kept per process (default 65536)\n"
    "  --merge DIR     run nothing: merge the processes' profiles of a --sample run in\n"
    "                  DIR (DIR/papi_run_output, or that folder) into its\n"
    "                  job_profile_RUNID.json and folded files, as a run's end does\n"
    "  --run ID        with --merge: that run's profiles (default: the newest run's)\n"
    "  --trace FORMAT  json or otf2: also a timeline, DIR/papi_run_trace/trace_rank_...\n"
    "  -x SEP          perf stat -x's lines instead of the banner, on stdout once the\n"
    "                  program has ended: value, unit, event, running time (ns),\n"
    "                  percentage running, SEP between\n"
    "  --json          perf stat -j's lines instead: one JSON object per event\n"
    "  -h, --help      this text\n"
    "  --version       the versions\n"
    "Without -e: perf::TASK-CLOCK, perf::PAGE-FAULTS, perf::CONTEXT-SWITCHES and the\n"
    "cycle and instruction presets where they count. Software events count in user and\n"
    "kernel mode where the kernel allows it (as perf stat), hardware events in user mode.\n"
    "Under mpirun it loads the wrapper library of the program's MPI (papi_mpi_report(5)).\n"
    "An OpenMP program gets the OMPT tool (OMP_TOOL_LIBRARIES, after the user's tools):\n"
    "its parallel regions and efficiencies in the file and the banner. Its threads\n"
    "count events per region: two reads per region and thread, about 400 instructions\n"
    "where the PMU allows user-space reads of hardware events, else system calls (a few\n"
    "microseconds in a VM). By default the hardware events where user-space reads are\n"
    "allowed, else none (the banner says so); -e's events, or PAPI_OMPT_EVENTS=LIST,\n"
    "are counted anyway; PAPI_OMPT_EVENTS= (empty) keeps the tables without counts.\n"
    "Exit status: the program's, 128+N when a signal N killed it, 2 for bad usage,\n"
    "126/127 when it cannot be run, 1 when it exited 0 but the report was not written.\n";

static void add_name(struct run_options *o, const char *name)
{
    for (int i = 0; i < o->nevents; i++)
        if (strcmp(o->events[i], name) == 0)
            return;
    if (o->nevents >= RUN_MAX_EVENTS)
        util_usage_error("more than %d events", RUN_MAX_EVENTS);
    if (strlen(name) >= RUN_NAME_LEN)
        util_usage_error("event name too long: %.40s...", name);
    snprintf(o->events[o->nevents++], RUN_NAME_LEN, "%s", name);
}

/* "a,b,c" as PAPI_EVENTS takes it; empty items are skipped. */
static void add_list(struct run_options *o, const char *list, int metrics)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        util_usage_error("out of memory");
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " \t");
        if (!*t)
            continue;
        if (!metrics) {
            add_name(o, t);
        } else if (o->nmetrics >= RUN_MAX_METRICS) {
            util_usage_error("more than %d metrics", RUN_MAX_METRICS);
        } else {
            snprintf(o->metrics[o->nmetrics++], PAPI_MIN_STR_LEN, "%s", t);
        }
    }
    free(copy);
}

/* --sample (which 0), --call-graph (1), --sample-stacks (2). */
static void run_sample_option(struct run_options *o, int which, const char *arg)
{
    char *end;
    if (which == 0) {
        if (strlen(arg) >= sizeof o->sample)
            util_usage_error("--sample %.40s...: too long", arg);
        snprintf(o->sample, sizeof o->sample, "%s", strcmp(arg, "--") == 0 ? "default" : arg);
        o->sampling = 1;
    } else if (which == 1 && strcmp(arg, "fp") == 0) {
        o->call_graph = RUN_CG_FP;
    } else if (which == 1 && strcmp(arg, "none") == 0) {
        o->call_graph = RUN_CG_NONE;
    } else if (which == 1 && strcmp(arg, "dwarf") == 0) {
        o->call_graph = RUN_CG_DWARF;
    } else if (which == 1 && strcmp(arg, "auto") == 0) {
        o->call_graph = RUN_CG_AUTO;
    } else if (which == 1) {
        util_usage_error("--call-graph '%s': auto, fp, dwarf or none", arg);
    } else {
        o->sample_cap = strtol(arg, &end, 10);
        if (end == arg || *end || o->sample_cap < 1 || o->sample_cap > (1L << 24))
            util_usage_error("--sample-stacks '%s': a number of stacks in 1..%ld", arg, 1L << 24);
    }
}

const char *run_call_graph_name(int call_graph)
{
    return call_graph == RUN_CG_DWARF  ? "dwarf"
           : call_graph == RUN_CG_FP   ? "fp"
           : call_graph == RUN_CG_AUTO ? "auto"
                                       : "none";
}

static double parse_interval(const char *s)
{
    double v = cs_parse_interval(s);
    if (v < 0)
        util_usage_error("--interval '%s' is not a number of seconds in 0.001..86400", s);
    return v;
}

/* --merge DIR [--run ID]: a folder and a run id, and nothing to run. */
static void merge_only(struct run_options *o, int argc, char **argv)
{
    if (optind < argc)
        util_usage_error("--merge DIR runs no program: '%s' given", argv[optind]);
    if (!*o->merge_dir)
        util_usage_error("--merge: empty directory name");
    if (!o->merge_run)
        o->merge_run = "";
    else if (!*o->merge_run || strspn(o->merge_run, RUN_ID_CHARS) != strlen(o->merge_run))
        util_usage_error("--run '%s': a run id is made of letters, digits, '.', '_' and '-'",
                         o->merge_run);
}

void run_parse_options(int argc, char **argv, struct run_options *o)
{
    static const struct option longopts[] = {
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"per-thread", no_argument, NULL, OPT_PER_THREAD},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"gpu", no_argument, NULL, OPT_GPU},
        {"gpu-counters", required_argument, NULL, OPT_GPU_COUNTERS},
        {"sample", required_argument, NULL, OPT_SAMPLE},
        {"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
        {"sample-stacks", required_argument, NULL, OPT_SAMPLE_STACKS},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"merge", required_argument, NULL, OPT_MERGE},
        {"run", required_argument, NULL, OPT_RUN},
        {"no-libomp", no_argument, NULL, OPT_NO_LIBOMP},
        {"libomp", no_argument, NULL, OPT_LIBOMP},
        UTIL_COMMON_LONGOPTS,
        {0}};
    memset(o, 0, sizeof *o);
    o->outdir = ".";
    o->call_graph = RUN_CG_AUTO;
    o->sample_cap = 65536;
    util_options("papi_run", usage);
    int c;
    /* '+': the options end at the program's name, so its own options stay its own */
    while ((c = util_getopt(argc, argv, "+e:m:o:x:", longopts)) != -1) {
        if (c == 'e') {
            add_list(o, optarg, 0);
            o->events_given = 1;
        } else if (c == 'm') {
            add_list(o, optarg, 1);
        } else if (c == 'o') {
            o->outdir = optarg;
        } else if (c == OPT_INTERVAL) {
            o->interval = parse_interval(optarg);
        } else if (c == OPT_PER_THREAD) {
            o->per_thread = 1;
        } else if (c == OPT_GPU) {
            o->gpu = 1;
        } else if (c == OPT_GPU_COUNTERS) {
            if (!*optarg || optarg[strspn(optarg, ",")] == '\0')
                util_usage_error("--gpu-counters: no metric named (CUPTI's names, "
                                 "comma-separated: sm__cycles_active.sum,dram__bytes.sum)");
            o->gpu_counters = optarg;
            o->gpu = 1; /* the rows go into --gpu's file */
        } else if (c == OPT_TRACE) {
            o->trace = optarg; /* checked by run_trace_check: a bad one still counts */
        } else if (c == OPT_MERGE) {
            o->merge_dir = optarg;
        } else if (c == OPT_RUN) {
            o->merge_run = optarg;
        } else if (c == OPT_NO_LIBOMP) {
            o->no_libomp = 1;
        } else if (c == OPT_LIBOMP) {
            o->libomp = 1;
        } else if (c == OPT_QUIET) {
            o->quiet = 1;
        } else if (c == OPT_SAMPLE || c == OPT_CALL_GRAPH || c == OPT_SAMPLE_STACKS) {
            run_sample_option(o, c - OPT_SAMPLE, optarg);
        } else if (c == 'x') {
            if (!*optarg || strlen(optarg) >= sizeof o->csv_sep || strpbrk(optarg, "\n\r"))
                util_usage_error("-x '%s': a separator of 1 to %zu characters, no newline", optarg,
                                 sizeof o->csv_sep - 1);
            snprintf(o->csv_sep, sizeof o->csv_sep, "%s", optarg);
        } else if (c == UTIL_OPT_JSON) {
            o->json = 1;
        } else {
            util_usage_error("unknown option");
        }
    }
    if (o->json && o->csv_sep[0])
        util_usage_error("-x and --json: one machine-readable form at a time");
    if (o->merge_run && !o->merge_dir)
        util_usage_error("--run ID: only with --merge DIR");
    if (o->merge_dir)
        return merge_only(o, argc, argv);
    if (optind >= argc)
        util_usage_error("no program to run");
    if (!*o->outdir)
        util_usage_error("-o: empty directory name");
    o->argv = argv + optind;
}

/* The events of -m's metrics join the list (names expanded from groups first). */
static void add_metric_events(struct run_options *o)
{
    char names[RUN_MAX_METRICS][PAPI_MIN_STR_LEN];
    int n = 0, given = o->nmetrics;
    char list[RUN_MAX_METRICS * PAPI_MIN_STR_LEN] = "";
    for (int i = 0; i < given; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "",
                 o->metrics[i]);
    int ret = PAPIM_expand(list, names, RUN_MAX_METRICS, &n);
    if (ret != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN];
        util_error_detail(ret, why, sizeof why);
        util_usage_error("-m %s: %s", list, why);
    }
    o->nmetrics = n;
    for (int i = 0; i < n; i++) {
        PAPIM_metric_info_t info;
        memcpy(o->metrics[i], names[i], PAPI_MIN_STR_LEN);
        o->metrics[i][PAPI_MIN_STR_LEN - 1] = 0;
        if (PAPIM_query_metric(names[i], &info) != PAPI_OK || !info.countable)
            util_usage_error("metric %s cannot be computed here: %s", names[i], info.reason);
        for (int k = 0; k < info.num_events; k++)
            add_name(o, info.event_names[k]);
    }
}

/* The component of event name (PAPI_get_event_component), or the error. */
static int component_of(const char *name)
{
    int code, ret = PAPI_event_name_to_code(name, &code);
    return ret == PAPI_OK ? PAPI_get_event_component(code) : ret;
}

/* Keeps the events that can be added to an event set of this process, one set per
 * component (as PAPI 7 makes them, so events of several components mix): one that
 * cannot is dropped from the default list, and refused when -e named it (exit 2). One
 * that only does not fit beside the others is kept: the program's set is then
 * multiplexed. */
static void check_events(struct run_options *o)
{
    int es[RUN_MAX_SETS], cidx[RUN_MAX_SETS], nsets = 0, kept = 0;
    for (int i = 0; i < o->nevents; i++) {
        int k = 0, c = component_of(o->events[i]), ret = c < 0 ? c : PAPI_OK;
        while (ret == PAPI_OK && k < nsets && cidx[k] != c)
            k++;
        if (ret == PAPI_OK && k == nsets) {
            if (nsets == RUN_MAX_SETS)
                ret = PAPI_ECOUNT; /* more components than papi_run counts at once */
            else if ((es[k] = PAPI_NULL, ret = PAPI_create_eventset(&es[k])) == PAPI_OK)
                cidx[nsets++] = c;
        }
        if (ret == PAPI_OK)
            ret = PAPI_add_named_event(es[k], o->events[i]);
        if (ret == PAPI_ECNFLCT || ret == PAPI_ECOMBO)
            ret = PAPI_OK;
        if (ret != PAPI_OK && o->events_given) {
            char why[PAPI_HUGE_STR_LEN];
            util_error_detail(ret, why, sizeof why);
            fprintf(stderr, "papi_run: event %s: %s\n", o->events[i], why);
            exit(2);
        }
        if (ret == PAPI_OK) {
            if (kept != i)
                memcpy(o->events[kept], o->events[i], RUN_NAME_LEN);
            o->cidx[kept++] = c;
        }
    }
    for (int k = 0; k < nsets; k++) {
        PAPI_cleanup_eventset(es[k]);
        PAPI_destroy_eventset(&es[k]);
    }
    o->nevents = kept;
    if (kept == 0) {
        fprintf(stderr, "papi_run: no event can be counted here\n");
        exit(2);
    }
}

/* Whether name counts in this process: added and started in a set of its own. PAPI_OK
 * or the error (why in PAPI_strerror_detail). */
static int probe(const char *name)
{
    int es = PAPI_NULL;
    long long v;
    int ret = PAPI_create_eventset(&es);
    if (ret == PAPI_OK)
        ret = PAPI_add_named_event(es, name);
    if (ret == PAPI_OK && (ret = PAPI_start(es)) == PAPI_OK)
        PAPI_stop(es, &v);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return ret;
}

/* Why kernel mode cannot be counted: the usual reason said plainly, else the library's. */
static void kernel_refused(int ret, char *why, size_t len)
{
    int level = 99;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
    if (f) {
        if (fscanf(f, "%d", &level) != 1)
            level = 99;
        fclose(f);
    }
    if (level > 1 && level != 99 && geteuid() != 0)
        snprintf(why, len,
                 "kernel.perf_event_paranoid is %d and this process is not root and lacks "
                 "CAP_PERFMON (kernel mode needs one of them, or paranoid <= 1)",
                 level);
    else
        util_error_detail(ret, why, len);
}

/* Software events in user and kernel mode where the kernel allows it (root, CAP_PERFMON,
 * kernel.perf_event_paranoid <= 1), as perf stat counts them; hardware events keep the
 * library's user domain (as the region API and the MPI wrapper count them). Where the
 * kernel refuses: a fault-like event counts in user mode with a note, a kernel-only one
 * (context switches, migrations) is refused when -e named it and dropped from the
 * defaults with a note: never a 0 printed as its count. */
static void choose_domains(struct run_options *o)
{
    char why[PAPI_HUGE_STR_LEN] = "";
    int kept = 0;
    for (int i = 0; i < o->nevents; i++) {
        int kind = software_event_kind(o->events[i]), ret = PAPI_OK;
        snprintf(o->counted[i], RUN_NAME_LEN, "%s", o->events[i]);
        o->kernel[i] = kind == SOFTWARE_EVENT_CLOCK ? 2 : 0;
        if (kind == SOFTWARE_EVENT_FAULT || kind == SOFTWARE_EVENT_KERNEL_ONLY) {
            char q[RUN_NAME_LEN];
            ret = software_event_all_modes(o->events[i], q, sizeof q) == 0 ? probe(q) : PAPI_EINVAL;
            if (ret == PAPI_OK) {
                snprintf(o->counted[i], RUN_NAME_LEN, "%s", q);
                o->kernel[i] = 1;
            } else if (!why[0]) {
                kernel_refused(ret, why, sizeof why);
            }
        }
        if (kind == SOFTWARE_EVENT_KERNEL_ONLY && ret != PAPI_OK && o->events_given) {
            fprintf(stderr,
                    "papi_run: event %s happens only in the kernel, which this process "
                    "may not count: %s\n",
                    o->events[i], why);
            exit(2);
        }
        size_t n = strlen(o->domain_note);
        if (ret != PAPI_OK)
            snprintf(o->domain_note + n, sizeof o->domain_note - n, "%s%s %s", n ? ", " : "",
                     o->events[i],
                     kind == SOFTWARE_EVENT_KERNEL_ONLY ? "not counted" : "in user mode only");
        if (kind == SOFTWARE_EVENT_KERNEL_ONLY && ret != PAPI_OK)
            continue;
        if (kept != i) {
            memcpy(o->events[kept], o->events[i], RUN_NAME_LEN);
            memcpy(o->counted[kept], o->counted[i], RUN_NAME_LEN);
            o->kernel[kept] = o->kernel[i];
            o->cidx[kept] = o->cidx[i];
        }
        kept++;
    }
    o->nevents = kept;
    if (o->domain_note[0]) {
        size_t n = strlen(o->domain_note);
        snprintf(o->domain_note + n, sizeof o->domain_note - n, ": %.300s", why);
    }
}

void run_choose_events(struct run_options *o)
{
    if (o->nmetrics)
        add_metric_events(o);
    if (!o->events_given && !o->nmetrics)
        for (int i = 0; i < DEFAULT_RUN_N; i++)
            add_name(o, default_run_events[i]);
    check_events(o);
    choose_domains(o);
    if (o->nevents == 0) {
        fprintf(stderr, "papi_run: no event can be counted here\n");
        exit(2);
    }
}
