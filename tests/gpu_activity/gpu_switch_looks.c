/* gpu_switch_looks.c: what a region begin costs a program that loaded no CUDA (issue 69):
 * with count_phdr.so preloaded (the calls of dl_iterate_phdr counted), 1,000 region pairs
 * after the first walk the loader's list at most 10 times (each begin walked it, under the
 * loader's lock, before). The switch still sees CUDA loaded later: after the stand-in
 * libcudart ($PAPI_TEST_CUDART) is loaded and more than the switch's 50 ms between looks has passed,
 * the next region begin starts the layer (the CUPTI double, libcupti.so.13, is loaded). */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include "papi_test.h"

#define PAIRS 1000

static int pair(const char *name)
{
    int ret = PAPI_hl_region_begin(name);
    return ret == PAPI_OK ? PAPI_hl_region_end(name) : ret;
}

static int cupti_loaded(void)
{
    return dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD) != NULL;
}

int main(void)
{
    long (*count)(void);
    *(void **)&count = dlsym(RTLD_DEFAULT, "count_phdr_calls");
    const char *cudart = getenv("PAPI_TEST_CUDART");
    if (!count || !cudart) {
        fprintf(stderr, "usage: LD_PRELOAD=count_phdr.so PAPI_TEST_CUDART=LIBCUDART "
                        "gpu_switch_looks\n");
        return 2;
    }
    CHECK_RET(pair("first"), PAPI_OK); /* the library's start, the switch's first look */
    long before = count();
    for (int i = 0; i < PAIRS; i++)
        CHECK_RET(pair("pair"), PAPI_OK);
    long walks = count() - before;
    printf("%d region pairs without CUDA: %ld walks of the loader's list\n", PAIRS, walks);
    CHECK(walks <= 10, "%ld calls of dl_iterate_phdr in %d region pairs, want at most 10", walks,
          PAIRS);
    CHECK(!cupti_loaded(), "the GPU activity layer started without CUDA");
    CHECK(dlopen(cudart, RTLD_NOW | RTLD_GLOBAL) != NULL, "dlopen %s: %s", cudart, dlerror());
    struct timespec pause = {0, 120000000}; /* 120 ms: past the 50 ms between looks */
    nanosleep(&pause, NULL);
    CHECK_RET(pair("after"), PAPI_OK);
    printf("after CUDA was loaded: the layer %s\n", cupti_loaded() ? "started" : "did not start");
    CHECK(cupti_loaded(), "the region begin after CUDA was loaded did not start the layer");
    return test_done("gpu_switch_looks");
}
