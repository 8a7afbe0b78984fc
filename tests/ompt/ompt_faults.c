/* ompt_faults.c: known page faults per thread per parallel region (check_ompt.py, case
 * faults): after a region that starts the team (its threads, their stacks, this code),
 * thread t of 4 writes one byte into each of (t+1) x PAGES pages of its own, fresh from
 * mmap (without transparent huge pages: one fault each), so the tool's perf::PAGE-FAULTS
 * for thread t in that region is exactly (t+1) x PAGES. Prints the directives' lines. */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ompt_pages.h"

#define PAGES 64

/* Unchecked under AddressSanitizer (ompt_faults_lsan_c): its check of each store reads
 * the shadow memory, one more page fault per 8 pages. */
__attribute__((no_sanitize("address"))) static void touch(volatile char *p, long pages, long page)
{
    for (long i = 0; i < pages; i++)
        p[i * page] = 1;
}

int main(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = (size_t)(10 * PAGES * page); /* 1 + 2 + 3 + 4 shares */
    char *buf = fresh_pages(bytes);
    if (!buf) {
        perror("ompt_faults: mmap");
        return 1;
    }
    const int warmup_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
    touch(buf, 0, page);
    const int faults_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
    {
        int t = omp_get_thread_num();
        touch(buf + (long)t * (t + 1) / 2 * PAGES * page, (t + 1) * PAGES, page);
    }
    printf("{\"file\": \"%s\", \"warmup_line\": %d, \"faults_line\": %d, \"pages\": [%d, %d, %d, "
           "%d]}\n",
           __FILE__, warmup_line, faults_line, PAGES, 2 * PAGES, 3 * PAGES, 4 * PAGES);
    munmap(buf, bytes);
    return 0;
}
