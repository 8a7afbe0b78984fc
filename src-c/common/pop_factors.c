/* pop_factors.c: the POP efficiencies (pop_factors.h says each definition). */
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
