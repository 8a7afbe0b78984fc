/* region_sample_unload: in its region "outer", loads the library argv[1]
 * (region_sample_unload_lib.c), runs its sampled region, unloads it with dlclose and exits:
 * the report, written at exit, names the library's function from its file
 * (check_region_sample.py --unloaded). */
#include <dlfcn.h>
#include <papi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (PAPI_hl_region_begin("outer") != PAPI_OK)
        return 1;
    void *lib = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    int (*run)(void);
    if (!lib) {
        fprintf(stderr, "region_sample_unload: %s\n", argc == 2 ? dlerror() : "usage: LIB");
        return 2;
    }
    *(void **)&run = dlsym(lib, "rs_lib_run");
    int bad = !run || run();
    if (dlclose(lib) != 0 || dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) != NULL) {
        fprintf(stderr, "region_sample_unload: the library is still loaded\n");
        return 1;
    }
    return bad | (PAPI_hl_region_end("outer") != PAPI_OK);
}
