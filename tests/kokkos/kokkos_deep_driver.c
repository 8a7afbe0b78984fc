/* kokkos_deep_driver: the connector's callbacks called as Kokkos calls them, past its
 * nesting limit (KR_MAX_OPEN, 64 open kernels and regions a thread), with PAGES fresh
 * pages touched after each pop so that a region ended early or late shows in its
 * count. check_kokkos_deep.py reads the region report it leaves.
 *   deep: 70 nested pushes deep_00 .. deep_69 (the last 6 refused), then 70 pops, each
 *         followed by a touch: deep_N (N < 64) holds the 69 - N touches of the deeper
 *         pops, deep_64 .. deep_69 are not regions.
 *   mixed: 63 pushes b00 .. b62, a kernel "kern" (the 64th), a push "q" (refused), the
 *         kernel ended, a push "r" (taking the kernel's place); then pops, each followed
 *         by a touch: r ends first, q's pop ends nothing, so b62 holds two touches.
 * Usage: kokkos_deep_driver PAGES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void kokkosp_init_library(int loadSeq, uint64_t interfaceVer, uint32_t devInfoCount,
                          void *deviceInfo);
void kokkosp_finalize_library(void);
void kokkosp_begin_parallel_for(const char *name, uint32_t devID, uint64_t *kID);
void kokkosp_end_parallel_for(uint64_t kID);
void kokkosp_push_profile_region(const char *name);
void kokkosp_pop_profile_region(void);

static long pages;

static void touch(void)
{
    long psz = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    for (long i = 0; i < pages; i++)
        ((volatile char *)p)[i * psz] = 1;
    munmap(p, (size_t)(pages * psz));
}

int main(int argc, char **argv)
{
    pages = argc > 1 ? atol(argv[1]) : 200;
    char name[32];
    kokkosp_init_library(0, 20211015, 0, NULL);

    for (int i = 0; i < 70; i++) {
        snprintf(name, sizeof name, "deep_%02d", i);
        kokkosp_push_profile_region(name);
    }
    for (int i = 0; i < 70; i++) {
        kokkosp_pop_profile_region();
        touch();
    }

    for (int i = 0; i < 63; i++) {
        snprintf(name, sizeof name, "b%02d", i);
        kokkosp_push_profile_region(name);
    }
    uint64_t kid;
    kokkosp_begin_parallel_for("kern", 0, &kid);
    kokkosp_push_profile_region("q");
    kokkosp_end_parallel_for(kid);
    kokkosp_push_profile_region("r");
    for (int i = 0; i < 65; i++) {
        kokkosp_pop_profile_region();
        touch();
    }
    /* One pop too many: ends nothing. */
    kokkosp_pop_profile_region();
    kokkosp_finalize_library();
    return 0;
}
