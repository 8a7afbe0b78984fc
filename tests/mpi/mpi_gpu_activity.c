/* mpi_gpu_activity: each rank's GPU activity in its row, on the CUPTI double
 * (tests/gpu_activity/cupti_double.c) and a stand-in CUDA runtime, both linked: the
 * program "uses CUDA", so the wrapper starts the layer at MPI_Init by default. Rank r
 * launches the records of argv[1] r + 1 times, the last just before MPI_Finalize: only
 * the wrapper's flush there files them (check_mpi_gpu_activity.py). With argv[2]
 * "checkpoint" the ranks then sleep past several checkpoints and end without MPI_Finalize
 * (_exit): the checkpoint row left must hold them. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cupti_double_launch(const char *path);
int cudart_stand_in(void);

int main(int argc, char **argv)
{
    int rank;
    if (argc < 2 || cudart_stand_in() != 13)
        return 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i <= rank; i++) {
        usleep(1000); /* after the records before: no overlap by chance */
        if (cupti_double_launch(argv[1]) != 0) {
            fprintf(stderr, "mpi_gpu_activity: cannot read %s\n", argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (argc > 2 && strcmp(argv[2], "checkpoint") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        usleep(3000000); /* PAPI_MPI_CHECKPOINT=0.5: several checkpoints, even when loaded */
        _exit(0);
    }
    MPI_Finalize();
    return 0;
}
