/* ompt_tool.c: the start of the project's OMPT tool, libpapi_ompt.so (README.md). The
 * OpenMP runtime looks up ompt_start_tool in the libraries OMP_TOOL_LIBRARIES names; a
 * program that names none never loads this library and pays nothing. initialize registers
 * the callbacks (ompt_callbacks.c) and says, one line each, which ones the runtime will
 * not call and what that costs the report; finalize writes the report (ompt_report.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mono_clock.h"
#include "ompt_api.h"
#include "ompt_callbacks.h"
#include "ompt_construct_callbacks.h"
#include "ompt_counters.h"
#include "ompt_live_sums.h"
#include "ompt_report.h"
#include "ompt_share.h"
#include "ompt_spans.h"
#include "ompt_table.h"
#include "ompt_trace.h"

static struct ompt_run_info run_info;
static _Atomic uint64_t exit_ns; /* when the program called exit (0: not yet) */
static pid_t tool_pid;           /* the process that initialized the tool */
/* The MPI wrapper's own work (papi_ompt_query_tool_work): the open stretch's start (0:
 * none open) and the closed stretches' sum, ns, left out of the run's wall time. */
static _Atomic uint64_t tool_work_from, tool_work_ns;

/* The program's end is its exit, not the runtime's teardown after it (joining its
 * threads, which on a loaded machine takes up to 100 ms): an atexit handler registered
 * after the runtime's own runs before that teardown. */
static void at_program_exit(void)
{
    atomic_store(&exit_ns, mono_clock_ns());
}

/* What the report loses without each callback. */
static const char *loss_without(ompt_callbacks_t event)
{
    switch (event) {
    case ompt_callback_sync_region_wait:
        return "a barrier's wait is the whole barrier region's time";
    case ompt_callback_sync_region:
        return "barrier and taskwait waits are not measured, a worker's work runs to its task's "
               "end";
    case ompt_callback_implicit_task:
        return "no thread's work or waits are measured";
    case ompt_callback_parallel_begin:
    case ompt_callback_parallel_end:
        return "no parallel region is measured";
    case ompt_callback_task_schedule:
        return "explicit tasks run while waiting count as the wait";
    case ompt_callback_thread_end:
        return "threads_ended counts no thread";
    default:
        return "the threads' kinds are not recorded";
    }
}

static int is_declined(ompt_set_result_t r)
{
    return r == ompt_set_error || r == ompt_set_never || r == ompt_set_impossible;
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback) {
        fprintf(stderr,
                "papi_ompt: the OpenMP runtime (%s) has no ompt_set_callback: the tool "
                "is off\n",
                run_info.runtime);
        return 0;
    }
    ompt_counters_start(); /* first: the library's start is the tool's time, not the run's */
    ompt_share_start();
    ompt_clock_start();
    ompt_live_start(ompt_clock_origin());
    ompt_spans_start();
    tool_pid = getpid();
    atexit(at_program_exit);
    int have[64] = {0};
    for (int i = 0; i < ompt_callback_count; i++) {
        const struct ompt_callback_entry *e = &ompt_callback_table[i];
        ompt_set_result_t r = set_callback(e->event, e->callback);
        have[e->event] = !is_declined(r);
        if (have[e->event])
            continue;
        if (e->detail) { /* a construct's: said in the report's constructs_declined */
            if (run_info.ndeclined_detail < OMPT_UNSUPPORTED_MAX)
                run_info.declined_detail[run_info.ndeclined_detail++] = e->name;
            continue;
        }
        fprintf(stderr,
                "papi_ompt: the OpenMP runtime (%s) does not support the %s callback "
                "(set_callback answered %d): %s\n",
                run_info.runtime, e->name, (int)r, loss_without(e->event));
        if (run_info.nunsupported < OMPT_UNSUPPORTED_MAX)
            run_info.unsupported[run_info.nunsupported++] = e->name;
    }
    ompt_callbacks_support(have[ompt_callback_sync_region], have[ompt_callback_sync_region_wait]);
    ompt_constructs_support(have[ompt_callback_dispatch]);
    return 1; /* keep the tool: finalize is called */
}

static void tool_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    if (getpid() != tool_pid) {
        /* A forked child holds its parent's sums: its report would count them twice. */
        fprintf(stderr,
                "papi_ompt: process %ld, forked from %ld after OpenMP started: its "
                "parallel regions are not reported (its parent's are)\n",
                (long)getpid(), (long)tool_pid);
        return;
    }
    uint64_t end = atomic_load(&exit_ns), origin = ompt_clock_origin();
    end = end ? end : mono_clock_ns();
    uint64_t open = atomic_load(&tool_work_from), excluded = atomic_load(&tool_work_ns);
    if (open && end > open)
        excluded += end - (open > origin ? open : origin); /* begun, never ended */
    run_info.wall_ns = end - origin;
    run_info.excluded_ns = excluded < run_info.wall_ns ? excluded : run_info.wall_ns;
    run_info.wall_ns -= run_info.excluded_ns;
    ompt_report_write(&run_info);
    ompt_trace_save_for_papi_run();
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(
    unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
    run_info.omp_version = omp_version;
    snprintf(run_info.runtime, sizeof run_info.runtime, "%s",
             runtime_version ? runtime_version : "unknown runtime");
    return &result;
}

