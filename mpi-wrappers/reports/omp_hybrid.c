/* omp_hybrid.c: the job's OpenMP and hybrid efficiencies (omp_hybrid.h). The tool is
 * asked through papi_ompt_sums (src-c/ompt/ompt_tool.c), found among the loaded objects
 * (src-c/common/ompt_query.h). */
#include <stdio.h>
#include <string.h>

#include "omp_hybrid.h"
#include "papi_region_context.h"
#include "json_writer.h"

static struct pmpi_omp at_init; /* the sums at MPI_Init */

/* The tool's sums now; regions -1 when it is not loaded (or not started), -2 when
 * libgomp runs the program instead (no OMPT), -3 when the runtime has another tool (a
 * runtime starts one: the program's own comes first, and ours must not pass unsaid). */
static void ask_tool(struct pmpi_omp *o)
{
    int gomp = 0;
    double v[4];
    memset(o, 0, sizeof *o);
    int (*sums)(double *) = (int (*)(double *))ompt_query_lookup("papi_ompt_sums", &gomp);
    o->regions = sums ? sums(v) : -1;
    if (o->regions >= 0) {
        o->parallel_ns = v[0], o->useful_ns = v[1], o->maxu_team_ns = v[2], o->wall_team_ns = v[3];
        /* the same call's CPU-time sums (one merge of the tool's tables) */
        int (*cpu)(double *) = (int (*)(double *))ompt_query_lookup("papi_ompt_cpu_sums", NULL);
        o->cpu_known = cpu && cpu(v) == 0;
        if (o->cpu_known)
            o->cpu_ns = v[0], o->cpu_useful_ns = v[1], o->maxc_team_ns = v[2];
    } else if (gomp)
        o->regions = -2;
    else if (ompt_query_other_tool(o->other_tool, sizeof o->other_tool, &o->other_in_program) == 0)
        o->regions = -3;
}

void pmpi_omp_tool_work(int begin)
{
    papi_ompt_query_tool_work_fn work =
        (papi_ompt_query_tool_work_fn)ompt_query_lookup("papi_ompt_query_tool_work", NULL);
    if (work)
        work(PAPI_OMPT_QUERY_VERSION, begin);
}

void pmpi_omp_start(void)
{
    ask_tool(&at_init);
}

void pmpi_omp_query(struct pmpi_omp *o)
{
    ask_tool(o);
    if (o->regions < 0 || at_init.regions < 0)
        return; /* the tool started after MPI_Init: all its sums are the run's */
    o->parallel_ns -= at_init.parallel_ns, o->useful_ns -= at_init.useful_ns;
    o->maxu_team_ns -= at_init.maxu_team_ns, o->wall_team_ns -= at_init.wall_team_ns;
    if (o->cpu_known && at_init.cpu_known)
        o->cpu_ns -= at_init.cpu_ns, o->cpu_useful_ns -= at_init.cpu_useful_ns,
            o->maxc_team_ns -= at_init.maxc_team_ns;
}

void pmpi_omp_job_add(struct pmpi_omp_job *j, const struct pmpi_omp *o, double wall_s, double mpi_s)
{
    j->ranks++;
    j->ranks_gomp += o->regions == -2;
    if (o->regions == -3 && j->ranks_other++ == 0) {
        j->other_in_program = o->other_in_program;
        snprintf(j->other_tool, sizeof j->other_tool, "%.*s", (int)sizeof o->other_tool - 1,
                 o->other_tool);
    }
    if (o->regions < 0)
        return;
    j->ranks_with++;
    j->parallel_ns += o->parallel_ns;
    j->outside_mpi_ns += (wall_s > mpi_s ? wall_s - mpi_s : 0) * 1e9;
    j->useful_ns += o->useful_ns;
    j->maxu_team_ns += o->maxu_team_ns;
    j->wall_team_ns += o->wall_team_ns;
    if (o->cpu_known && o->cpu_ns > 0) {
        j->ranks_cpu++;
        j->cpu_ns += o->cpu_ns, j->cpu_useful_ns += o->cpu_useful_ns;
        j->maxc_team_ns += o->maxc_team_ns;
    }
}

/* The job's factors on CPU time (pop_factors.h), both -1 unless every measured rank counted
 * its threads' CPU time. */
static struct pop_omp_cpu cpu_factors(const struct pmpi_omp_job *j)
{
    if (j->ranks_with == 0 || j->ranks_cpu < j->ranks_with)
        return (struct pop_omp_cpu){-1, -1};
    struct pop_omp_cpu_in in = {j->cpu_ns, j->cpu_useful_ns, j->maxc_team_ns};
    return pop_omp_cpu_factors(&in);
}

