/* sample_pages.c: a function that faults in a known number of pages, for leader sampling
 * on perf::PAGE-FAULTS@1 (check_sample.py faults).
 *   sample_pages PAGES
 * touch_fresh_pages stores one byte into each page of a fresh anonymous mapping (not
 * populated, huge pages refused so that each 4 KiB page is one fault), so it takes exactly
 * PAGES page faults; nothing else in main touches the mapping. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise's MADV_NOHUGEPAGE under -std=c11 */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) void touch_fresh_pages(char *map, long page, long pages)
{
    for (long i = 0; i < pages; i++)
        map[i * page] = (char)i;
}

int main(int argc, char **argv)
{
    if (argc < 2 || atol(argv[1]) < 1)
        return fprintf(stderr, "usage: sample_pages PAGES\n"), 2;
    long page = sysconf(_SC_PAGESIZE), pages = atol(argv[1]);
    size_t len = (size_t)(pages * page);
    char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return perror("mmap"), 1;
    /* With transparent huge pages "always", one fault could map 512 pages at once. */
    if (madvise(map, len, MADV_NOHUGEPAGE) != 0)
        return perror("madvise"), 1;
    touch_fresh_pages(map, page, pages);
    munmap(map, len);
    return 0;
}
