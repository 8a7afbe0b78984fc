/* trace_no_otf2_shim.c: preloaded ahead of the wrapper by check_mpi_trace.py, a machine
 * without libotf2: dlopen of libotf2 (libopen-trace-format2, Debian's name) fails as it would there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

void *dlopen(const char *name, int flags)
{
    static void *(*real)(const char *, int);
    if (name && (strstr(name, "otf2") || strstr(name, "open-trace-format")))
        return NULL;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "dlopen");
    return real ? real(name, flags) : NULL;
}
