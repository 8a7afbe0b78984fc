/* heap_visible.h: whether mallinfo2's bytes in use see this process's malloc. Under
 * AddressSanitizer or valgrind another allocator serves malloc and mallinfo2 reads 0: a
 * heap check there would pass whatever leaks, so the tests say SKIPPED for that check. */
#ifndef PAPI_HEAP_VISIBLE_H
#define PAPI_HEAP_VISIBLE_H

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

static inline int heap_visible(const char *check)
{
    size_t before = mallinfo2().uordblks;
    void *volatile p = malloc(4096);
    size_t during = mallinfo2().uordblks;
    free(p);
    if (p && during >= before + 4096)
        return 1;
    printf("SKIPPED: %s: mallinfo2 does not see malloc here (a sanitizer or valgrind "
           "serves it)\n",
           check);
    return 0;
}

#endif
