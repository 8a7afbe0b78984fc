/* mpi_sites_nodebug: built without debug information (-g0): the report says there is
 * no line table for its call site, names the function from the ELF symbol table and
 * keeps the object and the offset of the call instruction (check_sites.py nodebug). */
#include <mpi.h>

void sites_nodebug_caller(int *v);
static volatile int sink;

/* Not a tail call (the store after it): the return address is in this function. */
__attribute__((noinline)) void sites_nodebug_caller(int *v)
{
    MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    sink = *v;
}

int main(int argc, char **argv)
{
    int v = 7;
    MPI_Init(&argc, &argv);
    sites_nodebug_caller(&v);
    MPI_Finalize();
    return v == 7 ? 0 : 1;
}
