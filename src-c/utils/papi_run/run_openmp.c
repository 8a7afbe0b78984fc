/* run_openmp.c: an OpenMP program under papi_run (run_openmp.h): the tool named, a libgomp
 * program's route (its GOMP_* entry points interposed, or libomp in place of libgomp),
 * the tool's tables read back into papi_run's file and banner. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "env.h"
#include "env_list.h"
#include "handover_file.h"
#include "json_writer.h"
#include "run.h"
#include "run_modules.h"
#include "run_omp_live.h"
#include "run_openmp.h"

#ifndef PAPI_RUN_MULTIARCH
#define PAPI_RUN_MULTIARCH ""
#endif

#define TABLE_MAX ((size_t)256 << 20) /* one process's table: 1024 regions of 256 threads */
#define WS        " \t\r\n"

static const char *const status_word[] = {"measured", "off", "no_runtime", "no_tool",
                                          "not_reported"};

static void say(struct run_openmp *o, int status, const char *reason)
{
    o->status = status;
    snprintf(o->reason, sizeof o->reason, "%s", reason);
}

/* LLVM's libomp.so.5: on LD_LIBRARY_PATH, in the system's library folders (Debian's
 * libomp5-NN), else in an LLVM's own folder (the newest). 0, or -1 when none is. */
static int find_libomp(char *path, size_t len)
{
    char dirs[4096];
    const char *ld = env_get("LD_LIBRARY_PATH");
    snprintf(dirs, sizeof dirs, "%s:/usr/lib/%s:/lib/%s:/usr/local/lib:/usr/lib64:/usr/lib",
             ld ? ld : "", PAPI_RUN_MULTIARCH, PAPI_RUN_MULTIARCH);
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
        if (snprintf(path, len, "%s/libomp.so.5", d) < (int)len && access(path, R_OK) == 0)
            return 0;
    glob_t g;
    int found = glob("/usr/lib/llvm-*/lib/libomp.so.5", 0, NULL, &g) == 0 && g.gl_pathc > 0 &&
                snprintf(path, len, "%s", g.gl_pathv[g.gl_pathc - 1]) < (int)len;
    globfree(&g);
    return found ? 0 : -1;
}

/* The tool after the user's tools in OMP_TOOL_LIBRARIES: the runtime takes the first
 * library whose ompt_start_tool accepts, so theirs keeps its place. 0, or -1. */
static int name_tool(struct run_openmp *o, const char *tool)
{
    const char *user = env_get("OMP_TOOL_LIBRARIES");
    snprintf(o->user_tools, sizeof o->user_tools, "%s", user ? user : "");
    return env_list_add("OMP_TOOL_LIBRARIES", tool, 0);
}

/* The runtime a libgomp program runs under, preloaded: libgomp itself with its GOMP_*
 * entry points interposed for the tool (libpapi_gomp.so), or with --libomp LLVM's
 * libomp.so.5; NULL, or why not. */
static const char *preload_runtime(struct run_state *s, struct run_openmp *o, int *status)
{
    if (o->runtime != RUN_OMP_GOMP)
        return NULL;
    if (!s->opt.libomp) {
        *status = RUN_OMP_NO_TOOL;
        if (run_find_module("libpapi_gomp.so", o->interposer, sizeof o->interposer) != 0) {
            o->interposer[0] = 0;
            return "libpapi_gomp.so (the GOMP_* interposer for libgomp programs) is not "
                   "installed; --libomp runs the program under LLVM's libomp";
        }
        if (env_list_add("LD_PRELOAD", o->interposer, 1) != 0) {
            o->interposer[0] = 0;
            return "LD_PRELOAD is too long to add libpapi_gomp.so to it";
        }
        return NULL;
    }
    *status = RUN_OMP_NO_RUNTIME;
    if (find_libomp(o->libomp, sizeof o->libomp) != 0)
        return "--libomp: the program uses libgomp, which has no OMPT interface, and LLVM's "
               "libomp.so.5 is not installed (Debian: apt install libomp5-14)";
    if (env_list_add("LD_PRELOAD", o->libomp, 1) != 0) {
        o->libomp[0] = 0;
        return "LD_PRELOAD is too long to add libomp.so.5 to it";
    }
    return NULL;
}

