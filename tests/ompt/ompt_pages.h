/* ompt_pages.h: the memory of the programs that count page faults per thread and region:
 * fresh anonymous pages with transparent huge pages off, so that the first touch of each
 * page is exactly one fault. */
#ifndef OMPT_PAGES_H
#define OMPT_PAGES_H

#include <stddef.h>
#include <sys/mman.h>

/* bytes of fresh pages, or NULL (errno set) when they cannot be had as such. */
static inline char *fresh_pages(size_t bytes)
{
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || madvise(p, bytes, MADV_NOHUGEPAGE) != 0)
        return NULL;
    return p;
}

#endif
