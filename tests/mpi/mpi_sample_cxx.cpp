// mpi_sample_cxx.cpp: C++ names under the MPI wrapper's PAPI_SAMPLE (check_mpi_sample.py
// --part cxx, 2 ranks, the wrapper preloaded). Rank 1 spends 0.3 s of CPU in
// ranks::Work::spin(double) while rank 0 waits in ranks::wait_here(int)'s MPI_Barrier (the
// line marked SAMPLE_BARRIER): the rows and the job-wide tables must name both demangled.
#include <mpi.h>
#include <time.h>

namespace ranks
{
struct Work {
    volatile double x = 1;
    __attribute__((noinline)) void spin(double seconds);
};

static double cpu_seconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void Work::spin(double seconds)
{
    double end = cpu_seconds() + seconds, v = x;
    while (cpu_seconds() < end)
        for (int i = 0; i < 100000; i++)
            v = v * 1.0000001 + 1e-9;
    x = v;
}

__attribute__((noinline)) int wait_here(int rank)
{
    int r = MPI_Barrier(MPI_COMM_WORLD); // SAMPLE_BARRIER
    return r + rank * 0;
}
} // namespace ranks

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ranks::Work w;
    if (rank == 1)
        w.spin(0.3);
    int bad = ranks::wait_here(rank);
    MPI_Finalize();
    return bad;
}
