/* gpu_kernels_prog.c: a program with no PAPI in it that makes its CUDA context on device 0
 * and launches kernel kernA 3 times and kernB twice through the CUDA driver double, for
 * papi_run --gpu-counters (check_gpu_kernel_counters.py); with an argument N, kernA N times
 * instead (past the ranges CUPTI's counter data holds). */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_driver_api.h"

void cuda_double_make_current(int device);
CUresult cuda_double_launch_named(const char *kernel);

int main(int argc, char **argv)
{
    static const char *const order[] = {"kernA", "kernB", "kernA", "kernB", "kernA"};
    cuda_double_make_current(0);
    for (long i = 0, n = argc > 1 ? atol(argv[1]) : 0; i < n; i++)
        if (cuda_double_launch_named("kernA") != CUDA_SUCCESS)
            return 1;
    if (argc > 1)
        return 0;
    for (int i = 0; i < 5; i++)
        if (cuda_double_launch_named(order[i]) != CUDA_SUCCESS) {
            fprintf(stderr, "gpu_kernels_prog: launch %d failed\n", i);
            return 1;
        }
    return 0;
}
