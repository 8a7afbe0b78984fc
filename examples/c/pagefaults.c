/* pagefaults.c: count the page faults of a loop that touches fresh memory.
 * Software events like this one count everywhere, even in a VM without a PMU. */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long pages = argc > 1 ? atol(argv[1]) : 1000;
    long page = sysconf(_SC_PAGESIZE);
    int es = PAPI_NULL, ret;
    long long count;

    if ((ret = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init: %s\n", PAPI_strerror(ret));
        return 1;
    }
    if ((ret = PAPI_create_eventset(&es)) != PAPI_OK ||
        (ret = PAPI_add_named_event(es, "perf::PAGE-FAULTS")) != PAPI_OK) {
        PAPI_perror("setting up the event set");
        return 1;
    }
    char *mem = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return 1;
    /* 4 KiB pages even where transparent huge pages are "always": one fault each. */
    madvise(mem, (size_t)(pages * page), MADV_NOHUGEPAGE);
    /* A first start and stop brings their code into memory: a program linked with the
     * static libpapi.a otherwise takes one page fault for PAPI_stop's code in the count. */
    PAPI_start(es);
    PAPI_stop(es, &count);
    PAPI_start(es);
    for (long i = 0; i < pages; i++)
        mem[i * page] = 1; /* first touch of each page: one page fault */
    PAPI_stop(es, &count);
    printf("touched %ld pages: %lld page faults\n", pages, count);
    munmap(mem, (size_t)(pages * page));
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    return count == pages ? 0 : 2;
}
