/* mpi_miniapp: a small MPI application for the wrapper's application benchmark
 * (run_app_bench.sh). Two kernels, each timed between barriers on every rank and
 * reported as the slowest rank's time:
 *   cg N ITERS       conjugate gradient on the 1-D Laplacian, N unknowns per rank:
 *                    per iteration one halo exchange (2 MPI_Sendrecv) and two
 *                    MPI_Allreduce (NPB CG's pattern: many small messages);
 *   stencil N ITERS  a 3-point Jacobi sweep over N points per rank with one halo
 *                    exchange (MPI_Isend/Irecv/Waitall) per sweep and an
 *                    MPI_Allreduce of the residual every 10 sweeps (compute-bound).
 * The checksum line lets the benchmark check both runs computed the same thing. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, left, right;

/* y = A x for the 1-D Laplacian (2 on the diagonal, -1 beside it); x has halo cells
 * x[0] and x[n + 1], filled here from the neighbouring ranks (0 at the ends). */
static void laplacian(double *x, double *y, int n)
{
    MPI_Sendrecv(&x[1], 1, MPI_DOUBLE, left, 0, &x[n + 1], 1, MPI_DOUBLE, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[n], 1, MPI_DOUBLE, right, 1, &x[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (left == MPI_PROC_NULL)
        x[0] = 0;
    if (right == MPI_PROC_NULL)
        x[n + 1] = 0;
    for (int i = 1; i <= n; i++)
        y[i] = 2 * x[i] - x[i - 1] - x[i + 1];
}

static double dot(const double *a, const double *b, int n)
{
    double local = 0, global = 0;
    for (int i = 1; i <= n; i++)
        local += a[i] * b[i];
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

static double cg(int n, int iters)
{
    double *x = calloc((size_t)n + 2, sizeof *x), *r = calloc((size_t)n + 2, sizeof *r);
    double *p = calloc((size_t)n + 2, sizeof *p), *ap = calloc((size_t)n + 2, sizeof *ap);
    for (int i = 1; i <= n; i++)
        r[i] = p[i] = 1.0; /* b = 1, x0 = 0 */
    double rr = dot(r, r, n);
    for (int k = 0; k < iters; k++) {
        laplacian(p, ap, n);
        double alpha = rr / dot(p, ap, n);
        for (int i = 1; i <= n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        double rr_new = dot(r, r, n);
        for (int i = 1; i <= n; i++)
            p[i] = r[i] + rr_new / rr * p[i];
        rr = rr_new;
    }
    double check = dot(x, x, n);
    free(x);
    free(r);
    free(p);
    free(ap);
    return check;
}

static double stencil(int n, int iters)
{
    double *u = calloc((size_t)n + 2, sizeof *u), *v = calloc((size_t)n + 2, sizeof *v);
    double res = 0;
    for (int i = 1; i <= n; i++)
        u[i] = (double)((rank * n + i) % 17);
    for (int k = 0; k < iters; k++) {
        MPI_Request rq[4];
        MPI_Status st[4];
        MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &rq[1]);
        MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &rq[2]);
        MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[3]);
        MPI_Waitall(4, rq, st);
        double local = 0;
        for (int i = 1; i <= n; i++) {
            v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
            local += fabs(v[i] - u[i]);
        }
        double *t = u;
        u = v;
        v = t;
        if (k % 10 == 9)
            MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    free(u);
    free(v);
    return res;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 || (strcmp(argv[1], "cg") && strcmp(argv[1], "stencil"))) {
        if (rank == 0)
            fprintf(stderr, "usage: mpi_miniapp cg|stencil N ITERS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[2]), iters = atoi(argv[3]);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    double check = argv[1][0] == 'c' ? cg(n, iters) : stencil(n, iters);
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("miniapp %s ranks %d time_s %.6f checksum %.10e\n", argv[1], size, tmax, check);
    MPI_Finalize();
    return 0;
}
