/* mpi_gpu_metrics: the named GPU metrics per rank and per MPI_Pcontrol region, on the
 * nvml test double whose device 0 has GPM (tests/components/nvml_double.c, built with
 * NVML_DOUBLE_GPM), linked here so the nvml component's dlopen finds it
 * (check_mpi_gpu_metrics.py). Each rank's double is its own, its clock real time: rank
 * r's device runs at 0 % until MPI_Init returns, then at 20 + 10 r % SM activity, 400 ms
 * of it in region "gpu". With the argument "shared" every rank's device runs at 40 %, as
 * ranks sharing one device see it. */
#include <mpi.h>
#include <string.h>
#include <time.h>

int nvml_double_set(unsigned int dev, const char *what, unsigned long long v);
int nvml_double_gpm_rate(unsigned int dev, unsigned int id, double rate);

int main(int argc, char **argv)
{
    int rank;
    nvml_double_set(0, "gpm_realtime", 1); /* the device's clock is real time */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int shared = argc > 1 && strcmp(argv[1], "shared") == 0;
    nvml_double_gpm_rate(0, 2, shared ? 40.0 : 20.0 + 10.0 * rank); /* NVML_GPM_METRIC_SM_UTIL */
    MPI_Pcontrol(1, "gpu");
    struct timespec ts = {0, 400000000L};
    nanosleep(&ts, NULL);
    MPI_Pcontrol(-1, "gpu");
    MPI_Finalize();
    return 0;
}