/* Why the tool cannot be named or a libgomp program given its route; NULL when it can. */
static const char *cannot(struct run_state *s, struct run_openmp *o, const char *tool_found,
                          int *status)
{
    const char *omp_tool = env_get("OMP_TOOL");
    *status = RUN_OMP_OFF;
    if (omp_tool && strcmp(omp_tool, "disabled") == 0)
        return "OMP_TOOL=disabled: the OpenMP runtime loads no tool";
    *status = RUN_OMP_NO_TOOL;
    if (!tool_found)
        return "libpapi_ompt.so (the OMPT tool) is not installed";
    *status = RUN_OMP_OFF;
    if (o->runtime == RUN_OMP_GOMP && s->opt.no_libomp)
        return "--no-libomp: the program ran under libgomp untouched (no GOMP_* interposer, no "
               "OMPT)";
    const char *why = preload_runtime(s, o, status);
    if (why)
        return why;
    *status = RUN_OMP_NO_TOOL;
    if (name_tool(o, tool_found) != 0)
        return "OMP_TOOL_LIBRARIES is too long to add the tool to it";
    return NULL;
}

/* Whether a thread's event set of the CPU component is read from user space here (x86
 * rdpmc, arm64 kernel.perf_user_access=1: the component's fast_counter_read), no system
 * call per read. */
static int user_space_reads(void)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    return c && c->fast_counter_read;
}

/* The CPU component's events, counted by each OpenMP thread over its implicit tasks (as
 * the region API counts them), read twice per region and thread. Those -e (or a metric)
 * named, whatever they cost: the user asked for them. papi_run's defaults only where the
 * reads are cheap (issue 73 item 1): where a thread's set is read from user space, its
 * hardware events alone (a software event is read with read(), and one in a set takes
 * the whole set to read()), a few hundred instructions per region and thread; elsewhere
 * none (two read() per region and thread cost microseconds in a VM, more than a short
 * region's work): the tables and efficiencies without counts, said in the banner with how
 * to get them. A PAPI_OMPT_EVENTS the user set is kept. */
static void set_events(struct run_state *s)
{
    char list[RUN_MAX_EVENTS * RUN_NAME_LEN] = "";
    int defaults = !s->opt.events_given && !s->opt.nmetrics, cheap = user_space_reads();
    for (int i = 0; i < s->opt.nevents; i++) {
        size_t n = strlen(list);
        if (s->opt.cidx[i] != 0 ||
            (defaults && (!cheap || strncmp(s->opt.events[i], "perf::", 6) == 0)))
            continue;
        snprintf(list + n, sizeof list - n, "%s%s", n ? "," : "", s->opt.events[i]);
    }
    if (list[0])
        setenv("PAPI_OMPT_EVENTS", list, 0);
    else if (defaults && !env_get("PAPI_OMPT_EVENTS")) {
        setenv("PAPI_OMPT_EVENTS", "", 1); /* the tool then counts PAPI_EVENTS' only */
        s->omp.counts_off = 1;
    }
}

void run_openmp_prepare(struct run_state *s, enum run_omp_runtime runtime)
{
    struct run_openmp *o = &s->omp;
    char tool[PATH_MAX + 128];
    int status;
    o->runtime = runtime;
    int found = run_find_module("libpapi_ompt.so", tool, sizeof tool) == 0;
    const char *why = cannot(s, o, found ? tool : NULL, &status);
    if (why) {
        say(o, status, why);
        return;
    }
    snprintf(o->tables, sizeof o->tables, "%s/.papi_run_ompt_tables.%ld", s->dir, (long)getpid());
    unlink(o->tables); /* an earlier run's, of a papi_run of the same id */
    setenv("PAPI_RUN_OMPT_TABLE_FILE", o->tables, 1);
    set_events(s);
    o->asked = 1;
    o->route = o->interposer[0] ? "libgomp (GOMP_* interposed)" : "LLVM libomp (OMPT)";
    run_omp_live_prepare(s);
    say(o, RUN_OMP_UNREPORTED,
        o->user_tools[0] ? "no process wrote a table: a tool OMP_TOOL_LIBRARIES names was "
                           "loaded before papi_run's, the program has a tool of its own, or "
                           "it ran no OpenMP construct"
                         : "no process wrote a table: the program has an OMPT tool of its "
                           "own, or it ran no OpenMP construct");
}

/* The end of the JSON value at p, or NULL when it is not whole (a check, not a parser:
 * the text is the tool's, written by the project's writer). */
