/* mpi_gpu_region_energy: a GPU's energy per MPI_Pcontrol region, on the nvml test double
 * (tests/components/nvml_double.c) that this program is linked with, so the nvml
 * component's dlopen("libnvidia-ml.so.1") finds it (check_mpi_region_energy.py --gpu).
 * Each rank's double is its own: every rank adds the same 4321 mJ to device 0 inside
 * region "gpu", as ranks sharing one device would see it; then, in region "lost", device
 * 0 falls off the bus (its energy is no longer read: the region's is 0, never negative,
 * and the rank's total stays at its last reading). */
#include <mpi.h>

int nvml_double_set(unsigned int dev, const char *what, unsigned long long v);
void nvml_double_lose(unsigned int dev);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    nvml_double_set(0, "energy", 200000000); /* above its 123456789 mJ at MPI_Init */
    MPI_Pcontrol(1, "gpu");
    nvml_double_set(0, "energy", 200004321);
    MPI_Pcontrol(-1, "gpu");
    MPI_Pcontrol(1, "lost");
    nvml_double_set(0, "energy", 200005321);
    nvml_double_lose(0);
    MPI_Pcontrol(-1, "lost");
    MPI_Finalize();
    return 0;
}
