/* bench_gpu_activity.c: the GPU activity layer's work per kernel record, done on its drain
 * thread (src-c/gpu_activity/gpu_table.c: the kernel's row found by its hash, the busy
 * interval merged): ns per record for N distinct kernels over 4 devices and 3 streams,
 * kernels of 700-1300 ns every 1000 ns (so consecutive ones overlap), the median of
 * rounds. The application's own cost per launch is CUPTI's (a record written into a
 * buffer) plus, once per 1 MiB buffer, one request served from the pool under its lock:
 * only a GPU measures the first (tests/gpu/, issue 59).
 *   bench_gpu_activity [--records N] [--rounds R] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_timing.h"
#include "gpu_table.h"

static double ns_per_record(int nrec, int nkernels, char (*names)[48], int *rows)
{
    struct gpu_table *t = calloc(1, sizeof *t);
    cupti_kernel_record *r = calloc((size_t)nrec, sizeof *r);
    if (!t || !r) {
        fprintf(stderr, "bench_gpu_activity: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < nrec; i++)
        r[i] =
            (cupti_kernel_record){.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                  .start = 1000 + (uint64_t)i * 1000,
                                  .end = 1000 + (uint64_t)i * 1000 + 700 + (uint64_t)(i % 7) * 100,
                                  .device_id = (uint32_t)(i % 4),
                                  .stream_id = (uint32_t)(i % 3),
                                  .name = names[i % nkernels]};
    for (int i = 0; i < nkernels * 12; i++) /* rows made (demangled) before timing */
        gpu_table_file(t, (const cupti_record_head *)&r[i % nrec], 0);
    long long a = now_ns();
    for (int i = 0; i < nrec; i++)
        gpu_table_file(t, (const cupti_record_head *)&r[i], 0);
    long long b = now_ns();
    *rows = t->nkernels;
    free(r);
    free(t);
    return (double)(b - a) / nrec;
}

int main(int argc, char **argv)
{
    int nrec = 1000000, rounds = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--records") == 0)
            nrec = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
    }
    if (nrec < 20000 || rounds < 1 || rounds > 64) {
        fprintf(stderr, "usage: bench_gpu_activity [--records N >= 20000] [--rounds 1..64]\n");
        return 2;
    }
    static char names[1000][48];
    for (int i = 0; i < 1000; i++)
        snprintf(names[i], sizeof names[i], "_Z8kernel%dPfS_i", i);
    const int kinds[] = {1, 10, 100, 1000};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        double v[64];
        int rows = 0;
        for (int r = 0; r < rounds; r++)
            v[r] = ns_per_record(nrec, kinds[k], names, &rows);
        printf("%4d kernel names over 4 devices and 3 streams (%4d rows%s): %6.1f ns per "
               "kernel record\n",
               kinds[k], rows, rows == GPU_TABLE_KERNELS ? ", the table full" : "",
               median(v, rounds));
    }
    return 0;
}
