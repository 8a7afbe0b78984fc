/* ompt_thread_ids.c: a program that numbers its threads itself, as PAPI advises
 * (PAPI_thread_init with omp_get_thread_num), and counts each thread with sets and regions of
 * its own. Under papi_run the OMPT tool counts every OpenMP thread in the same libpapi; the
 * program's own calls must return what they return without it (issue 69 item 1): in a team
 * of 4, thread t's PAPI_thread_id() is t, its own set counts its (t+1) x PAGES fresh pages
 * exactly, and its region "work" is thread t of the region file (PAPI_OUTPUT_DIRECTORY).
 * Prints one JSON line of what it saw (check_thread_ids.py). With THREAD_IDS_MPI (tests/mpi)
 * it is an MPI program of one rank, MPI_Init_thread after its PAPI_thread_init. */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ompt_pages.h"
#include "papi.h"
#ifdef THREAD_IDS_MPI /* tests/mpi: under mpirun ... papi_run, the MPI wrapper in it too */
#include <mpi.h>
#endif

#define PAGES 64
#define TEAM  4

static unsigned long omp_id(void)
{
    return (unsigned long)omp_get_thread_num();
}

static void touch(volatile char *p, long pages, long page)
{
    for (long i = 0; i < pages; i++)
        p[i * page] = 1;
}

/* Thread t's own set: perf::PAGE-FAULTS over its (t+1) x PAGES pages, or -1. */
static long long own_count(char *pages, int t, long page)
{
    int es = PAPI_NULL;
    long long v = -1;
    if (PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK || PAPI_start(es) != PAPI_OK) {
        fprintf(stderr, "ompt_thread_ids: thread %d: its own set: %s\n", t, PAPI_strerror_detail());
        return -1;
    }
    touch(pages, (t + 1) * PAGES, page);
    if (PAPI_stop(es, &v) != PAPI_OK)
        v = -1;
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return v;
}

int main(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = (size_t)(10 * PAGES * page); /* 1 + 2 + 3 + 4 shares */
    char *buf = fresh_pages(bytes);
    if (!buf) {
        perror("ompt_thread_ids: mmap");
        return 1;
    }
    int init_before = PAPI_is_initialized(); /* a tool started before main is not the program */
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "ompt_thread_ids: PAPI: %s\n", PAPI_strerror_detail());
        return 1;
    }
    int init_after = PAPI_is_initialized(); /* the low level only: no thread id function yet */
    if (PAPI_thread_init(omp_id) != PAPI_OK) {
        fprintf(stderr, "ompt_thread_ids: PAPI: %s\n", PAPI_strerror_detail());
        return 1;
    }
#ifdef THREAD_IDS_MPI /* after the program's PAPI_thread_init: the wrapper starts here */
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
#endif
    unsigned long id[TEAM];
    long tid[TEAM];
    long long faults[TEAM];
    int team = 0;
#pragma omp parallel num_threads(TEAM)
    touch(buf, 0, page); /* the team starts (and the OMPT tool with it) */
#pragma omp parallel num_threads(TEAM)
    {
        int t = omp_get_thread_num();
        /* First: the region API's set runs in the thread from its first region on. */
        faults[t] = own_count(buf + (long)t * (t + 1) / 2 * PAGES * page, t, page);
        PAPI_hl_region_begin("work");
        id[t] = PAPI_thread_id();
        tid[t] = (long)syscall(SYS_gettid);
        PAPI_hl_region_end("work");
#pragma omp single
        team = omp_get_num_threads();
    }
    unsigned long master = PAPI_thread_id();
    printf("{\"init_before\": %d, \"init_after\": %d, \"team\": %d, \"pages\": %d, "
           "\"master_id\": %lu, \"ids\": [",
           init_before, init_after, team, PAGES, master);
    for (int t = 0; t < team && t < TEAM; t++)
        printf("%s%lu", t ? ", " : "", id[t]);
    printf("], \"tids\": [");
    for (int t = 0; t < team && t < TEAM; t++)
        printf("%s%ld", t ? ", " : "", tid[t]);
    printf("], \"faults\": [");
    for (int t = 0; t < team && t < TEAM; t++)
        printf("%s%lld", t ? ", " : "", faults[t]);
    printf("]}\n");
    munmap(buf, bytes);
#ifdef THREAD_IDS_MPI
    MPI_Finalize();
#endif
    return 0;
}
