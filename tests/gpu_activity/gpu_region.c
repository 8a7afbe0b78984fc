/* gpu_region.c: a program's regions see its GPU work (the region API with the GPU
 * activity layer on the CUPTI double). Usage: gpu_region CUDART|- DIR: CUDART (a stand-in
 * libcudart, loaded first: the program "uses CUDA") or - (it does not); DIR holds the
 * record files it "launches" (cupti_double_launch): a.txt twice in "compute" (once inside
 * "outer"), b.txt in "outer" after it, c.txt outside every region. With a third argument
 * "shutdown" it then calls PAPI_shutdown, which stops the layer: CUPTI unsubscribed and
 * its kinds disabled (the double says), the sums kept for the report at exit. The report
 * is read by check_gpu_region.py. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
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

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: gpu_region CUDART|- DIR [shutdown]\n");
        return 2;
    }
    if (strcmp(argv[1], "-") != 0 && !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
        fprintf(stderr, "gpu_region: %s\n", dlerror());
        return 1;
    }
    const char *dir = argv[2];
    if (region("outer", 1) != PAPI_OK)
        return 1;
    /* The layer started at the first begin, if at all: CUPTI (the double) is loaded. */
    void *cupti = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (cupti)
        *(void **)&launch_fn = dlsym(cupti, "cupti_double_launch");
    printf("gpu_region: GPU activity layer %s\n", launch_fn ? "on" : "off");
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
