/* touch_sections.h: page-touching workloads placed in their own linker sections, so a
 * test knows the exact address range of the code that takes the page faults
 * (GNU ld defines __start_<section> and __stop_<section>). Every fault of one call
 * happens at the same store instruction. Not instrumented by AddressSanitizer: its
 * shadow-memory checks would add one page fault per 8 pages touched. */
#ifndef TOUCH_SECTIONS_H
#define TOUCH_SECTIONS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define TOUCH_FN(name, sec)                                                                \
    __attribute__((noinline, used, section(sec), no_sanitize("address"))) static void    \
    name(long n)                                                                           \
    {                                                                                      \
        long page = sysconf(_SC_PAGESIZE);                                                 \
        volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,          \
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);                       \
        if (p == MAP_FAILED)                                                               \
            exit(2);                                                                       \
        madvise((void *)p, (size_t)(n * page), MADV_NOHUGEPAGE); /* one fault per page */ \
        for (long i = 0; i < n; i++)                                                       \
            p[i * page] = 1;                                                               \
        munmap((void *)p, (size_t)(n * page));                                             \
    }

#define SECTION_START(section) ((uintptr_t)__start_##section)
#define SECTION_END(section)   ((uintptr_t)__stop_##section)

#endif
