/* gpu_counters.cu: GPU work of known hardware counts read through PAPI's cuda component
 * (issue 71 item 5; run_gpu_check.py builds it with nvcc and runs it after gpu_check, and
 * counter_verdicts.py judges what it writes). Each case is one event set of `cuda:::` events
 * on device 0 started around the work and read at its end (a user range), as a PAPI
 * program counts a loop:
 *   fma     n threads x iters dependent FP64 FMAs: sm__sass_thread_inst_executed_op_dfma_
 *           pred_on.sum is exactly n x iters;
 *   stream  one read of 1 GiB (L2 emptied first by reading another 256 MiB):
 *           dram__bytes_read.sum within 2 % of 1 GiB;
 *   launch  one kernel of 123 blocks of 96 threads: launch__grid_size 123 and
 *           launch__block_size 96, exact.
 * Then the cost of counting per kernel launch (issue 71 item 4): LAUNCHES empty-kernel
 * launches with no event set running, with a set of one metric counting, and counting with
 * a PAPI_read every EVERY launches, in rounds that rotate the three (each round ends
 * synchronised, its start and stop untimed); the median ns per launch of each and what
 * counting added ("launch_cost" in the file; no verdict threshold, a figure).
 * Writes OUT.json: per case what was expected, what was read and PAPI's words where a call
 * failed. --plain runs the same kernels without PAPI (for Nsight Compute, which replays
 * them: `ncu --metrics ... gpu_counters --plain`). Exit 3 when CUDA fails. */
#include <cuda_runtime.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK_PROGRAM "gpu_counters"
#include "cuda_ck.h"

