/* otf2_lib.c: libotf2 loaded once by its soname (otf2_lib.h), kept loaded: a later trace
 * needs it again, and unloading gains nothing. */
#include "otf2_lib.h"

#ifdef PAPI_HAVE_OTF2
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct otf2_lib table;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_why[256];
static int loaded;

static void load(void)
{
    static const char *const names[] = {PAPI_OTF2_SONAME, PAPI_OTF2_LIBRARY};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_why, sizeof load_why, "libotf2 not loaded (%.200s)", e ? e : "?");
        return;
    }
#define LOOKUP(f)                                                    \
    if (!(*(void **)&table.f = dlsym(h, #f))) {                      \
        snprintf(load_why, sizeof load_why, "libotf2 lacks %s", #f); \
        return;                                                      \
    }
    OTF2_LIB_FUNCS(LOOKUP)
#undef LOOKUP
    loaded = 1;
}

const struct otf2_lib *otf2_lib(char *why, size_t whylen)
{
    pthread_once(&load_once, load);
    if (!loaded)
        snprintf(why, whylen, "%s", load_why);
    return loaded ? &table : NULL;
}
#endif