#define GOMP_WHY                                                                           \
    "libgomp (gcc, gfortran) runs the program, which has no OMPT interface: no OpenMP or " \
    "hybrid efficiency; run the ranks under papi_run (mpirun ... papi_run ./app), which "  \
    "interposes libgomp's GOMP_* entry points for the tool (libpapi_gomp.so) or with "     \
    "--libomp gives them LLVM's libomp, or preload libomp.so.5 before the wrapper"

/* Why another tool has the runtime (ranks_other > 0): the runtime starts one tool. */
static void other_why(const struct pmpi_omp_job *j, char *why, size_t len)
{
    if (j->other_in_program)
        snprintf(why, len,
                 "the program's own OMPT tool (ompt_start_tool in %s) is the one the OpenMP "
                 "runtime started, which starts one tool: the project's (libpapi_ompt.so) did "
                 "not displace it and measured nothing: no OpenMP or hybrid efficiency",
                 j->other_tool);
    else
        snprintf(why, len,
                 "the OMPT tool %s is the one the OpenMP runtime started, which starts one "
                 "tool (the first of OMP_TOOL_LIBRARIES that accepts): the project's "
                 "(libpapi_ompt.so) did not displace it and measured nothing: no OpenMP or "
                 "hybrid efficiency; name libpapi_ompt.so first to measure them",
                 j->other_tool);
}

/* The job's OpenMP efficiencies (pop_factors.h), over the ranks' time outside MPI. */
static struct pop_omp_factors efficiencies(const struct pmpi_omp_job *j)
{
    struct pop_omp_in in = {j->parallel_ns, j->useful_ns, j->maxu_team_ns, j->wall_team_ns};
    return pop_omp_factors(&in, j->outside_mpi_ns, POP_CAP_EACH);
}

/* v with 6 decimals; null when negative (not known). */
static void number(struct jw *w, const char *key, double v)
{
    if (v >= 0)
        jw_fixed(w, key, v, 6);
    else
        jw_null(w, key);
}

void pmpi_omp_json(struct jw *w, const struct pmpi_omp_job *j, double mpi)
{
    struct pop_omp_factors e = efficiencies(j);
    int all = j->ranks_with == j->ranks && j->ranks > 0;
    jw_obj_begin(w, "openmp");
    jw_int(w, "ranks_measured", j->ranks_with);
    number(w, "serialization", all ? e.serialization : -1);
    number(w, "load_balance", all ? e.load_balance : -1);
    number(w, "scheduling", all ? e.scheduling : -1);
    number(w, "parallel_efficiency", all ? e.parallel : -1);
    number(w, "mpi_parallel_efficiency", mpi);
    number(w, "hybrid_parallel_efficiency", all ? pop_hybrid(mpi, e.parallel) : -1);
    struct pop_omp_cpu c = cpu_factors(j);
    if (all && c.on_cpu >= 0) {
        jw_obj_begin(w, "cpu_time");
        number(w, "on_cpu", c.on_cpu);
        number(w, "load_balance", c.load_balance);
        jw_obj_end(w);
    } else {
        jw_null(w, "cpu_time");
    }
    char other[512];
    other_why(j, other, sizeof other);
    const char *why = all              ? ""
                      : j->ranks_gomp  ? GOMP_WHY
                      : j->ranks_other ? other
                      : j->ranks_with  ? "some ranks ran without the OMPT tool: no job figures"
                                       : "no rank ran the OMPT tool (no OpenMP runtime with "
                                         "OMPT loaded it): no OpenMP figures";
    jw_str(w, "note", why);
    jw_obj_end(w);
}

void pmpi_omp_print(FILE *out, const struct pmpi_omp_job *j, double mpi)
{
    struct pop_omp_factors e = efficiencies(j);
    if (j->ranks_gomp && j->ranks_with < j->ranks) {
        fprintf(out, "papi_mpi: OpenMP: %d of %d ranks: %s\n", j->ranks_gomp, j->ranks, GOMP_WHY);
        return;
    }
    if (j->ranks_other && j->ranks_with < j->ranks) {
        char other[512];
        other_why(j, other, sizeof other);
        fprintf(out, "papi_mpi: OpenMP: %d of %d ranks: %s\n", j->ranks_other, j->ranks, other);
        return;
    }
    if (j->ranks_with == 0)
        return;
    if (j->ranks_with < j->ranks || e.parallel < 0) {
        fprintf(out,
                "papi_mpi: OpenMP: %d of %d ranks measured by the OMPT tool: no hybrid "
                "efficiency\n",
                j->ranks_with, j->ranks);
        return;
    }
    fprintf(out,
            "papi_mpi: hybrid parallel efficiency %.3f = MPI parallel efficiency %.3f x OpenMP "
            "parallel efficiency %.3f (serialization %.3f, load balance %.3f, scheduling %.3f)\n",
            pop_hybrid(mpi, e.parallel), mpi, e.parallel, e.serialization, e.load_balance,
            e.scheduling);
    /* Threads that waited for a core count as busy in the wall-time load balance (as
     * papi_run's banner says it: on CPU below 0.9) */
    struct pop_omp_cpu c = cpu_factors(j);
    if (c.on_cpu >= 0 && c.on_cpu < 0.9)
        fprintf(out,
                "papi_mpi: OpenMP: the threads were on a CPU %.0f%% of their work time (they "
                "shared cores, or slept or waited for I/O in it): load balance on CPU time "
                "%.3f, on wall time %.3f\n",
                100 * c.on_cpu, c.load_balance, e.load_balance);
}

