/* fuzz_handover: libFuzzer target for the readers of papi_run's hand-over files
 * (src-c/common/handover_file.h), every kind: the input's first byte picks the reader
 * (GPU operations, OpenMP slices, --per-thread's thread rows, the OpenMP tool's tables,
 * --sample's stacks),
 * the rest is the file. Whatever the file holds, a reader keeps what it can and says why
 * it stops, under ASan and UBSan (any overflow, leak or trap is a finding). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "run_openmp.h"
#include "run_sample_stacks.h"
#include "run_threads.h"
#include "trace_gpu_tracks.h"
#include "trace_openmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

/* A stacks block's every string read (what the merge does with them). */
static int take_stacks(void *ctx, const struct rs_stacks *b)
{
    size_t *n = ctx;
    for (size_t k = 0; k < b->nstacks; k++)
        *n += strlen(b->stack[k].names) + strlen(b->stack[k].where);
    *n += (b->call_graph ? strlen(b->call_graph) : 0) + (b->note ? strlen(b->note) : 0);
    return 0;
}

/* The input's file, at one name per fuzzing process. 0, or -1. */
static int put_file(const uint8_t *data, size_t size)
{
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fuzz_handover.%ld", (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    ssize_t n = size ? write(fd, data, size) : 0;
    close(fd);
    return n == (ssize_t)size ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[512];
    if (size < 1 || put_file(data + 1, size - 1) != 0)
        return 0;
    switch (data[0] % 5) {
    case 0: {
        struct trace_gpu_ops g;
        memset(&g, 0, sizeof g);
        (void)trace_gpu_ops_load(path, &g, why, sizeof why);
        trace_gpu_ops_free(&g);
        break;
    }
    case 1: {
        struct trace_omp_spans s;
        memset(&s, 0, sizeof s);
        (void)trace_omp_spans_load(path, &s, why, sizeof why);
        trace_omp_spans_free(&s);
        break;
    }
    case 2: /* (the reader removes the file) */
        free(run_threads_read(path, data[0] / 5 % (RUN_MAX_EVENTS + 1)));
        break;
    case 4: {
        size_t n = 0;
        (void)rs_stacks_load(path, take_stacks, &n, why, sizeof why);
        break;
    }
    default: {
        static struct run_state s;
        memset(&s.omp, 0, sizeof s.omp);
        s.omp.asked = 1;
        snprintf(s.omp.tables, sizeof s.omp.tables, "%s", path);
        run_openmp_collect(&s);
        run_openmp_free(&s);
        break;
    }
    }
    unlink(path);
    return 0;
}