static const char *value_end(const char *p)
{
    int depth = 0;
    p += strspn(p, WS);
    do {
        if (!*p)
            return NULL;
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p++)
                return NULL;
        } else if (*p == '{' || *p == '[') {
            depth++, p++;
        } else if (*p == '}' || *p == ']') {
            if (--depth < 0)
                return NULL;
            p++;
        } else {
            p++;
            if (depth == 0)
                p += strcspn(p, ",}]" WS);
        }
    } while (depth > 0);
    return p;
}

/* The value of the object's member key (obj: the object's text), or NULL. */
static const char *member(const char *obj, const char *key)
{
    const char *p = obj + strspn(obj, WS);
    if (*p++ != '{')
        return NULL;
    for (;;) {
        p += strspn(p, WS ",");
        const char *k = p + 1, *v = *p == '"' ? value_end(p) : NULL;
        if (!v)
            return NULL;
        size_t klen = (size_t)(v - 1 - k);
        v += strspn(v, WS);
        if (*v++ != ':')
            return NULL;
        v += strspn(v, WS);
        if (klen == strlen(key) && strncmp(k, key, klen) == 0)
            return v;
        if (!(p = value_end(v)))
            return NULL;
    }
}

/* A read of the tables' hand-over file in progress (kind "omp_table", ompt_report.c: a
 * "j LINE" item per line of a process's document): the block being read into text, and
 * each table kept's process, doc[i]'s. */
struct table_load {
    struct run_openmp *o;
    long pid[RUN_OMP_PROCESSES_MAX];
    long block_pid;
    FILE *f; /* NULL between blocks */
    char *text;
    size_t len;
};

static void block_drop(struct table_load *c)
{
    if (c->f)
        fclose(c->f);
    free(c->text);
    c->f = NULL;
    c->text = NULL;
}

static int table_head(void *ctx, long pid, int nnames, uint64_t dropped)
{
    struct table_load *c = ctx;
    (void)dropped;
    (void)nnames; /* (a table has none: a name line is refused) */
    c->block_pid = pid;
    c->f = open_memstream(&c->text, &c->len);
    return c->f ? 0 : -1;
}

static int table_name(void *ctx, const char *name)
{
    (void)ctx;
    (void)name;
    return -1; /* a table block has none */
}

static int table_line(void *ctx, const char *line)
{
    struct table_load *c = ctx;
    if (line[0] != 'j' || line[1] != ' ')
        return -1;
    fputs(line + 2, c->f);
    fputc('\n', c->f);
    return 0;
}

/* A process's table kept where it is one whole JSON object within the bound: in its
 * process's place, or for a process whose earlier image already handed one over in that
 * one's (the later image's, as when each wrote ompt_PID.json); past RUN_OMP_PROCESSES_MAX
 * the lowest process ids are kept, as the folder's files were read. Else counted unread. */
static int table_end(void *ctx)
{
    struct table_load *c = ctx;
    struct run_openmp *o = c->o;
    int closed = fclose(c->f) == 0;
    c->f = NULL;
    const char *end = closed && c->len < TABLE_MAX && c->text[0] == '{' ? value_end(c->text) : NULL;
    int whole = end && end[strspn(end, WS)] == 0, slot = -1;
    for (int i = 0; whole && i < o->ndocs; i++)
        if (c->pid[i] == c->block_pid)
            slot = i;
    if (whole && slot < 0 && o->ndocs < RUN_OMP_PROCESSES_MAX) {
        slot = o->ndocs++;
        o->doc[slot] = NULL;
    } else if (whole && slot < 0) {
        int top = 0; /* the highest process's table goes, this one's or a kept one's */
        for (int i = 1; i < o->ndocs; i++)
            top = c->pid[i] > c->pid[top] ? i : top;
        slot = c->pid[top] > c->block_pid ? top : -1;
        o->unread++;
    } else if (!whole) {
        o->unread++;
    }
    if (slot >= 0) {
        free(o->doc[slot]);
        o->doc[slot] = c->text;
        c->pid[slot] = c->block_pid;
    } else {
        free(c->text);
    }
    c->text = NULL;
    return 0;
}

/* The tables in the order of their processes' ids. */
static void order_tables(struct table_load *c)
{
    struct run_openmp *o = c->o;
    for (int i = 1; i < o->ndocs; i++)
        for (int j = i; j > 0 && c->pid[j - 1] > c->pid[j]; j--) {
            long p = c->pid[j];
            char *d = o->doc[j];
            c->pid[j] = c->pid[j - 1], o->doc[j] = o->doc[j - 1];
            c->pid[j - 1] = p, o->doc[j - 1] = d;
        }
}