/* For the MPI wrapper at MPI_Finalize (mpi-wrappers/reports/omp_hybrid.c, found by
 * dlsym): this process's OpenMP so far, as doubles in ns: out[0] the outermost parallel
 * regions' wall time, out[1] the threads' useful time in them, out[2] the sum over those
 * regions of team size x the largest useful time, out[3] of team size x wall time (the
 * run efficiencies' sums, src-c/common/pop_factors.h). Called between parallel regions (the
 * threads idle). The regions seen, 0 when none, -1 when the tool is off or out of memory. */
/* The CPU-time sums of the calling thread's last papi_ompt_sums (one merge of the tables
 * gives both), for papi_ompt_cpu_sums; cpu_ns 0 where none was counted. */
static _Thread_local struct pop_omp_cpu_in last_cpu;

__attribute__((visibility("default"))) int papi_ompt_sums(double out[4])
{
    struct pop_omp_in sums;
    memset(&last_cpu, 0, sizeof last_cpu);
    if (getpid() != tool_pid)
        return -1; /* not started, or a forked child holding its parent's sums */
    int n = ompt_report_sums(&sums, &last_cpu);
    out[0] = sums.parallel_ns;
    out[1] = sums.useful_ns, out[2] = sums.maxu_team_ns, out[3] = sums.wall_team_ns;
    return n;
}

/* For the MPI wrapper (mpi-wrappers/reports/omp_hybrid.c), right after papi_ompt_sums on the
 * same thread: the CPU-time sums (pop_factors.h's pop_omp_cpu_in: CPU time, useful time,
 * team x largest CPU time) of the outermost regions whose task clock was counted per
 * thread, taken in that call: 0, or -1 where none was. A function of its own: a wrapper
 * that knows only papi_ompt_sums still works. */
__attribute__((visibility("default"))) int papi_ompt_cpu_sums(double out[3])
{
    if (last_cpu.cpu_ns <= 0)
        return -1;
    out[0] = last_cpu.cpu_ns, out[1] = last_cpu.useful_ns, out[2] = last_cpu.maxc_team_ns;
    return 0;
}

/* For the MPI wrapper (src-c/common/ompt_query.h): its own work begins (begin 1) or ends
 * (0) now; the stretch, from the tool's start at the earliest, is not the program's. */
__attribute__((visibility("default"))) void papi_ompt_query_tool_work(unsigned version, int begin)
{
    if (version != PAPI_OMPT_QUERY_VERSION || getpid() != tool_pid)
        return;
    uint64_t now = mono_clock_ns(), origin = ompt_clock_origin();
    if (begin) {
        atomic_store(&tool_work_from, now);
        return;
    }
    uint64_t from = atomic_exchange(&tool_work_from, 0);
    if (from && now > from)
        atomic_fetch_add(&tool_work_ns, now - (from > origin ? from : origin));
}

/* For the region API's report and the MPI wrapper (src-c/common/ompt_query.h): this
 * process's parallel regions by the named and MPI_Pcontrol regions they were forked in.
 * 0, or -1 (out empty) for another version, when the tool is off, in a forked child or
 * out of memory. Free the table with papi_ompt_query_free. */
__attribute__((visibility("default"))) int papi_ompt_query_table(unsigned version,
                                                                 struct papi_ompt_table *out)
{
    memset(out, 0, sizeof *out);
    if (version != PAPI_OMPT_QUERY_VERSION || getpid() != tool_pid)
        return -1;
    return ompt_table_build(out);
}

__attribute__((visibility("default"))) void papi_ompt_query_free(struct papi_ompt_table *t)
{
    ompt_table_free(t);
}

/* For the region API's all-thread totals (src-c/common/ompt_query.h): the workers' share
 * of the process's counts; NULL for another version, with the counters off, before the
 * tool started or in a forked child. */
__attribute__((visibility("default"))) struct papi_ompt_share *papi_ompt_query_share(
    unsigned version)
{
    if (version != PAPI_OMPT_QUERY_VERSION || getpid() != tool_pid)
        return NULL;
    return ompt_share_get();
}

/* For the trace writers (src-c/common/trace_openmp.h): this process's OpenMP slices so
 * far, when a trace was asked for at the tool's start. */
__attribute__((visibility("default"))) int papi_ompt_query_spans(unsigned version,
                                                                 struct trace_omp_spans *s)
{
    memset(s, 0, sizeof *s);
    if (version != TRACE_OMP_QUERY_VERSION || getpid() != tool_pid)
        return -1;
    return ompt_trace_collect(s);
}
