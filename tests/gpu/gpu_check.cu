/* gpu_check.cu: the known GPU work of the prepared check (run_gpu_check.py, README.md),
 * built there with nvcc and run under papi_run --gpu with the region API. Each region's
 * work is known: its kernels (names, launches), their durations timed with cudaEvents
 * around each launch, the bytes copied per direction, the FP64 FMAs; the program writes
 * them, and each region's wall-clock window, to argv[1] (the truth the verdicts compare
 * the files with). Every region ends after cudaDeviceSynchronize: its work has finished
 * (and its records are flushed at the end). Exit 3 with CUDA's words when CUDA fails. */
#include <cuda_runtime.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CK_PROGRAM "gpu_check"
#include "cuda_ck.h"

/* Every thread spins for `cycles` SM clocks: one wave of blocks fills every SM. K only
 * names the kernel (spin_kernel<1>, <2> ...: one kernel row per duration). */
template <int K> __global__ void spin_kernel(long long cycles, int *sink)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (cycles < 0)
        *sink = K; /* never: keeps the loop */
}

/* n threads x iters dependent FP64 FMAs each: n * iters FMAs, 2 * n * iters flops. */
__global__ void fma64_kernel(double *out, int iters)
{
    double x = threadIdx.x * 1e-3, a = 0.999999, b = 1e-7;
    for (int i = 0; i < iters; i++)
        x = fma(x, a, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

/* A streaming copy: 2 * n * 8 bytes through DRAM per launch. */
__global__ void stream_kernel(const double *__restrict__ a, double *__restrict__ b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        b[i] = a[i];
}

static FILE *truth;
static int nsm;
static cudaEvent_t ev0, ev1;

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double region_t0;
static int nregions;

static void begin(const char *name)
{
    if (PAPI_hl_region_begin(name) != PAPI_OK) {
        fprintf(stderr, "gpu_check: PAPI_hl_region_begin(%s) failed\n", name);
        exit(4);
    }
    region_t0 = wall_s();
}

/* The region's end, its window, its known kernels (by the name's start, "spin_kernel<1>":
 * launch times in ms, or a count) and more known members, in the truth file. */
static void end(const char *name, const char *kernels, const char *more)
{
    CK(cudaDeviceSynchronize());
    double t1 = wall_s();
    if (PAPI_hl_region_end(name) != PAPI_OK) {
        fprintf(stderr, "gpu_check: PAPI_hl_region_end(%s) failed\n", name);
        exit(4);
    }
    fprintf(truth, "%s  \"%s\": {\"begin_s\": %.6f, \"end_s\": %.6f, \"kernels\": {%s}%s}",
            nregions++ ? ",\n" : "", name, region_t0, t1, kernels, more);
}

/* One spin launch timed with events around it on the same stream: ms. */
template <int K> static float timed_spin(long long cycles, int *sink)
{
    float ms = 0;
    CK(cudaEventRecord(ev0));
    spin_kernel<K><<<nsm * 4, 256>>>(cycles, sink);
    CK(cudaGetLastError());
    CK(cudaEventRecord(ev1));
    CK(cudaEventSynchronize(ev1));
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    return ms;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpu_check TRUTH.json\n");
        return 2;
    }
    truth = fopen(argv[1], "w");
    if (!truth) {
        perror(argv[1]);
        return 2;
    }
    int *sink;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&sink, sizeof(int)));
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    /* Calibration, outside every region: SM clocks per ms of spin (the second of two). */
    const long long c0 = 20000000;
    timed_spin<0>(c0, sink);
    double per_ms = c0 / timed_spin<0>(c0, sink);
    fprintf(truth, "{\"sms\": %d, \"cycles_per_ms\": %.1f, \"outside\": {\"spin_kernel<0>\": 2},\n",
            nsm, per_ms);
    fprintf(truth, " \"regions\": {\n");

    /* spin: 2, 5 and 10 ms kernels, 3 launches each, each timed. */
    float ms[3][3];
    begin("spin");
    for (int i = 0; i < 3; i++) {
        ms[0][i] = timed_spin<1>((long long)(2 * per_ms), sink);
        ms[1][i] = timed_spin<2>((long long)(5 * per_ms), sink);
        ms[2][i] = timed_spin<3>((long long)(10 * per_ms), sink);
    }
    char k[1024];
    snprintf(k, sizeof k,
             "\"spin_kernel<1>\": [%.6f, %.6f, %.6f], \"spin_kernel<2>\": [%.6f, %.6f, %.6f], "
             "\"spin_kernel<3>\": [%.6f, %.6f, %.6f]",
             ms[0][0], ms[0][1], ms[0][2], ms[1][0], ms[1][1], ms[1][2], ms[2][0], ms[2][1],
             ms[2][2]);
    end("spin", k, "");

    /* copy: 256 MiB to the device, 128 MiB back, 64 MiB device to device (pinned host). */
    const size_t big = 256u << 20;
    char *host, *d1, *d2;
    CK(cudaMallocHost(&host, big));
    CK(cudaMalloc(&d1, big));
    CK(cudaMalloc(&d2, big));
    for (size_t i = 0; i < big; i += 4096)
        host[i] = (char)i;
    begin("copy");
    CK(cudaMemcpy(d1, host, big, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(host, d1, big / 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(d2, d1, big / 4, cudaMemcpyDeviceToDevice));
    char more[256];
    snprintf(more, sizeof more, ", \"bytes\": {\"HtoD\": %zu, \"DtoH\": %zu, \"DtoD\": %zu}",
             big, big / 2, big / 4);
    end("copy", "", more);

    /* fp64: a known count of FP64 FMAs, once. */
    const int blocks = nsm * 8, threads = 256, iters = 1 << 16;
    begin("fp64");
    fma64_kernel<<<blocks, threads>>>((double *)d1, iters);
    CK(cudaGetLastError());
    snprintf(more, sizeof more, ", \"fmas\": %lld", (long long)blocks * threads * iters);
    end("fp64", "\"fma64_kernel\": 1", more);

    /* sm: 4 s of 100 ms spins over every SM (GPM SM activity near 100 %): dmon's 1 s samples
     * inside it, its first and last second left out, are two at least. */
    begin("sm");
    for (int i = 0; i < 40; i++)
        spin_kernel<4><<<nsm * 4, 256>>>((long long)(100 * per_ms), sink);
    CK(cudaGetLastError());
    end("sm", "\"spin_kernel<4>\": 40", "");

    /* dram: streaming copies of 128 MiB for about 4 s (GPM DRAM bandwidth high). */
    size_t n = big / 2 / sizeof(double);
    int launches = 0;
    begin("dram");
    for (double t = wall_s(); wall_s() - t < 4.0; launches += 50) {
        for (int i = 0; i < 50; i++)
            stream_kernel<<<nsm * 8, 512>>>((const double *)d1, (double *)d2, n);
        CK(cudaDeviceSynchronize());
    }
    snprintf(k, sizeof k, "\"stream_kernel\": %d", launches);
    snprintf(more, sizeof more, ", \"bytes\": %lld", (long long)launches * 2 * (long long)n * 8);
    end("dram", k, more);
    fprintf(truth, "\n }\n}\n");
    if (fclose(truth) != 0) {
        perror(argv[1]);
        return 2;
    }
    CK(cudaFreeHost(host));
    CK(cudaFree(d1));
    CK(cudaFree(d2));
    printf("gpu_check: done (%d SMs, %.0f cycles/ms)\n", nsm, per_ms);
    return 0;
}
