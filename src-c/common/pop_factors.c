/* pop_factors.c: every efficiency, MPI, OpenMP, hybrid and host/device (pop_factors.h
 * says each definition and its reference). */
#include "pop_factors.h"

void pop_add(struct pop_in *p, double wall, double mpi, double waits)
{
    double useful = wall - mpi;
    double transfer = mpi - waits > 0 ? mpi - waits : 0;
    p->n++;
    p->sum_useful += useful;
    p->sum_host += useful;
    if (wall > p->max_wall)
        p->max_wall = wall;
    if (useful > p->max_useful)
        p->max_useful = useful;
    if (wall - transfer > p->max_ideal)
        p->max_ideal = wall - transfer;
}

void pop_add_device(struct pop_in *p, double runtime, double gpu_useful, double gpu_comm)
{
    double active = gpu_useful + gpu_comm;
    p->device_ranks++;
    p->sum_runtime += runtime;
    if (active <= 0)
        return;
    p->gpus++;
    p->sum_gpu_useful += gpu_useful;
    if (gpu_useful > p->max_gpu_useful)
        p->max_gpu_useful = gpu_useful;
    if (active > p->max_gpu_active)
        p->max_gpu_active = active;
}

/* a / b, or none where b is not positive. */
static double ratio(double a, double b, double none)
{
    return b > 0 ? a / b : none;
}

struct pop_factors pop_factors(const struct pop_in *p)
{
    struct pop_factors f;
    double mean = p->n ? p->sum_useful / p->n : 0;
    f.load_balance = ratio(mean, p->max_useful, 1);
    f.communication = ratio(p->max_useful, p->max_wall, 1);
    f.parallel = f.load_balance * f.communication;
    f.serialisation = ratio(p->max_useful, p->max_ideal, 1);
    f.transfer = ratio(p->max_ideal, p->max_wall, 1);
    f.offload = ratio(p->sum_host - p->sum_runtime, p->sum_host, -1);
    if (p->gpus == 0 || p->max_wall <= 0) {
        f.device_parallel = f.device_load_balance = f.device_communication =
            f.device_orchestration = -1;
        return f;
    }
    f.device_load_balance = ratio(p->sum_gpu_useful, p->gpus * p->max_gpu_useful, -1);
    f.device_communication = ratio(p->max_gpu_useful, p->max_gpu_active, -1);
    f.device_orchestration = p->max_gpu_active / p->max_wall;
    f.device_parallel = p->sum_gpu_useful / (p->gpus * p->max_wall);
    return f;
}

/* a / b cut to 1 (cap), or -1 where b is not positive. */
static double fraction(double a, double b, int cap)
{
    if (!(b > 0))
        return -1;
    return cap && !(a < b) ? 1 : a / b;
}

/* The product of factors, or -1 where one of them cannot be formed. */
static double product(double a, double b)
{
    return a >= 0 && b >= 0 ? a * b : -1;
}

struct pop_omp_factors pop_omp_region(const uint64_t *useful, unsigned team, uint64_t wall_ns,
                                      struct pop_omp_in *sums)
{
    double sum = 0, max = 0;
    for (unsigned t = 0; t < team; t++) {
        sum += (double)useful[t];
        if ((double)useful[t] > max)
            max = (double)useful[t];
    }
    struct pop_omp_factors f = {.serialization = -1};
    f.load_balance = team ? fraction(sum / team, max, 0) : -1;
    f.scheduling = fraction(max, (double)wall_ns, 0);
    f.parallel = product(f.load_balance, f.scheduling);
    if (sums) {
        sums->useful_ns += sum;
        sums->maxu_team_ns += max * team;
        sums->wall_team_ns += (double)wall_ns * team;
    }
    return f;
}

struct pop_omp_cpu pop_omp_cpu_factors(const struct pop_omp_cpu_in *s)
{
    return (struct pop_omp_cpu){fraction(s->cpu_ns, s->useful_ns, 1),
                                fraction(s->cpu_ns, s->maxc_team_ns, 1)};
}

struct pop_omp_cpu pop_omp_cpu_region(const uint64_t *cpu, const uint64_t *useful, unsigned team,
                                      struct pop_omp_cpu_in *sums)
{
    struct pop_omp_cpu_in r = {0, 0, 0};
    double max = 0;
    for (unsigned t = 0; t < team; t++) {
        r.cpu_ns += (double)cpu[t];
        r.useful_ns += (double)useful[t];
        if ((double)cpu[t] > max)
            max = (double)cpu[t];
    }
    r.maxc_team_ns = max * team;
    if (sums) {
        sums->cpu_ns += r.cpu_ns;
        sums->useful_ns += r.useful_ns;
        sums->maxc_team_ns += r.maxc_team_ns;
    }
    return pop_omp_cpu_factors(&r);
}

struct pop_omp_factors pop_omp_factors(const struct pop_omp_in *s, double span_ns,
                                       enum pop_omp_cap cap)
{
    struct pop_omp_factors f;
    int each = cap == POP_CAP_EACH;
    f.serialization = fraction(s->parallel_ns, span_ns, 1);
    f.load_balance = fraction(s->useful_ns, s->maxu_team_ns, each);
    f.scheduling = fraction(s->maxu_team_ns, s->wall_team_ns, each);
    f.parallel = product(product(f.serialization, f.load_balance), f.scheduling);
    return f;
}

double pop_hybrid(double mpi_parallel, double omp_parallel)
{
    return product(mpi_parallel, omp_parallel);
}
