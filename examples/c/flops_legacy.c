/* flops_legacy.c: the PAPI 3.5 high-level style, one call in the loop.
 *
 * The first PAPI_flops call initialises the library and starts counting PAPI_FP_OPS;
 * every later call returns the real and process time and the operations since that
 * first call, and the Mflop/s since the previous call. PAPI_stop_counters ends it.
 * On a machine without floating-point counters PAPI_flops returns PAPI_ENOEVNT and
 * prints one line saying why (set PAPI_QUIET=1 to silence it). */
#include <papi.h>
#include <stdio.h>

#define N 200

static double a[N][N], b[N][N], c[N][N];

static void matmul(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

int main(void)
{
    float rtime, ptime, mflops;
    long long flpops;
    int ret;

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = 1.0 + i;
            b[i][j] = 1.0 / (1.0 + j);
        }
    if ((ret = PAPI_flops(&rtime, &ptime, &flpops, &mflops)) != PAPI_OK) {
        fprintf(stderr, "PAPI_flops: %s\n", PAPI_strerror(ret));
        return 1;
    }
    for (int step = 1; step <= 3; step++) {
        matmul();
        if ((ret = PAPI_flops(&rtime, &ptime, &flpops, &mflops)) != PAPI_OK) {
            fprintf(stderr, "PAPI_flops: %s\n", PAPI_strerror(ret));
            return 1;
        }
        printf("step %d: real %.4f s  process %.4f s  flpops %lld  %.1f Mflop/s\n", step,
               (double)rtime, (double)ptime, flpops, (double)mflops);
    }
    PAPI_stop_counters(NULL, 0);
    printf("c[1][1] = %g\n", c[1][1]);
    return 0;
}
