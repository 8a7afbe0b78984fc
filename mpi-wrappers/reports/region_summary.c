/* region_summary.c: the regions' lines of the banner. Two fixed-size reductions, as
 * aggregate.c does for the metrics (what a rank sends does not grow with the ranks):
 * the union of the names (a set of at most PMPI_MAX_REGIONS names, merged by a user
 * operation), then per name of that union the rank's values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "region_energy.h"
#include "region_summary.h"
#include "run_identity.h"
#include "state.h"

struct name_set {
    int n, more; /* more: names left out of a full set */
    char name[PMPI_MAX_REGIONS][PMPI_NAME_LEN];
};

struct region_stat {
    double ranks, entries, wall_sum, wall_min, wall_max;
    int min_rank, max_rank;
};

static int set_has(const struct name_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0)
            return 1;
    return 0;
}

static void set_add(struct name_set *s, const char *name)
{
    if (set_has(s, name))
        return;
    if (s->n == PMPI_MAX_REGIONS) {
        s->more = 1;
        return;
    }
    snprintf(s->name[s->n++], PMPI_NAME_LEN, "%s", name);
}

/* The lower ranks' names come first (in is the lower part of the reduction). */
static void union_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int k = 0; k < *len; k++) {
        const struct name_set *a = (const struct name_set *)in + k;
        struct name_set *b = (struct name_set *)inout + k;
        struct name_set m = *a;
        for (int i = 0; i < b->n; i++)
            set_add(&m, b->name[i]);
        m.more |= b->more;
        *b = m;
    }
}

static void stat_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct region_stat *a = in;
    struct region_stat *b = inout;
    for (int i = 0; i < *len; i++) {
        if (a[i].wall_min < b[i].wall_min ||
            (a[i].wall_min == b[i].wall_min && a[i].min_rank < b[i].min_rank)) {
            b[i].wall_min = a[i].wall_min;
            b[i].min_rank = a[i].min_rank;
        }
        if (a[i].wall_max > b[i].wall_max ||
            (a[i].wall_max == b[i].wall_max && a[i].max_rank < b[i].max_rank)) {
            b[i].wall_max = a[i].wall_max;
            b[i].max_rank = a[i].max_rank;
        }
        b[i].ranks += a[i].ranks;
        b[i].entries += a[i].entries;
        b[i].wall_sum += a[i].wall_sum;
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
    if (all)
        PMPI_Allreduce(in, out, n, type, op, MPI_COMM_WORLD);
    else
        PMPI_Reduce(in, out, n, type, op, 0, MPI_COMM_WORLD);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
}

void pmpi_region_summary(const struct pmpi_row *row, FILE *fp)
{
    static struct name_set mine, all; /* static: no allocation can fail */
    static struct region_stat in[PMPI_MAX_REGIONS], out[PMPI_MAX_REGIONS];
    memset(&mine, 0, sizeof mine);
    for (int i = 0; i < row->nregions; i++)
        set_add(&mine, row->regions[i].name);
    reduce(&mine, &all, 1, sizeof mine, union_op, 1);
    if (all.n == 0)
        return;
    int me = pmpi_id()->rank;
    for (int i = 0; i < all.n; i++) {
        in[i] = (struct region_stat){0, 0, 0, HUGE_VAL, -HUGE_VAL, me, me};
        for (int j = 0; j < row->nregions; j++)
            if (strcmp(row->regions[j].name, all.name[i]) == 0) {
                double w = (double)row->regions[j].wall_ns * 1e-9;
                in[i] = (struct region_stat){1, (double)row->regions[j].entries, w, w, w,
                                             pmpi_id()->rank, pmpi_id()->rank};
            }
    }
    reduce(in, out, all.n, sizeof in[0], stat_op, 0);
    pmpi_region_energy_reduce(row, (const char(*)[PMPI_NAME_LEN])all.name, all.n, fp);
    if (pmpi_id()->rank != 0)
        return;
    fprintf(fp, "papi_mpi: regions (MPI_Pcontrol 2/-2, or 1/-1 with a name): wall time per rank "
           "that entered them\n");
    for (int i = 0; i < all.n; i++) {
        const struct region_stat *s = &out[i];
        fprintf(fp, "  %-24s ranks %.0f, entries %.0f, wall min %.6f s (rank %d), mean %.6f s, "
               "max %.6f s (rank %d)\n",
               all.name[i], s->ranks, s->entries, s->wall_min, s->min_rank,
               s->ranks > 0 ? s->wall_sum / s->ranks : 0.0, s->wall_max, s->max_rank);
    }
    if (all.more)
        fprintf(fp, "  ... more regions in papi_mpi_report.json\n");
}
