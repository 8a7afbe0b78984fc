/* gpu_kernels_prog.c: a program with no PAPI in it that makes its CUDA context on device 0
 * and launches kernel kernA 3 times and kernB twice through the CUDA driver double, for
 * papi_run --gpu-counters (check_gpu_kernel_counters.py); with an argument N, kernA N times
 * instead (past the ranges CUPTI's counter data holds); with "reset", the five launches and
 * then cudaDeviceReset's place (the context destroyed before the program's end); with
 * "device1", the five launches on device 1 (an MPI rank's cudaSetDevice(1)); with "both",
 * the five on device 0 and then the five on device 1; with "none", no context at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver_api.h"

void cuda_double_make_current(int device);
void cuda_double_reset(int device);
CUresult cuda_double_launch_named(const char *kernel);

int main(int argc, char **argv)
{
    static const char *const order[] = {"kernA", "kernB", "kernA", "kernB", "kernA"};
    const char *mode = argc > 1 ? argv[1] : "";
    int reset = strcmp(mode, "reset") == 0, device1 = strcmp(mode, "device1") == 0;
    int both = strcmp(mode, "both") == 0, named = reset || device1 || both;
    if (strcmp(mode, "none") == 0)
        return 0;
    cuda_double_make_current(device1 ? 1 : 0);
    for (long i = 0, n = named ? 0 : atol(mode); i < n; i++)
        if (cuda_double_launch_named("kernA") != CUDA_SUCCESS)
            return 1;
    if (argc > 1 && !named)
        return 0;
    for (int pass = 0; pass < (both ? 2 : 1); pass++) {
        if (pass == 1)
            cuda_double_make_current(1);
        for (int i = 0; i < 5; i++)
            if (cuda_double_launch_named(order[i]) != CUDA_SUCCESS) {
                fprintf(stderr, "gpu_kernels_prog: launch %d failed\n", i);
                return 1;
            }
    }
    if (reset)
        cuda_double_reset(0);
    return 0;
}
