/* cuda_ck.h: the prepared GPU check's programs (gpu_check.cu, gpu_counters.cu) stop with
 * exit status 3 and CUDA's words when a CUDA call fails; CK_PROGRAM names the program. */
#ifndef CUDA_CK_H
#define CUDA_CK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                     \
    do {                                                                          \
        cudaError_t e_ = (x);                                                     \
        if (e_ != cudaSuccess) {                                                  \
            fprintf(stderr, CK_PROGRAM ": %s: %s\n", #x, cudaGetErrorString(e_)); \
            exit(3);                                                              \
        }                                                                         \
    } while (0)

#endif