void run_openmp_collect(struct run_state *s)
{
    static const struct handover_kind kind = {"omp_table",
                                              "omp_table PID NAMES LINES DROPPED",
                                              "a line of a table (j TEXT)",
                                              table_head,
                                              table_name,
                                              table_line,
                                              table_end};
    struct run_openmp *o = &s->omp;
    struct table_load c = {.o = o};
    char fault[512];
    if (!o->asked)
        return;
    int rc = handover_load(o->tables, &kind, &c, fault, sizeof fault);
    if (rc < 0) { /* the tables before the fault are kept, the faulty one counted unread */
        fprintf(stderr, "papi_run: OpenMP tables: %s\n", fault);
        block_drop(&c);
        o->unread++;
    }
    order_tables(&c);
    unlink(o->tables);
    if (o->ndocs > 0) {
        say(o, RUN_OMP_MEASURED, "");
    } else if (s->exited && WIFSIGNALED(s->status)) {
        /* The tool writes its table at the runtime's end, which a killed program never
         * reaches: that, not a tool of the program's own, is why none came. */
        char why[sizeof o->reason];
        snprintf(why, sizeof why,
                 "no process wrote a table: the program was killed by signal %d (%s) before "
                 "the tool wrote its file",
                 WTERMSIG(s->status), strsignal(WTERMSIG(s->status)));
        say(o, RUN_OMP_UNREPORTED, why);
    }
}

/* Whether papi_run says anything of OpenMP: the program names a runtime, or a table came. */
static int openmp_program(const struct run_openmp *o)
{
    return o->runtime != RUN_OMP_NONE || o->ndocs > 0 || o->unread > 0;
}

void run_openmp_write(struct jw *w, const struct run_state *s)
{
    const struct run_openmp *o = &s->omp;
    static const char *const runtime_word[] = {"", "libgomp", "libomp"};
    if (!openmp_program(o))
        return;
    jw_obj_begin(w, "openmp");
    jw_str(w, "program_runtime", runtime_word[o->runtime]);
    jw_str(w, "libomp_preloaded", o->libomp);
    jw_str(w, "route", o->route ? o->route : "");
    jw_str(w, "interposer_preloaded", o->interposer);
    jw_str(w, "user_tools", o->user_tools);
    jw_str(w, "status", status_word[o->status]);
    jw_str(w, "reason", o->reason);
    jw_uint(w, "tables_unread", (unsigned)o->unread);
    jw_arr_begin(w, "processes");
    for (int i = 0; i < o->ndocs; i++)
        jw_raw(w, NULL, o->doc[i]);
    jw_arr_end(w);
    jw_obj_end(w);
}

/* "0.625", or "-" for the null of an efficiency that cannot be had. */
static const char *share(const char *eff, const char *key, char *buf, size_t len)
{
    const char *v = eff ? member(eff, key) : NULL;
    char *end;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v)
        return "-";
    snprintf(buf, len, "%.3f", x);
    return buf;
}

/* A string member's text, as written (escapes kept), into out. */
static void string_of(const char *obj, const char *key, char *out, size_t len)
{
    const char *v = member(obj, key), *end = v && *v == '"' ? value_end(v) : NULL;
    snprintf(out, len, "%.*s", end ? (int)(end - v - 2) : 0, end ? v + 1 : "");
}

#define TOP_REGIONS 3

/* " in region 'NAME'" and/or " in MPI_Pcontrol region 'NAME'": the regions the tool filed
 * a parallel region under (ompt.schema.json named_region, mpi_region); "" outside both. */
static void context_of(const char *region, char *out, size_t len)
{
    char named[160] = "", mpi[160] = "";
    const char *n = member(region, "named_region"), *m = member(region, "mpi_region");
    if (n && *n == '{')
        string_of(n, "name", named, sizeof named);
    if (m && *m == '{')
        string_of(m, "name", mpi, sizeof mpi);
    if (named[0] && mpi[0])
        snprintf(out, len, " in region '%s', MPI_Pcontrol region '%s'", named, mpi);
    else if (named[0] || mpi[0])
        snprintf(out, len, " in %sregion '%s'", named[0] ? "" : "MPI_Pcontrol ",
                 named[0] ? named : mpi);
    else
        out[0] = '\0';
}

