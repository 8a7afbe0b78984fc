/* mpi_gpu_activity: each rank's GPU activity in its row, on the CUPTI double
 * (tests/gpu_activity/cupti_double.c) and a stand-in CUDA runtime, both linked: the
 * program "uses CUDA", so the wrapper starts the layer at MPI_Init by default. Rank r
 * launches the records of argv[1] r + 1 times, the last just before MPI_Finalize: only
 * the wrapper's flush there files them (check_mpi_gpu_activity.py); the last launch is in
 * MPI_Pcontrol region "kern", whose flush at its end files it in the region. With argv[2]
 * "checkpoint" the ranks then sleep past several checkpoints, launch argv[1] once more
 * (no MPI call after it), sleep past several more and end without MPI_Finalize (_exit):
 * the checkpoint row and archive left must hold every launch. With argv[2] "half" each
 * rank only launches argv[1] once inside MPI_Pcontrol region "half", which lasts 1 s
 * (region/half.txt: a 500 ms synchronisation, so its device offload efficiency is 0.5).
 * With argv[2] "trace" each rank launches argv[1] twice, 1 ms apart, between barriers
 * 1 ms away, and
 * prints the moment each launch's times count from ("rank R base NS": the double's, on
 * the traces' clock), for the trace's GPU tracks (check_mpi_gpu_trace.py); with "many N"
 * each rank launches N kernels of 100 ns (more than the GPU activity keeps for a trace),
 * in an MPI_Pcontrol region "many" whose boundaries flush CUPTI every 4096 launches. */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cupti_double_launch(const char *path);
void cupti_double_launch_kernel(uint64_t ns);
uint64_t cupti_double_last_base(void);
int cudart_stand_in(void);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Region "half": argv[1]'s records launched at its start, 1 s long from just before its
 * begin (the begin's and the end's own costs then partly cancel in its wall time). */
static int half(const char *records)
{
    double t0 = now_s(), left;
    MPI_Pcontrol(1, "half");
    int ret = cupti_double_launch(records);
    while ((left = 1.0 - (now_s() - t0)) > 0) /* slept, then the last ms spun */
        if (left > 2e-3)
            usleep((useconds_t)((left - 1e-3) * 1e6));
    MPI_Pcontrol(-1, "half");
    return ret;
}

int main(int argc, char **argv)
{
    int rank;
    if (argc < 2 || cudart_stand_in() != 13)
        return 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 2 && strcmp(argv[2], "half") == 0) {
        if (half(argv[1]) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        MPI_Finalize();
        return 0;
    }
    if (argc > 3 && strcmp(argv[2], "many") == 0) {
        long n = atol(argv[3]);
        for (long i = 0; i < n; i += 4096) {
            MPI_Pcontrol(1, "many"); /* its end flushes: the buffers go back to the pool */
            for (long k = i; k < n && k < i + 4096; k++)
                cupti_double_launch_kernel(100);
            MPI_Pcontrol(-1, "many");
        }
        MPI_Finalize();
        return 0;
    }
    if (argc > 2 && strcmp(argv[2], "trace") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < 2; i++) {
            usleep(1000); /* after the records before: no overlap by chance */
            if (cupti_double_launch(argv[1]) != 0)
                MPI_Abort(MPI_COMM_WORLD, 1);
            printf("rank %d base %" PRIu64 "\n", rank, cupti_double_last_base());
        }
        fflush(stdout);
        usleep(1000); /* the launches' work done before the barrier begins */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    for (int i = 0; i <= rank; i++) {
        usleep(1000); /* after the records before: no overlap by chance */
        if (i == rank)
            MPI_Pcontrol(1, "kern"); /* the last launch in a region of its own */
        if (cupti_double_launch(argv[1]) != 0) {
            fprintf(stderr, "mpi_gpu_activity: cannot read %s\n", argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Pcontrol(-1, "kern");
    if (argc > 2 && strcmp(argv[2], "checkpoint") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        usleep(1500000); /* PAPI_MPI_CHECKPOINT=0.5: checkpoints of everything so far */
        /* GPU work after the last MPI call: only the layer's own growth says that the
         * checkpoint archive is behind */
        if (cupti_double_launch(argv[1]) != 0)
            _exit(1);
        usleep(2500000); /* several checkpoints more, even when loaded */
        _exit(0);
    }
    MPI_Finalize();
    return 0;
}
