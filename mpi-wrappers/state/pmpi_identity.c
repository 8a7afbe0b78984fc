/* pmpi_identity.c: the one definition of the rank's identity, the output directory's
 * descriptor and the run's end (pmpi_identity.h). */
#include "pmpi_identity.h"

static struct pmpi_identity identity;
static int outdir_fd = -1;
static struct pmpi_run_end run_end;

const struct pmpi_identity *pmpi_id(void)
{
    return &identity;
}

struct pmpi_identity *pmpi_identity_init(void)
{
    return &identity;
}

int pmpi_outdir_fd(void)
{
    return __atomic_load_n(&outdir_fd, __ATOMIC_ACQUIRE);
}

int pmpi_outdir_fd_publish(int fd)
{
    int expected = -1;
    if (__atomic_compare_exchange_n(&outdir_fd, &expected, fd, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return fd;
    return expected;
}

const struct pmpi_run_end *pmpi_end(void)
{
    return &run_end;
}

void pmpi_end_set(long long t_final, long long tick_final)
{
    run_end.t_final = t_final;
    run_end.tick_final = tick_final;
}
