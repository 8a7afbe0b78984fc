/* mpi_with_papi.c: an MPI program that uses PAPI itself under the wrapper library.
 * The wrapper's counters must not get in the way: the program's own PAPI_start on the
 * main thread succeeds and its own page-fault count is exact; MPI_Finalize still
 * reports. */
#include <mpi.h>

#include "papi_test.h"

int main(int argc, char **argv)
{
    int rank, es = PAPI_NULL;
    long long v = -1;
    const long n = 400;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    CHECK(rc == PAPI_VER_CURRENT, "PAPI_library_init after the wrapper's: %d", rc);
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    if (PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK) {
        MPI_Finalize();
        test_skip("perf::PAGE-FAULTS does not open");
    }
    touch_pages(n); /* warm the code path */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(n);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK(v >= n && v <= n + 16, "rank %d: %lld page faults for %ld pages", rank, v, n);
    free_set(&es);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return test_done("mpi_with_papi");
}