/* key: {"load_balance": .., "scheduling": .., "parallel": ..} (serialization first with
 * with_serialization), and the implicit tasks the tool could not measure (unmeasured,
 * none written when negative: not known). */
static void efficiency_json(struct jw *w, const char *key, const struct pop_omp_factors *e,
                            int with_serialization, long long unmeasured)
{
    jw_obj_begin(w, key);
    const char *keys[] = {"serialization", "load_balance", "scheduling", "parallel"};
    const double v[] = {e->serialization, e->load_balance, e->scheduling, e->parallel};
    for (int i = with_serialization ? 0 : 1; i < 4; i++) {
        if (v[i] >= 0)
            jw_fixed(w, keys[i], v[i] > 1 ? 1 : v[i], 4);
        else
            jw_null(w, keys[i]);
    }
    if (unmeasured >= 0)
        jw_int(w, "unmeasured_implicit_tasks", unmeasured);
    jw_obj_end(w);
}

static void parallel_json(struct jw *w, const struct papi_ompt_table *t, int row, long named)
{
    const struct papi_ompt_parallel *p = &t->regions[row];
    char name[160];
    jw_obj_begin(w, NULL);
    jw_str(w, "name", p->name);
    jw_hex(w, "address", (unsigned long long)p->address);
    jw_str(w, "site", p->site);
    if (named > 0 && papi_region_context_name(PAPI_CONTEXT_NAMED, named, name, sizeof name) == 0)
        jw_str(w, "named_region", name);
    else
        jw_null(w, "named_region");
    jw_uint(w, "instances", (unsigned long long)p->instances);
    jw_uint(w, "outermost_instances", (unsigned long long)p->outermost_instances);
    jw_secs(w, "wall_s", (long long)p->wall_ns);
    jw_secs(w, "lost_s", (long long)p->lost_ns);
    jw_uint(w, "team_max", p->team_max);
    struct pop_omp_factors e = {-1, p->load_balance, p->scheduling, p->parallel};
    efficiency_json(w, "efficiency", &e, 0, (long long)p->unmeasured_tasks);
    ompt_query_constructs_json(w, t, row, 1);
    jw_obj_end(w);
}

void pmpi_omp_region_json(struct jw *w, const struct ompt_query *q, int slot, long long wall_ns,
                          long long mpi_ns)
{
    if (!q->have)
        return;
    struct papi_ompt_context sum = {0};
    jw_obj_begin(w, "openmp");
    jw_arr_begin(w, "parallel_regions");
    for (int c = 0; c < q->table.ncontexts; c++) {
        const struct papi_ompt_context *x = &q->table.contexts[c];
        if (x->dropped || x->mpi != slot)
            continue;
        ompt_query_add(&sum, x);
        for (int i = 0; i < x->count; i++)
            parallel_json(w, &q->table, x->first + i, x->named);
    }
    jw_arr_end(w);
    struct pop_omp_factors e =
        ompt_query_efficiency(&sum, (double)(wall_ns > mpi_ns ? wall_ns - mpi_ns : 0));
    jw_secs(w, "parallel_s", (long long)sum.parallel_ns);
    efficiency_json(w, "efficiency", &e, 1, (long long)sum.unmeasured_tasks);
    jw_obj_end(w);
}

void pmpi_omp_row_json(struct jw *w, double wall_s, double mpi_s)
{
    struct pmpi_omp o;
    pmpi_omp_query(&o);
    if (o.regions < 0)
        return;
    struct papi_ompt_context sum = {.parallel_ns = o.parallel_ns,
                                    .useful_ns = o.useful_ns,
                                    .maxu_team_ns = o.maxu_team_ns,
                                    .wall_team_ns = o.wall_team_ns};
    struct pop_omp_factors e =
        ompt_query_efficiency(&sum, (wall_s > mpi_s ? wall_s - mpi_s : 0) * 1e9);
    jw_obj_begin(w, "openmp");
    jw_secs(w, "parallel_s", (long long)o.parallel_ns);
    efficiency_json(w, "efficiency", &e, 1, -1);
    jw_obj_end(w);
}
