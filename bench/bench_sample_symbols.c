/* bench_sample_symbols: the exit path of papi_run --sample (libpapi_run_sample.so's
 * naming with libdw and the writing of both profile files) over many distinct stacks.
 *
 *   bench_sample_symbols [STACKS [ADDRESSES [DEPTH]]]   (default 100000 20000 16)
 *
 * STACKS distinct stacks of DEPTH frames, drawn from ADDRESSES distinct addresses spread
 * over the text of every module this process has loaded (the program, libc, libdw,
 * libelf, libz ...), are named and written into a temporary directory, timed with
 * CLOCK_MONOTONIC and the process's CPU time (goal: 100,000 stacks under 2 s). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run_sample.h"
#include "run_sample_profile.h"

struct range {
    uint64_t start, end;
};
static struct range text[64];
static int ntext;

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum && ntext < 64; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X) &&
            info->dlpi_phdr[i].p_memsz > 4096) {
            text[ntext].start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            text[ntext].end = text[ntext].start + info->dlpi_phdr[i].p_memsz;
            ntext++;
        }
    return 0;
}

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    long nstacks = argc > 1 ? atol(argv[1]) : 100000, naddr = argc > 2 ? atol(argv[2]) : 20000;
    int depth = argc > 3 ? atoi(argv[3]) : 16;
    if (nstacks < 1 || naddr < depth || depth < 1 || depth > RS_MAX_DEPTH)
        return fprintf(stderr, "usage: bench_sample_symbols [STACKS [ADDRESSES [DEPTH]]]\n"), 2;
    dl_iterate_phdr(add_module, NULL);
    uint64_t *addr = malloc((size_t)naddr * sizeof *addr), ip[RS_MAX_DEPTH];
    uint64_t total = 0;
    for (int i = 0; i < ntext; i++)
        total += text[i].end - text[i].start;
    srand(12345);
    for (long a = 0; a < naddr; a++) { /* spread over the text, in proportion to its size */
        uint64_t off = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % total;
        int i = 0;
        while (off >= text[i].end - text[i].start) {
            off -= text[i].end - text[i].start;
            i++;
        }
        addr[a] = text[i].start + off;
    }
    struct rs_config c;
    struct stack_table t;
    memset(&c, 0, sizeof c);
    char dir[] = "/tmp/bench_sample_XXXXXX";
    if (!addr || !mkdtemp(dir) || stack_table_init(&t, (size_t)nstacks, 1) != 0)
        return fprintf(stderr, "bench_sample_symbols: out of memory or no /tmp\n"), 1;
    snprintf(c.name[0], sizeof c.name[0], "perf::TASK-CLOCK");
    snprintf(c.dir, sizeof c.dir, "%s", dir);
    snprintf(c.id, sizeof c.id, "bench");
    c.value = 1000000;
    c.callchain = 1;
    c.cap = (size_t)nstacks;
    uint64_t w[1] = {1000000};
    /* Distinct stacks: the leaf and its caller together differ between any two. */
    for (long s = 0; s < nstacks; s++) {
        for (int d = 0; d < depth; d++)
            ip[d] = addr[(size_t)(s * 7919 + d * 104729) % (size_t)naddr];
        ip[0] = addr[(size_t)s % (size_t)naddr];
        if (depth > 1)
            ip[1] = addr[(size_t)(s / naddr + 1) * 7 % (size_t)naddr];
        stack_table_add(&t, 1, ip, (uint32_t)depth, w);
    }
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    int ret = rs_profile_write(&c, &t, "");
    double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    printf("%zu distinct stacks of %d frames, %ld distinct addresses in %d text segments: "
           "named and written in %.3f s (%.3f s of CPU) (%s)\n",
           t.n, depth, naddr, ntext, t1 - t0, c1 - c0, ret == 0 ? "ok" : "write failed");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_sample_symbols: %s left\n", dir);
    stack_table_free(&t);
    free(addr);
    return ret == 0 ? 0 : 1;
}
