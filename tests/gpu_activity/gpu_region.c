/* gpu_region.c: a program's regions see its GPU work (the region API with the GPU
 * activity layer on the CUPTI double). Usage: gpu_region CUDART|- DIR: CUDART (a stand-in
 * libcudart, loaded first: the program "uses CUDA") or - (it does not); DIR holds the
 * record files it "launches" (cupti_double_launch): a.txt twice in "compute" (once inside
 * "outer"), b.txt in "outer" after it, c.txt outside every region. With a third argument
 * "first" it first launches d.txt in a region "first" of its own, ended before any other
 * begins; with "half" it only runs a region "half" of 1 s from just after its begin (the
 * GPU layer's start), launching half.txt (a 500 ms synchronisation) in it, and exits:
 * the run's device offload efficiency is then 0.5; with
 * "shutdown" it then calls PAPI_shutdown, which stops the layer: CUPTI unsubscribed and
 * its kinds disabled (the double says), the sums kept for the report at exit. The report
 * is read by check_gpu_region.py. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

static int (*launch_fn)(const char *);

static int launch(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!launch_fn)
        return 0; /* the layer is off: CUPTI was never asked for buffers */
    usleep(1000); /* later than every record launched before: no overlap by chance */
    if (launch_fn(path) != 0) {
        fprintf(stderr, "gpu_region: cannot read %s\n", path);
        return -1;
    }
    return 0;
}

static int region(const char *name, int begin)
{
    int ret = begin ? PAPI_hl_region_begin(name) : PAPI_hl_region_end(name);
    if (ret != PAPI_OK)
        fprintf(stderr, "gpu_region: %s(%s): %s\n", begin ? "begin" : "end", name,
                PAPI_strerror(ret));
    return ret;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "half": region "half", 1 s from just after its begin (which starts the GPU layer: the
 * run's start), half.txt launched in it. */
static int half(const char *dir)
{
    if (region("half", 1) != PAPI_OK) /* PAPI's and the layer's start: the run's */
        return 1;
    double t0 = now_s(), left;
    void *cupti = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (cupti)
        *(void **)&launch_fn = dlsym(cupti, "cupti_double_launch");
    if (!launch_fn || launch(dir, "half.txt"))
        return 1;
    while ((left = 1.0 - (now_s() - t0)) > 0) /* slept, then the last ms spun */
        if (left > 2e-3)
            usleep((useconds_t)((left - 1e-3) * 1e6));
    return region("half", 0) != PAPI_OK;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: gpu_region CUDART|- DIR [shutdown|first|half]\n");
        return 2;
    }
    if (strcmp(argv[1], "-") != 0 && !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
        fprintf(stderr, "gpu_region: %s\n", dlerror());
        return 1;
    }
    const char *dir = argv[2];
    if (argc == 4 && strcmp(argv[3], "half") == 0)
        return half(dir);
    int first = argc == 4 && strcmp(argv[3], "first") == 0;
    if (region(first ? "first" : "outer", 1) != PAPI_OK)
        return 1;
    /* The layer started at the first begin, if at all: CUPTI (the double) is loaded. */
    void *cupti = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (cupti)
        *(void **)&launch_fn = dlsym(cupti, "cupti_double_launch");
    printf("gpu_region: GPU activity layer %s\n", launch_fn ? "on" : "off");
    /* "first": d.txt in a region of its own, the first, ended (flushed) before any other
     * begins: the first region's work reaches the trace's GPU tracks too. */
    if (first &&
        (launch(dir, "d.txt") || region("first", 0) != PAPI_OK || region("outer", 1) != PAPI_OK))
        return 1;
    if (region("compute", 1) != PAPI_OK || launch(dir, "a.txt") ||
        region("compute", 0) != PAPI_OK || launch(dir, "b.txt") || region("outer", 0) != PAPI_OK ||
        launch(dir, "c.txt") || region("compute", 1) != PAPI_OK || launch(dir, "a.txt") ||
        region("compute", 0) != PAPI_OK)
        return 1;
    if (argc == 4 && strcmp(argv[3], "shutdown") == 0 && cupti) {
        int (*subscribed)(void), (*enabled)(void);
        *(void **)&subscribed = dlsym(cupti, "cupti_double_subscribed");
        *(void **)&enabled = dlsym(cupti, "cupti_double_enabled");
        PAPI_shutdown();
        printf("gpu_region: after PAPI_shutdown: %d subscribed, %d kinds enabled\n", subscribed(),
               enabled());
    }
    return 0;
}