/* The regions that lost the most thread time (lost_ns), most first: one line. */
static void banner_top(const char *regions)
{
    const char *top[TOP_REGIONS] = {0};
    double lost[TOP_REGIONS] = {0};
    for (const char *p = regions && *regions == '[' ? regions + 1 : NULL; p;) {
        p += strspn(p, WS ",");
        const char *r = p, *l = *p == '{' ? member(r, "lost_ns") : NULL;
        if (*p == ']' || !(p = value_end(p)))
            break;
        double x = l ? strtod(l, NULL) : 0;
        for (int i = 0; i < TOP_REGIONS && x > 0; i++)
            if (!top[i] || x > lost[i]) {
                memmove(top + i + 1, top + i, (TOP_REGIONS - 1 - i) * sizeof *top);
                memmove(lost + i + 1, lost + i, (TOP_REGIONS - 1 - i) * sizeof *lost);
                top[i] = r, lost[i] = x;
                break;
            }
    }
    for (int i = 0; i < TOP_REGIONS && top[i]; i++) {
        char name[512], where[400], b[2][32];
        const char *eff = member(top[i], "efficiency");
        string_of(top[i], "name", name, sizeof name);
        context_of(top[i], where, sizeof where);
        fprintf(stderr, "%s%s%s: %.1f ms lost (load balance %s, scheduling %s)%s",
                i ? "; " : " OpenMP: most thread time lost in ", name, where, lost[i] * 1e-6,
                share(eff, "load_balance", b[0], sizeof b[0]),
                share(eff, "scheduling", b[1], sizeof b[1]),
                i + 1 < TOP_REGIONS && top[i + 1] ? "" : "\n");
    }
}

/* What the efficiencies are not over: threads that found none of the tool's slots (more
 * threads alive at once than it keeps), their implicit tasks and instances (ompt.schema.json
 * not_measured, efficiency.unmeasured_*); nothing when all were measured. */
static void banner_unmeasured(const char *doc, const char *eff)
{
    const char *nm = member(doc, "not_measured");
    const char *th = nm ? member(nm, "threads_without_slot") : NULL;
    const char *mx = nm ? member(nm, "threads_max") : NULL;
    const char *tk = eff ? member(eff, "unmeasured_implicit_tasks") : NULL;
    const char *in = eff ? member(eff, "unmeasured_instances") : NULL;
    unsigned long long threads = th ? strtoull(th, NULL, 10) : 0;
    if (!threads)
        return;
    fprintf(stderr,
            " OpenMP: %llu threads found no slot of the tool's %ld (more alive at once): their "
            "%llu implicit tasks and %llu forked instances not measured, the regions they ran "
            "in have no efficiencies and the process's are over the others\n",
            threads, mx ? atol(mx) : 0L, tk ? strtoull(tk, NULL, 10) : 0ULL,
            in ? strtoull(in, NULL, 10) : 0ULL);
}

/* What counting per region cost, when it matters (ompt.schema.json counters.cost_share
 * 0.01 or more: regions as short as a few reads), with how to do without it. */
static void banner_counting_cost(const char *doc)
{
    const char *c = member(doc, "counters");
    const char *share = c ? member(c, "cost_share") : NULL;
    const char *read_ns = c ? member(c, "read_ns") : NULL;
    double x = share && *share != 'n' ? strtod(share, NULL) : 0;
    if (x < 0.01 || !read_ns)
        return;
    double per_read = strtod(read_ns, NULL);
    fprintf(stderr,
            " OpenMP: counting the events per region cost about %.1f us per region and thread "
            "(two reads of %.0f ns), %.0f%% of the counted threads' work in the regions; "
            "PAPI_OMPT_EVENTS= (set, empty) keeps the tables without the counts\n",
            2 * per_read * 1e-3, per_read, 100 * x);
}

/* Threads that shared cores (ompt.schema.json cpu_time.on_cpu below 0.9): the wall-time
 * load balance counts a thread waiting for a core as busy; the one on CPU time beside it. */
static void banner_cpu_time(const char *where, const char *cpu, const char *eff, const char *end)
{
    const char *on = cpu && *cpu == '{' ? member(cpu, "on_cpu") : NULL;
    double x = on && *on != 'n' ? strtod(on, NULL) : 1;
    if (x >= 0.9)
        return;
    char b[2][32];
    fprintf(stderr,
            "%sthe threads were on a CPU %.0f%% of their work time (they shared cores, or slept "
            "or waited for I/O in it): load balance on CPU time %s, on wall time %s%s",
            where, 100 * x, share(cpu, "load_balance", b[0], sizeof b[0]),
            share(eff, "load_balance", b[1], sizeof b[1]), end);
}

