/* mpi_bytes.c: the byte helpers of mpi_calls.list's expressions (see mpi_bytes.h). */
#include "mpi_bytes.h"

/* MPI_Type_size_x (MPI-3; MPICH and Open MPI): a derived type can be larger than an int,
 * where MPI_Type_size says MPI_UNDEFINED; the byte expressions multiply it by the count
 * in 64 bits. */
long long tsz(MPI_Datatype t)
{
    MPI_Count s = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_size_x(t, &s) != MPI_SUCCESS || s == MPI_UNDEFINED ||
        s < 0)
        return 0;
    return (long long)s;
}

long long csz(MPI_Comm c)
{
    int n = 0;
    if (c == MPI_COMM_NULL || PMPI_Comm_size(c, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

int crank(MPI_Comm c)
{
    int r = -1;
    if (c == MPI_COMM_NULL || PMPI_Comm_rank(c, &r) != MPI_SUCCESS)
        return 0;
    return r;
}

int isroot(int root, MPI_Comm c)
{
    return root == MPI_ROOT || crank(c) == root;
}

long long vsum(const int *counts, MPI_Comm c)
{
    long long n = csz(c), s = 0;
    for (long long i = 0; counts && i < n; i++)
        s += counts[i];
    return s;
}

long long wsum(const int *counts, const MPI_Datatype *types, MPI_Comm c)
{
    return counts && types ? nwsum(counts, types, (int)csz(c)) : 0;
}

long long nsum(const int *counts, int n)
{
    long long s = 0;
    for (int i = 0; counts && i < n; i++)
        s += counts[i];
    return s;
}

long long nwsum(const int *counts, const MPI_Datatype *types, int n)
{
    long long s = 0;
    for (int i = 0; counts && types && i < n; i++)
        s += (long long)counts[i] * tsz(types[i]);
    return s;
}

/* In- and out-degree of the communicator's process topology (0 without one). */
static void degrees(MPI_Comm c, int *in, int *out)
{
    int topo = MPI_UNDEFINED, w = 0;
    *in = *out = 0;
    if (c == MPI_COMM_NULL || PMPI_Topo_test(c, &topo) != MPI_SUCCESS)
        return;
    if (topo == MPI_CART) {
        int nd = 0;
        PMPI_Cartdim_get(c, &nd);
        *in = *out = 2 * nd; /* MPI counts both neighbours of every dimension */
    } else if (topo == MPI_GRAPH) {
        int r = crank(c), n = 0;
        PMPI_Graph_neighbors_count(c, r, &n);
        *in = *out = n;
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(c, in, out, &w);
    }
}

int nbr_in(MPI_Comm c)
{
    int in, out;
    degrees(c, &in, &out);
    return in;
}

int nbr_out(MPI_Comm c)
{
    int in, out;
    degrees(c, &in, &out);
    return out;
}
