/* region_summary.c: the regions' lines of the banner. One fixed-size reduction, as
 * aggregate.c does for the metrics (what a rank sends does not grow with the ranks):
 * the union of the names (a set of at most PMPI_MAX_REGIONS names, rank order) with
 * each name's statistics, merged by name in one user operation. A reduction to rank 0,
 * an Allreduce only when the regions' energy needs the names on every rank; none when
 * the finalize agreement round said no rank has a region. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "finalize_agreement.h"
#include "idle_wait.h"
#include "region_energy.h"
#include "region_summary.h"
#include "pmpi_identity.h"
#include "state.h"

struct name_set {
    int n, more; /* more: names left out of a full set */
    char name[PMPI_MAX_REGIONS][PMPI_NAME_LEN];
};

struct region_stat {
    double ranks, entries, wall_sum, wall_min, wall_max;
    int min_rank, max_rank;
};

/* The index of name in s, or -1. */
static int set_index(const struct name_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0)
            return i;
    return -1;
}

/* 1 when name was added (last); 0 when s has it, or is full (then more is set). */
static int set_add(struct name_set *s, const char *name)
{
    if (set_index(s, name) >= 0)
        return 0;
    if (s->n == PMPI_MAX_REGIONS) {
        s->more = 1;
        return 0;
    }
    snprintf(s->name[s->n++], PMPI_NAME_LEN, "%s", name);
    return 1;
}

static void stat_merge(const struct region_stat *a, struct region_stat *b)
{
    if (a->wall_min < b->wall_min || (a->wall_min == b->wall_min && a->min_rank < b->min_rank)) {
        b->wall_min = a->wall_min;
        b->min_rank = a->min_rank;
    }
    if (a->wall_max > b->wall_max || (a->wall_max == b->wall_max && a->max_rank < b->max_rank)) {
        b->wall_max = a->wall_max;
        b->max_rank = a->max_rank;
    }
    b->ranks += a->ranks;
    b->entries += a->entries;
    b->wall_sum += a->wall_sum;
}

/* The names, in rank order, and per name its statistics over the ranks merged so far. */
struct region_sum {
    struct name_set set;
    struct region_stat stat[PMPI_MAX_REGIONS];
};

/* The lower ranks' names come first (in is the lower part of the reduction); a name
 * both parts have gets both parts' statistics. Keeping the first PMPI_MAX_REGIONS names
 * of the concatenation is associative: a name dropped by a partial merge is dropped by
 * the whole. */
static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    struct region_sum m;
    (void)type;
    for (int k = 0; k < *len; k++) {
        const struct region_sum *a = (const struct region_sum *)in + k;
        struct region_sum *b = (struct region_sum *)inout + k;
        m = *a;
        for (int i = 0; i < b->set.n; i++) {
            int j = set_index(&m.set, b->set.name[i]);
            if (j < 0 && set_add(&m.set, b->set.name[i]))
                m.stat[m.set.n - 1] = b->stat[i];
            else if (j >= 0)
                stat_merge(&b->stat[i], &m.stat[j]);
        }
        m.set.more |= b->set.more;
        *b = m;
    }
}

/* One user operation over a contiguous byte type: the reduction of n items of size. */
static void reduce(void *in, void *out, int n, size_t size, MPI_User_function *fn, int all)
{
    MPI_Datatype type;
    MPI_Op op;
    PMPI_Type_contiguous((int)size, MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    PMPI_Op_create(fn, 0, &op); /* not commutative: the names keep rank order */
    MPI_Request req;
    int rc = all ? PMPI_Iallreduce(in, out, n, type, op, MPI_COMM_WORLD, &req)
                 : PMPI_Ireduce(in, out, n, type, op, 0, MPI_COMM_WORLD, &req);
    pmpi_idle_complete(rc, &req);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
}

/* The agreement round's value: the most regions a rank has. */
int pmpi_region_summary_prepare(const struct pmpi_row *row)
{
    return pmpi_agree_add(PMPI_AGREE_MAX, row->nregions);
}

void pmpi_region_summary(const struct pmpi_row *row, int agreed, FILE *fp)
{
    static struct region_sum mine, job; /* static: no allocation can fail */
    int me = pmpi_id()->rank;
    if (agreed >= 0 && pmpi_agree_value(agreed) == 0)
        return; /* no rank has a region: the same on every rank */
    memset(&mine, 0, sizeof mine);
    for (int i = 0; i < row->nregions; i++) {
        double w = (double)row->regions[i].wall_ns * 1e-9;
        if (set_add(&mine.set, row->regions[i].name))
            mine.stat[mine.set.n - 1] =
                (struct region_stat){1, (double)row->regions[i].entries, w, w, w, me, me};
    }
    int energy = pmpi_region_energy_any();
    reduce(&mine, &job, 1, sizeof mine, sum_op, energy);
    const struct name_set *all = &job.set;
    const struct region_stat *out = job.stat;
    if (energy && all->n > 0)
        pmpi_region_energy_reduce(row, (const char(*)[PMPI_NAME_LEN])all->name, all->n, fp);
    if (me != 0 || all->n == 0)
        return;
    fprintf(fp, "papi_mpi: regions (MPI_Pcontrol 1/-1 with a name): wall time per rank "
                "that entered them\n");
    for (int i = 0; i < all->n; i++) {
        const struct region_stat *s = &out[i];
        fprintf(fp,
                "  %-24s ranks %.0f, entries %.0f, wall min %.6f s (rank %d), mean %.6f s, "
                "max %.6f s (rank %d)\n",
                all->name[i], s->ranks, s->entries, s->wall_min, s->min_rank,
                s->ranks > 0 ? s->wall_sum / s->ranks : 0.0, s->wall_max, s->max_rank);
    }
    if (all->more)
        fprintf(fp, "  ... more regions in papi_mpi_report.json\n");
}