static void banner_table(const char *doc)
{
    char b[4][32];
    const char *eff = member(doc, "efficiency"), *regions = member(doc, "regions");
    const char *pid = member(doc, "pid");
    int nregions = 0;
    for (const char *p = regions && *regions == '[' ? regions + 1 : NULL; p;) {
        p += strspn(p, WS ",");
        if (*p == ']' || !(p = value_end(p)))
            break;
        nregions++;
    }
    fprintf(stderr,
            " OpenMP (process %ld): %d parallel region%s; serialization %s, load balance %s, "
            "scheduling %s: parallel efficiency %s\n",
            pid ? atol(pid) : 0L, nregions, nregions == 1 ? "" : "s",
            share(eff, "serialization", b[0], sizeof b[0]),
            share(eff, "load_balance", b[1], sizeof b[1]),
            share(eff, "scheduling", b[2], sizeof b[2]), share(eff, "parallel", b[3], sizeof b[3]));
    banner_unmeasured(doc, eff);
    banner_cpu_time(" OpenMP: ", member(doc, "cpu_time"), eff, "\n");
    banner_counting_cost(doc);
    banner_top(regions);
}

/* papi_run's default events not counted per region (set_events): why, and how to; not
 * where a process counted PAPI_EVENTS' instead (the tool's fallback). */
static void banner_counts_off(const struct run_openmp *o)
{
    const char *c = o->ndocs ? member(o->doc[0], "counters") : NULL;
    const char *events = c ? member(c, "events") : NULL;
    if (!o->counts_off || !events || events[strspn(events + 1, WS) + 1] != ']')
        return;
    fprintf(stderr, " OpenMP: the events are not counted per region and thread by default here: no "
                    "user-space read of the counters (x86 rdpmc, arm64 kernel.perf_user_access=1), "
                    "and two read() per region and thread cost microseconds; -e EVENT or "
                    "PAPI_OMPT_EVENTS=EVENT,... counts them (papi_run(1))\n");
}

void run_openmp_banner(const struct run_state *s)
{
    const struct run_openmp *o = &s->omp;
    if (!openmp_program(o))
        return;
    if (o->interposer[0])
        fprintf(stderr,
                " OpenMP: runtime libgomp (GOMP_* interposed): the program's own, its entry "
                "points seen through %s (LD_PRELOAD); what gcc inlines calls none (static loops "
                "without a chunk, reductions, a single's end): --libomp runs it under LLVM's "
                "libomp, whose OMPT sees those\n",
                o->interposer);
    else if (o->libomp[0])
        fprintf(stderr,
                " OpenMP: runtime LLVM libomp (OMPT): a libgomp program, run under LLVM's %s "
                "(LD_PRELOAD, --libomp) for its OMPT interface; without --libomp it keeps libgomp "
                "(GOMP_* interposed) for a program that relies on libgomp's own behaviour "
                "(GOMP_* variables, its affinity, its timing)\n",
                o->libomp);
    else if (o->route)
        fprintf(stderr, " OpenMP: runtime %s: the program's own\n", o->route);
    if (o->user_tools[0])
        fprintf(stderr,
                " OpenMP: OMP_TOOL_LIBRARIES names %s: papi_run's tool is added after it, "
                "loaded only where it declines\n",
                o->user_tools);
    for (int i = 0; i < o->ndocs && i < 4; i++)
        banner_table(o->doc[i]);
    banner_counts_off(o);
    if (o->ndocs > 4)
        fprintf(stderr, " OpenMP: %d more processes' tables in the file\n", o->ndocs - 4);
    if (o->unread)
        fprintf(stderr, " OpenMP: %d process table%s not read (more than %d, or not whole)\n",
                o->unread, o->unread == 1 ? "" : "s", RUN_OMP_PROCESSES_MAX);
    if (o->status != RUN_OMP_MEASURED)
        fprintf(stderr, " OpenMP: no table: %s\n", o->reason);
}

void run_openmp_free(struct run_state *s)
{
    for (int i = 0; i < s->omp.ndocs; i++)
        free(s->omp.doc[i]);
    s->omp.ndocs = 0;
    run_omp_live_free(s);
}