__global__ void fma64_kernel(double *out, int iters)
{
    double x = threadIdx.x * 1e-3, a = 0.999999, b = 1e-7;
    for (int i = 0; i < iters; i++)
        x = fma(x, a, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

/* Reads n doubles once (each thread a strided share), one store per thread. */
__global__ void read_kernel(const double *__restrict__ a, size_t n, double *out)
{
    double s = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x, id = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (size_t i = id; i < n; i += stride)
        s += a[i];
    out[id] = s;
}

__global__ void launch_kernel(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void empty_kernel(void) {}

static FILE *json;
static int ncases;
static int plain;

/* One case: its events started around work(), read after it; the expected values and what
 * was read (or why not) to the file. */
static void count_case(const char *name, int nev, const char *const *events,
                       const long long *expected, void (*work)(void))
{
    int set = PAPI_NULL, ret = PAPI_create_eventset(&set);
    long long v[4] = {0, 0, 0, 0};
    const char *failed = NULL;
    for (int i = 0; ret == PAPI_OK && i < nev; i++)
        if ((ret = PAPI_add_named_event(set, events[i])) != PAPI_OK)
            failed = events[i];
    if (ret == PAPI_OK && (ret = PAPI_start(set)) == PAPI_OK) {
        work();
        CK(cudaDeviceSynchronize());
        ret = PAPI_stop(set, v);
    } else if (ret == PAPI_OK) {
        failed = "PAPI_start";
    }
    fprintf(json, "%s  \"%s\": {\"ret\": %d, \"error\": \"%s%s%s\", \"events\": {", ncases++ ? ",\n" : "",
            name, ret, failed ? failed : "", failed ? ": " : "", ret != PAPI_OK ? PAPI_strerror(ret) : "");
    for (int i = 0; i < nev; i++)
        fprintf(json, "%s\"%s\": {\"expected\": %lld, \"counted\": %lld}", i ? ", " : "", events[i],
                expected[i], ret == PAPI_OK ? v[i] : -1LL);
    fprintf(json, "}}");
    if (set != PAPI_NULL) {
        PAPI_cleanup_eventset(set);
        PAPI_destroy_eventset(&set);
    }
}

static double *d_out, *d_big, *d_flush;
static int *d_launch;
static const int FMA_BLOCKS = 132 * 4, FMA_THREADS = 256, FMA_ITERS = 4096;
static const size_t GIB = (size_t)1 << 30, FLUSH = (size_t)256 << 20;

static void fma_work(void)
{
    fma64_kernel<<<FMA_BLOCKS, FMA_THREADS>>>(d_out, FMA_ITERS);
    CK(cudaGetLastError());
}

static void stream_work(void)
{
    read_kernel<<<1024, 256>>>(d_big, GIB / sizeof(double), d_out);
    CK(cudaGetLastError());
}

static void launch_work(void)
{
    launch_kernel<<<123, 96>>>(d_launch);
    CK(cudaGetLastError());
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { ALONE, COUNTING, READING, NMODES };
static const int LAUNCH_ROUNDS = 5, LAUNCHES = 10000, EVERY = 100; /* 2000 a round */

/* One round of a mode: ns per launch, from the first launch to the device synchronised after
 * the last (the work done, as a program waits for it); -1 when PAPI refused. */
static double launch_round(int mode, int set, int *ret)
{
    int n = LAUNCHES / LAUNCH_ROUNDS;
    long long v[1];
    if (mode != ALONE && (*ret = PAPI_start(set)) != PAPI_OK)
        return -1;
    CK(cudaDeviceSynchronize());
    long long t0 = now_ns();
    for (int i = 1; i <= n; i++) {
        empty_kernel<<<1, 1>>>();
        if (mode == READING && i % EVERY == 0 && (*ret = PAPI_read(set, v)) != PAPI_OK)
            break;
    }
    CK(cudaDeviceSynchronize());
    double ns = (double)(now_ns() - t0) / n;
    CK(cudaGetLastError());
    if (mode != ALONE) {
        int r = PAPI_stop(set, v);
        if (*ret == PAPI_OK)
            *ret = r;
    }
    return *ret == PAPI_OK ? ns : -1;
}

/* The added time per launch of a cuda event set counting, and reading every EVERY. */
static void launch_cost(void)
{
    const char *ev = "cuda:::sm__cycles_active.sum:device=0";
    int set = PAPI_NULL, ret = PAPI_create_eventset(&set);
    const char *failed = NULL;
    if (ret == PAPI_OK && (ret = PAPI_add_named_event(set, ev)) != PAPI_OK)
        failed = ev;
    double ns[NMODES][8];
    for (int i = 0; i < 20; i++) /* warm-up: the kernel loaded, the launch path hot */
        empty_kernel<<<1, 1>>>();
    CK(cudaDeviceSynchronize());
    for (int r = 0; ret == PAPI_OK && r < LAUNCH_ROUNDS; r++)
        for (int k = 0; ret == PAPI_OK && k < NMODES; k++) {
            int mode = (r + k) % NMODES; /* rotated: drift hits each alike */
            ns[mode][r] = launch_round(mode, set, &ret);
            if (ret != PAPI_OK)
                failed = mode == READING ? "PAPI_read" : "PAPI_start/stop";
        }
    double med[NMODES] = {-1, -1, -1};
    for (int m = 0; ret == PAPI_OK && m < NMODES; m++) {
        qsort(ns[m], LAUNCH_ROUNDS, sizeof ns[m][0], cmp_double);
        med[m] = ns[m][LAUNCH_ROUNDS / 2];
    }
    fprintf(json,
            ",\n  \"launch_cost\": {\"ret\": %d, \"error\": \"%s%s%s\", \"event\": \"%s\", "
            "\"launches\": %d, \"rounds\": %d, \"every\": %d, \"alone_ns\": %.1f, "
            "\"counting_ns\": %.1f, \"reading_ns\": %.1f}",
            ret, failed ? failed : "", failed ? ": " : "", ret != PAPI_OK ? PAPI_strerror(ret) : "",
            ev, LAUNCHES, LAUNCH_ROUNDS, EVERY, med[ALONE], med[COUNTING], med[READING]);
    if (set != PAPI_NULL) {
        PAPI_cleanup_eventset(set);
        PAPI_destroy_eventset(&set);
    }
}

int main(int argc, char **argv)
{
    plain = argc == 2 && strcmp(argv[1], "--plain") == 0;
    if (argc != 2) {
        fprintf(stderr, "usage: gpu_counters OUT.json | --plain\n");
        return 2;
    }
    CK(cudaMalloc(&d_out, (size_t)FMA_BLOCKS * FMA_THREADS * sizeof(double)));
    CK(cudaMalloc(&d_big, GIB));
    CK(cudaMalloc(&d_flush, FLUSH));
    CK(cudaMalloc(&d_launch, 123 * 96 * sizeof(int)));
    CK(cudaMemset(d_big, 0, GIB));
    CK(cudaMemset(d_flush, 0, FLUSH));
    if (plain) { /* the same kernels, no PAPI: Nsight Compute profiles each launch */
        fma_work();
        read_kernel<<<1024, 256>>>(d_flush, FLUSH / sizeof(double), d_out);
        stream_work();
        launch_work();
        CK(cudaDeviceSynchronize());
        return 0;
    }
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "gpu_counters: PAPI_library_init failed\n");
        return 4;
    }
    json = fopen(argv[1], "w");
    if (!json) {
        perror(argv[1]);
        return 2;
    }
    fprintf(json, "{\n");
    const char *fma_ev[] = {"cuda:::sm__sass_thread_inst_executed_op_dfma_pred_on.sum:device=0"};
    long long fma_want[] = {(long long)FMA_BLOCKS * FMA_THREADS * FMA_ITERS};
    count_case("fma", 1, fma_ev, fma_want, fma_work);
    /* L2 emptied of d_big (the memset left part of it there): another buffer read first */
    read_kernel<<<1024, 256>>>(d_flush, FLUSH / sizeof(double), d_out);
    CK(cudaDeviceSynchronize());
    const char *dram_ev[] = {"cuda:::dram__bytes_read.sum:device=0"};
    long long dram_want[] = {(long long)GIB};
    count_case("stream", 1, dram_ev, dram_want, stream_work);
    const char *launch_ev[] = {"cuda:::launch__grid_size:device=0",
                               "cuda:::launch__block_size:device=0"};
    long long launch_want[] = {123, 96};
    count_case("launch", 2, launch_ev, launch_want, launch_work);
    launch_cost();
    fprintf(json, "\n}\n");
    if (fclose(json) != 0) {
        perror(argv[1]);
        return 2;
    }
    printf("gpu_counters: done\n");
    return 0;
}
