/* ompt_unload.c LIB: loads LIB (ompt_unload_lib.c), runs its parallel regions (one three
 * times, one inlined at two calls), unloads it with dlclose and exits, for check_ompt.py's case unloaded (issue 69
 * N9): the tool names regions at exit, when the library is no longer mapped. Its last
 * line says whether /proc/self/maps still shows LIB after dlclose (a runtime that pins
 * it would leave nothing to test). */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a line of /proc/self/maps names path (-1: unreadable). */
static int mapped(const char *path)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, path) != NULL;
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc != 2 || !realpath(argv[1], path)) {
        fprintf(stderr, "usage: ompt_unload LIB (an existing file)\n");
        return 2;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    int (*run)(void);
    const int *line = lib ? dlsym(lib, "ompt_unload_line") : NULL;
    const int *scale = lib ? dlsym(lib, "ompt_unload_scale_line") : NULL;
    const int *calls = lib ? dlsym(lib, "ompt_unload_calls") : NULL;
    *(void **)&run = lib ? dlsym(lib, "ompt_unload_run") : NULL;
    if (!run || !line || !scale || !calls) {
        fprintf(stderr, "ompt_unload: %s\n", lib ? "a symbol is missing" : dlerror());
        return 2;
    }
    int at = *line, scale_at = *scale, call[2] = {calls[0], calls[1]};
    int was = mapped(path), sum = run();
    if (dlclose(lib) != 0) {
        fprintf(stderr, "ompt_unload: dlclose: %s\n", dlerror());
        return 1;
    }
    int still = mapped(path);
    printf("{\"file\": \"ompt_unload_lib.c\", \"line\": %d, \"function\": \"lib_fork\", "
           "\"scale_line\": %d, \"calls\": [%d, %d], \"library\": \"%s\", "
           "\"mapped_before\": %d, \"mapped_after\": %d, \"threads\": %d, \"sum\": %d}\n",
           at, scale_at, call[0], call[1], path, was, still, omp_get_max_threads(), sum);
    return sum == 9 ? 0 : 1;
}
