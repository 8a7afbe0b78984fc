/* preset_test_pages.h: the presets tests' page-touching workload. */
#ifndef PRESET_TEST_PAGES_H
#define PRESET_TEST_PAGES_H
#include "papi_test.h"

/* touch_pages with transparent huge pages ruled out: with THP one fault can map 2 MiB
 * (seen in the arm64 guest), and the exact 1 fault per page is what is checked. */
static inline void touch_small_pages(long n)
{
    long page = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
#ifdef MADV_NOHUGEPAGE
    madvise((void *)p, (size_t)(n * page), MADV_NOHUGEPAGE);
#endif
    for (long i = 0; i < n; i++)
        p[i * page] = 1;
    munmap((void *)p, (size_t)(n * page));
}

#endif
