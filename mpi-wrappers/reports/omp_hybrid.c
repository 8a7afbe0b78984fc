/* omp_hybrid.c: the job's OpenMP and hybrid efficiencies (omp_hybrid.h). The tool is
 * found among the loaded objects by its file name and asked through papi_ompt_sums
 * (src-c/ompt/ompt_tool.c): the runtime loads it privately (RTLD_LOCAL), so its symbol
 * is taken from its own handle. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "omp_hybrid.h"
#include "text_buffer.h"

struct found {
    void *tool;
    int gomp; /* libgomp is loaded (no OMPT interface) */
};

static int find_tool(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct found *f = data;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *name = slash ? slash + 1 : info->dlpi_name;
    f->gomp |= strncmp(name, "libgomp.so", 10) == 0;
    if (strcmp(name, "libpapi_ompt.so") == 0 && !f->tool)
        f->tool = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return 0;
}

static struct pmpi_omp at_init; /* the sums at MPI_Init */

/* The tool's sums now; regions -1 when it is not loaded (or not started), -2 when
 * libgomp runs the program instead (no OMPT). */
static void ask_tool(struct pmpi_omp *o)
{
    struct found f = {NULL, 0};
    double v[4];
    memset(o, 0, sizeof *o);
    dl_iterate_phdr(find_tool, &f);
    int (*sums)(double *) = f.tool ? (int (*)(double *))dlsym(f.tool, "papi_ompt_sums") : NULL;
    o->regions = sums ? sums(v) : -1;
    if (o->regions >= 0)
        o->parallel_ns = v[0], o->useful_ns = v[1], o->maxu_team_ns = v[2], o->wall_team_ns = v[3];
    else if (f.gomp)
        o->regions = -2;
    if (f.tool)
        dlclose(f.tool); /* the runtime's reference keeps it loaded */
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
}

void pmpi_omp_job_add(struct pmpi_omp_job *j, const struct pmpi_omp *o, double wall_s, double mpi_s)
{
    j->ranks++;
    j->ranks_gomp += o->regions == -2;
    if (o->regions < 0)
        return;
    j->ranks_with++;
    j->parallel_ns += o->parallel_ns;
    j->outside_mpi_ns += (wall_s > mpi_s ? wall_s - mpi_s : 0) * 1e9;
    j->useful_ns += o->useful_ns;
    j->maxu_team_ns += o->maxu_team_ns;
    j->wall_team_ns += o->wall_team_ns;
}

#define GOMP_WHY                                                                           \
    "libgomp (gcc, gfortran) runs the program, which has no OMPT interface: no OpenMP or " \
    "hybrid efficiency; run the ranks under papi_run (mpirun ... papi_run ./app), which "  \
    "gives them LLVM's libomp, or preload libomp.so.5 before the wrapper"

static double ratio(double a, double b)
{
    return b > 0 ? (a < b ? a / b : 1) : -1;
}

/* The four efficiencies, -1 where one cannot be formed. */
static void efficiencies(const struct pmpi_omp_job *j, double e[4])
{
    e[0] = ratio(j->parallel_ns, j->outside_mpi_ns);
    e[1] = ratio(j->useful_ns, j->maxu_team_ns);
    e[2] = ratio(j->maxu_team_ns, j->wall_team_ns);
    e[3] = e[0] >= 0 && e[1] >= 0 && e[2] >= 0 ? e[0] * e[1] * e[2] : -1;
}

static void number(struct tbuf *t, const char *key, double v)
{
    if (v >= 0)
        tb_fmt(t, ", \"%s\": %.6f", key, v);
    else
        tb_fmt(t, ", \"%s\": null", key);
}

void pmpi_omp_json(struct tbuf *t, const struct pmpi_omp_job *j, double mpi)
{
    double e[4];
    efficiencies(j, e);
    int all = j->ranks_with == j->ranks && j->ranks > 0;
    tb_fmt(t, ", \"openmp\": {\"ranks_measured\": %d", j->ranks_with);
    number(t, "serialization", all ? e[0] : -1);
    number(t, "load_balance", all ? e[1] : -1);
    number(t, "scheduling", all ? e[2] : -1);
    number(t, "parallel_efficiency", all ? e[3] : -1);
    number(t, "mpi_parallel_efficiency", mpi);
    number(t, "hybrid_parallel_efficiency", all && e[3] >= 0 ? mpi * e[3] : -1);
    tb_raw(t, ", \"note\": ");
    const char *why = all             ? ""
                      : j->ranks_gomp ? GOMP_WHY
                      : j->ranks_with ? "some ranks ran without the OMPT tool: no job figures"
                                      : "no rank ran the OMPT tool (no OpenMP runtime with "
                                        "OMPT loaded it): no OpenMP figures";
    tb_json(t, why);
    tb_raw(t, "}");
}

void pmpi_omp_print(FILE *out, const struct pmpi_omp_job *j, double mpi)
{
    double e[4];
    efficiencies(j, e);
    if (j->ranks_gomp && j->ranks_with < j->ranks) {
        fprintf(out, "papi_mpi: OpenMP: %d of %d ranks: %s\n", j->ranks_gomp, j->ranks, GOMP_WHY);
        return;
    }
    if (j->ranks_with == 0)
        return;
    if (j->ranks_with < j->ranks || e[3] < 0) {
        fprintf(out,
                "papi_mpi: OpenMP: %d of %d ranks measured by the OMPT tool: no hybrid "
                "efficiency\n",
                j->ranks_with, j->ranks);
        return;
    }
    fprintf(out,
            "papi_mpi: hybrid parallel efficiency %.3f = MPI parallel efficiency %.3f x OpenMP "
            "parallel efficiency %.3f (serialization %.3f, load balance %.3f, scheduling %.3f)\n",
            mpi * e[3], mpi, e[3], e[0], e[1], e[2]);
}
