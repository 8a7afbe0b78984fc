/* run_sample_opts.c: papi_run --sample EVENT[@PERIOD|@FREQhz], --call-graph and
 * --sample-stacks: the sampled event and the -e events read with it, encoded for the
 * preloaded library (run_sample.h) and tried on papi_run itself first, so that what the
 * kernel refuses is said in one line before the program runs: an event that cannot
 * sample, a period of 0, a frequency above kernel.perf_event_max_sample_rate (lowered to
 * it), a clock sampled more often than RS_CLOCK_MIN_NS (made slower), kernel.perf_event_paranoid forbidding (kernel mode, or all sampling: the program
 * then runs counted, not sampled). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi_metrics.h"
#include "run.h"
#include "run_options.h"
#include "run_sample_attr.h"
#include "run_sample_merge.h"
#include "run_sample_metric.h"
#include "run_sample_opts.h"
#include "sample_spec.h"
#include "util_common.h"

struct generic {
    const char *name;
    uint32_t type;
    uint64_t config;
};

/* perf's generic events (perf list's names, perf:: or not) and the presets that are one
 * of them: what any kernel encodes without a table of the CPU's own events. */
static const struct generic generics[] = {
    {"TASK-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"CPU-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"PAGE-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"MINOR-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"MAJOR-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"CONTEXT-SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"CS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"CPU-MIGRATIONS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"ALIGNMENT-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"EMULATION-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {"CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"CPU-CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"CACHE-REFERENCES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"CACHE-MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"BRANCHES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"BRANCH-INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"BRANCH-MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"REF-CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"PAPI_TOT_CYC", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"PAPI_TOT_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"PAPI_BR_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"PAPI_BR_MSP", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"PAPI_REF_CYC", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
};

static struct rs_config cfg; /* what the program samples, as papi_run passes it on */

/* The generic event name stands for, or NULL. */
static const struct generic *find_generic(const char *name)
{
    char base[RUN_NAME_LEN];
    const char *b = strncasecmp(name, "perf::", 6) == 0 ? name + 6 : name;
    if (strncasecmp(b, "PERF_COUNT_SW_", 14) == 0 || strncasecmp(b, "PERF_COUNT_HW_", 14) == 0)
        b += 14;
    snprintf(base, sizeof base, "%s", b);
    int preset = strncasecmp(base, "PAPI_", 5) == 0;
    for (char *c = base; *c; c++)
        *c = *c == '_' && !preset ? '-' : (char)toupper((unsigned char)*c);
    for (size_t i = 0; i < sizeof generics / sizeof *generics; i++)
        if (strcmp(base, generics[i].name) == 0)
            return &generics[i];
    return NULL;
}

/* One line and exit 2: what --sample cannot do, before anything runs. */
__attribute__((format(printf, 1, 2))) static _Noreturn void refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("papi_run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static long read_proc_long(const char *path, long fallback)
{
    long v = fallback;
    FILE *f = fopen(path, "re");
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = fallback;
        fclose(f);
    }
    return v;
}

/* Opens the group on papi_run itself as the program's threads will (rs_sample_attr), in
 * kernel mode too or not, stacks taken as callchain says: 0, or errno (failed names the
 * event that was refused). */
static int try_group(int kernel, int callchain, int *failed)
{
    int fd[1 + RS_MAX_READ], err = 0;
    struct rs_config c = cfg;
    c.kernel = kernel;
    *failed = -1;
    for (int i = 0; i <= c.nread && !err; i++) {
        struct perf_event_attr a;
        rs_sample_attr(&c, i, callchain, &a);
        fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
        if (fd[i] < 0) {
            err = errno ? errno : EINVAL;
            *failed = i;
            for (int k = 0; k < i; k++)
                close(fd[k]);
            return err;
        }
    }
    for (int i = 0; i <= cfg.nread; i++)
        close(fd[i]);
    return 0;
}

/* The shortest period a clock (task-clock, cpu-clock: nanoseconds) is sampled at. The
 * kernel's own minimum is 10 us (it raises a shorter one without a word), and there its
 * timer's work for each sample can take the whole period: in a virtual machine a program
 * of 0.3 s of CPU took 4 to 60 s at 10 us and 1.5 s at 20 us. */
#define RS_CLOCK_MIN_NS 20000LL

static int is_clock(int i)
{
    return cfg.type[i] == PERF_TYPE_SOFTWARE &&
           (cfg.config[i] == PERF_COUNT_SW_CPU_CLOCK || cfg.config[i] == PERF_COUNT_SW_TASK_CLOCK);
}

/* The rate asked lowered to what can be taken (event 0 named): above
 * kernel.perf_event_max_sample_rate (the kernel refuses it), or a clock faster than
 * RS_CLOCK_MIN_NS. One line says the rate used, and the profile's notes. */
static void limit_rate(struct run_state *s)
{
    long max_rate = read_proc_long("/proc/sys/kernel/perf_event_max_sample_rate", 0);
    long long v = (long long)cfg.value, used = v;
    char why[160] = "";
    if (cfg.freq && max_rate > 0 && v > max_rate) {
        used = max_rate;
        snprintf(why, sizeof why, "%lld Hz is above kernel.perf_event_max_sample_rate (%ld)", v,
                 max_rate);
    }
    if (is_clock(0) && cfg.freq && used > 1000000000LL / RS_CLOCK_MIN_NS) {
        used = 1000000000LL / RS_CLOCK_MIN_NS;
        if (!why[0])
            snprintf(why, sizeof why,
                     "%lld Hz of a clock is a sample more often than every %lld ns", v,
                     RS_CLOCK_MIN_NS);
    } else if (is_clock(0) && !cfg.freq && v < RS_CLOCK_MIN_NS) {
        used = RS_CLOCK_MIN_NS;
        snprintf(why, sizeof why,
                 "a period of %lld ns is under %lld ns (the kernel's minimum is 10000 ns, where "
                 "its timer can take all of the program's time)",
                 v, RS_CLOCK_MIN_NS);
    }
    if (used == v)
        return;
    char text[300];
    snprintf(text, sizeof text, "%s: sampling %s %lld%s", why, cfg.freq ? "at" : "every", used,
             cfg.freq ? " Hz" : " ns");
    fprintf(stderr, "papi_run: --sample %s: %s\n", s->opt.sample, text);
    run_sample_note(s, text);
    cfg.value = (uint64_t)used;
}

static int set_event(int i, const char *name)
{
    const struct generic *g = find_generic(name);
    if (!g)
        return -1;
    snprintf(cfg.name[i], RS_NAME_LEN, "%s", name);
    cfg.type[i] = g->type;
    cfg.config[i] = g->config;
    return 0;
}

/* "EVENT@PERIOD", "EVENT@FREQhz", "EVENT", "@FREQhz", "" or "default"; EVENT may end in
 * ":u" (perf's modifier: user mode only, *user set), as in instructions:u. */
static void parse_spec(const struct run_options *o, char *event, long long *value, int *freq,
                       int *user)
{
    char spec[RUN_NAME_LEN + 32];
    snprintf(spec, sizeof spec, "%s", strcmp(o->sample, "default") == 0 ? "" : o->sample);
    struct sample_spec sp;
    int bad = sample_spec_parse(spec, &sp);
    const char *at = sp.event + sp.event_len;
    if (bad || sp.n < 0)
        refuse("--sample %s: '@%s' is not a period (events) or a frequency "
               "(NHz)",
               o->sample, at + 1);
    if (*at && sp.n == 0)
        refuse("--sample %s: a %s of 0 takes no sample", o->sample, sp.hz ? "frequency" : "period");
    *value = sp.n;
    *freq = sp.hz;
    spec[sp.event_len] = 0;
    size_t len = strlen(spec);
    *user = len >= 2 && strcasecmp(spec + len - 2, ":u") == 0;
    if (*user)
        spec[len - 2] = 0;
    snprintf(event, RUN_NAME_LEN, "%.*s", RUN_NAME_LEN - 1, spec);
}

/* The place of event name among the sampled and read events (the same kernel event under
 * another name counts: perf::CYCLES is PAPI_TOT_CYC), or -1. */
static int slot_of(const char *name, int upto)
{
    const struct generic *g = find_generic(name);
    for (int i = cfg.name[0][0] ? 0 : 1; g && i <= upto; i++) /* (default: not chosen yet) */
        if (cfg.type[i] == g->type && cfg.config[i] == g->config)
            return i;
    return -1;
}

/* The -e events read at each sample: those that are generic events; others are said. */
static void choose_read(const struct run_options *o)
{
    char skipped[512] = "";
    for (int i = 0; o->events_given && i < o->nevents; i++) {
        if (strcmp(o->events[i], cfg.name[0]) == 0 || slot_of(o->events[i], cfg.nread) >= 0)
            continue; /* (read once: -e perf::PAGE-FAULTS and a metric's PAGE-FAULTS) */
        if (cfg.nread < RS_MAX_READ && set_event(1 + cfg.nread, o->events[i]) == 0) {
            cfg.nread++;
            continue;
        }
        size_t n = strlen(skipped);
        snprintf(skipped + n, sizeof skipped - n, "%s%s", n ? ", " : "", o->events[i]);
    }
    if (skipped[0])
        fprintf(stderr,
                "papi_run: --sample: %s counted for the whole program only, not per stack "
                "(only perf's generic events, at most %d, are read with each sample)\n",
                skipped, RS_MAX_READ);
}

static void metric_refused(const char *name, const char *why)
{
    fprintf(stderr,
            "papi_run: --sample: metric %s not per function: %s (computed for the "
            "whole program only)\n",
            name, why);
}

/* Each -m metric's events join those read with each sample (once, whoever asked first);
 * a metric whose events are not all perf's generic events, that do not fit in
 * RS_MAX_READ, or that uses the elapsed time (a function has none) is said and left out
 * whole: it adds no event. */
static void choose_metrics(const struct run_options *o)
{
    for (int m = 0; m < o->nmetrics; m++) {
        PAPIM_metric_info_t info;
        char why[RS_NAME_LEN + 128] = "";
        if (PAPIM_query_metric(o->metrics[m], &info) != PAPI_OK) {
            metric_refused(o->metrics[m], "not in the metric table");
            continue;
        }
        struct run_sample_metric *r = &run_sample_metric_table[run_sample_metric_count];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", info.name);
        snprintf(r->unit, sizeof r->unit, "%s", info.unit);
        int added = 0;
        if (info.uses_time)
            snprintf(why, sizeof why,
                     "its formula uses the elapsed time, which a function "
                     "does not have");
        else if (info.num_events > 1 + RS_MAX_READ)
            snprintf(why, sizeof why,
                     "it needs %d events, more than the %d read with each "
                     "sample",
                     info.num_events, 1 + RS_MAX_READ);
        for (int k = 0; !why[0] && k < info.num_events; k++) {
            const char *ev = info.event_names[k];
            int at = slot_of(ev, cfg.nread + added);
            if (at < 0 && !find_generic(ev)) {
                snprintf(why, sizeof why,
                         "its event %.*s is not one of perf's generic events, "
                         "the only ones read with each sample",
                         RS_NAME_LEN, ev);
            } else if (at < 0 && cfg.nread + added >= RS_MAX_READ) {
                snprintf(why, sizeof why,
                         "its event %.*s does not fit: at most %d events are "
                         "read with each sample",
                         RS_NAME_LEN, ev, RS_MAX_READ);
            } else if (at < 0) {
                at = 1 + cfg.nread + added++;
                set_event(at, ev);
            }
            snprintf(r->ev[k], RS_NAME_LEN, "%.*s", RS_NAME_LEN - 1, ev);
            r->slot[k] = at;
        }
        if (why[0]) {
            metric_refused(info.name, why);
            continue;
        }
        r->nev = info.num_events;
        cfg.nread += added;
        run_sample_metric_count++;
    }
}

/* After the group was tried: a metric whose events are no longer all read is left out. */
static void keep_metrics(void)
{
    int kept = 0;
    for (int m = 0; m < run_sample_metric_count; m++) {
        int ok = 1;
        for (int k = 0; k < run_sample_metric_table[m].nev; k++)
            ok &= run_sample_metric_table[m].slot[k] <= cfg.nread;
        if (ok)
            run_sample_metric_table[kept++] = run_sample_metric_table[m];
        else
            metric_refused(run_sample_metric_table[m].name,
                           "its events cannot be read in the sampled "
                           "event's group (said above)");
    }
    run_sample_metric_count = kept;
}

/* PAPI_RUN_SAMPLE_METRICS for the program's profile: a line per metric, "NAME\tUNIT\t
 * FORMULA" then "\tEVENT\tPLACE" per event. */
static void export_metrics(void)
{
    char text[RS_METRICS_TEXT] = "";
    for (int m = 0; m < run_sample_metric_count; m++) {
        PAPIM_metric_info_t info;
        if (PAPIM_query_metric(run_sample_metric_table[m].name, &info) != PAPI_OK)
            continue;
        size_t n = strlen(text);
        snprintf(text + n, sizeof text - n, "%s%s\t%s\t%s", n ? "\n" : "", info.name, info.unit,
                 info.formula);
        for (int k = 0; k < run_sample_metric_table[m].nev; k++) {
            n = strlen(text);
            snprintf(text + n, sizeof text - n, "\t%s\t%d", run_sample_metric_table[m].ev[k],
                     run_sample_metric_table[m].slot[k]);
        }
    }
    setenv("PAPI_RUN_SAMPLE_METRICS", text, 1);
}

/* --call-graph dwarf or auto: the attr its threads open (user registers and stack with
 * each sample) tried here, so that a refusal is one line before the program runs, not a
 * note after it; the program then takes frame pointers, as its threads would (auto: its
 * processes still say whether their code lacks them). 1 when refused. */
static int check_dwarf(struct run_state *s)
{
    const char *mode = run_call_graph_name(s->opt.call_graph);
    int failed, err = STACK_UNWIND_REGS_MASK ? try_group(cfg.kernel, RS_CG_DWARF, &failed) : 0;
    if (STACK_UNWIND_REGS_MASK && !err)
        return 0;
    if (!STACK_UNWIND_REGS_MASK)
        fprintf(stderr,
                "papi_run: --call-graph %s: no register mapping for this CPU: "
                "frame pointers instead\n",
                mode);
    else
        fprintf(stderr,
                "papi_run: --call-graph %s: the kernel refused the user registers and stack "
                "with each sample (%s): frame pointers instead\n",
                mode, strerror(err));
    run_sample_note(s, "DWARF unwinding not available here: frame pointers");
    cfg.callchain = RS_CG_FP;
    if (s->opt.call_graph == RUN_CG_DWARF)
        s->opt.call_graph = RUN_CG_FP; /* the banner's word for it */
    return 1;
}

/* The kernel refused to sample the event on papi_run itself, so it would in the program
 * too: one line saying why, and the program runs counted as without --sample (its
 * counts are what can be taken; its exit status is papi_run's). */
static void refused_by_kernel(struct run_state *s, int err)
{
    char why[256];
    if (err == EACCES || err == EPERM)
        snprintf(why, sizeof why,
                 "sampling refused (%s): kernel.perf_event_paranoid is %ld (sampling a process "
                 "needs it <= 2, or CAP_PERFMON)",
                 strerror(err), read_proc_long("/proc/sys/kernel/perf_event_paranoid", 2));
    else
        snprintf(why, sizeof why, "this event cannot sample here (%s)", strerror(err));
    fprintf(stderr, "papi_run: --sample %s: %s: the program runs counted, not sampled\n",
            cfg.name[0], why);
    char text[RS_NAME_LEN + 300];
    snprintf(text, sizeof text, "not sampled: %s %s", cfg.name[0], why);
    run_sample_note(s, text);
    s->opt.sampling = 0;
}

void run_sample_setup(struct run_state *s)
{
    const struct run_options *o = &s->opt;
    char event[RUN_NAME_LEN];
    long long value;
    int failed, user;
    parse_spec(o, event, &value, &cfg.freq, &user);
    cfg.value = (uint64_t)value;
    int cg = o->call_graph; /* what was asked: check_dwarf may make dwarf fp */
    cfg.callchain = cg == RUN_CG_DWARF || cg == RUN_CG_AUTO ? RS_CG_DWARF : cg == RUN_CG_FP;
    cfg.cap = (size_t)o->sample_cap;
    if (event[0] && set_event(0, event) != 0) {
        fprintf(stderr,
                "papi_run: --sample %s: cannot be sampled here: papi_run samples perf's "
                "generic events (perf::TASK-CLOCK, perf::CYCLES, perf::PAGE-FAULTS ...) "
                "and PAPI_TOT_CYC, PAPI_TOT_INS, PAPI_BR_INS, PAPI_BR_MSP, PAPI_REF_CYC\n",
                event);
        exit(2);
    }
    limit_rate(s); /* the default event is sampled at a rate both can take */
    choose_read(o);
    choose_metrics(o);
    int err = -1, fallback = cfg.callchain == RS_CG_DWARF ? RS_CG_FP : cfg.callchain;
    if (!event[0]) { /* the default: cycles where they count, else the task's clock */
        set_event(0, "perf::CYCLES");
        if ((err = try_group(0, fallback, &failed)) != 0 || failed >= 0)
            set_event(0, "perf::TASK-CLOCK");
    }
    if (err != 0 && (err = try_group(0, fallback, &failed)) != 0 && failed > 0) {
        fprintf(stderr, "papi_run: --sample: %s cannot be read with %s (%s): not per stack\n",
                cfg.name[failed], cfg.name[0], strerror(err));
        cfg.nread = 0;
        err = try_group(0, fallback, &failed);
    }
    if (err != 0) {
        refused_by_kernel(s, err);
        return;
    }
    keep_metrics();
    cfg.kernel = !user && try_group(1, fallback, &failed) == 0;
    if (user)
        run_sample_note(s, "user mode only (:u): the kernel's work is neither counted nor "
                           "sampled");
    else if (!cfg.kernel)
        run_sample_note(s, "kernel frames not sampled: kernel.perf_event_paranoid forbids "
                           "kernel mode to this user (CAP_PERFMON or paranoid <= 1 allows it)");
    int refused = cfg.callchain == RS_CG_DWARF && check_dwarf(s);
    char text[RS_NAME_LEN + 64], list[(RS_NAME_LEN + 48) * RS_MAX_READ] = "", opts[64];
    snprintf(text, sizeof text, "%s|%u|%llu|%c|%llu", cfg.name[0], cfg.type[0],
             (unsigned long long)cfg.config[0], cfg.freq ? 'f' : 'p',
             (unsigned long long)cfg.value);
    setenv("PAPI_RUN_SAMPLE", text, 1);
    for (int i = 1; i <= cfg.nread; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s|%u|%llu", i > 1 ? ";" : "", cfg.name[i],
                 cfg.type[i], (unsigned long long)cfg.config[i]);
    }
    setenv("PAPI_RUN_SAMPLE_READ", list, 1);
    snprintf(opts, sizeof opts, "%s%s %d %zu", run_call_graph_name(cg), refused ? "-fp" : "",
             cfg.kernel, cfg.cap);
    setenv("PAPI_RUN_SAMPLE_OPTS", opts, 1);
    setenv("PAPI_RUN_SAMPLE_DIR", s->dir, 1);
    export_metrics();
    /* papi_run's run header, which each process's .sample file carries for papi_run
     * --merge (run_sample_header.c); the command last: it may hold tabs */
    char run[RUN_CMD_LEN + RUN_HOST_LEN + 40];
    snprintf(run, sizeof run, "%s\t%s\t%s", s->run.start, s->run.host, s->run.command);
    setenv("PAPI_RUN_SAMPLE_RUN", run, 1);
}
