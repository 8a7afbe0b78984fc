/* cupti_loader.c: libcupti found with dlopen and its calls looked up (cupti_loader.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cupti_loader.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "str_append.h"
#include "user_dlopen.h"

struct cudart_find {
    char *dir;
    size_t len;
    int found;
};

static int cudart_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct cudart_find *f = arg;
    const char *path = info->dlpi_name;
    const char *base = path ? strrchr(path, '/') : NULL;
    if (!base || strncmp(base + 1, "libcudart.so", 12) != 0)
        return 0;
    snprintf(f->dir, f->len, "%.*s", (int)(base - path), path);
    f->found = 1;
    return 1;
}

int cupti_cudart_dir(char *dir, size_t len)
{
    struct cudart_find f = {dir, len, 0};
    dir[0] = '\0';
    dl_iterate_phdr(cudart_visit, &f);
    return f.found;
}

/* The sonames this build knows, newest first (a literal list: only it is dlopened as is). */
static const char *const cupti_sonames[] = {"libcupti.so.13", "libcupti.so.12"};
#define NSONAMES ((int)(sizeof cupti_sonames / sizeof cupti_sonames[0]))

/* The library by soname (the loader's search; a test's names through user_dlopen), else
 * in the CUDA runtime's folder, its toolkit's extras/CUPTI/lib64 and a Python wheel's
 * nvidia/cuda_cupti/lib. */
static void *open_cupti(const char *const *names, int n, char *path, size_t plen, char *why,
                        size_t wlen)
{
    why[0] = '\0';
    int ours = names == NULL;
    if (ours) {
        names = cupti_sonames;
        n = NSONAMES;
    }
    for (int i = 0; i < n; i++) {
        char err[256] = "";
        void *h = NULL;
        if (ours) {
            h = dlopen(cupti_sonames[i], RTLD_NOW | RTLD_LOCAL);
            const char *e = h ? NULL : dlerror();
            snprintf(err, sizeof err, "%s", e ? e : "");
        } else {
            h = user_dlopen(names[i], RTLD_NOW | RTLD_LOCAL, err, sizeof err);
        }
        if (h) {
            snprintf(path, plen, "%s", names[i]);
            return h;
        }
        str_appendf(why, wlen, "%s%s", i ? "; " : "", err);
    }
    char dir[400];
    if (!cupti_cudart_dir(dir, sizeof dir)) {
        str_appendf(why, wlen, "; no CUDA runtime (libcudart) loaded to look beside");
        return NULL;
    }
    const char *const beside[] = {"", "/../extras/CUPTI/lib64", "/../../cuda_cupti/lib"};
    for (size_t b = 0; b < sizeof beside / sizeof beside[0]; b++)
        for (int i = 0; i < n; i++) {
            char err[256];
            const char *base = strrchr(names[i], '/');
            snprintf(path, plen, "%s%s/%s", dir, beside[b], base ? base + 1 : names[i]);
            void *h = user_dlopen(path, RTLD_NOW | RTLD_LOCAL, err, sizeof err);
            if (h)
                return h;
        }
    str_appendf(why, wlen, "; nor beside %s/libcudart", dir);
    return NULL;
}

enum cupti_status cupti_load(struct cupti_lib *lib, const char *const *sonames, int n, char *reason,
                             size_t len)
{
    memset(lib, 0, sizeof *lib);
    reason[0] = '\0';
    char why[768];
    lib->handle = open_cupti(sonames, n, lib->path, sizeof lib->path, why, sizeof why);
    if (!lib->handle) {
        snprintf(reason, len,
                 "libcupti not found (%s): no GPU activity; CUPTI comes with the CUDA "
                 "toolkit: put its lib folder on LD_LIBRARY_PATH",
                 why);
        return CUPTI_LOAD_MISSING;
    }
    struct link_map *map = NULL;
    if (dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
        snprintf(lib->path, sizeof lib->path, "%s", map->l_name);
#define CUPTI_LOOKUP(sym, required)                                           \
    *(void **)&lib->sym = dlsym(lib->handle, #sym);                           \
    if (!lib->sym && (required)) {                                            \
        snprintf(reason, len,                                                 \
                 "%s lacks %s: a CUPTI of another version (this build reads " \
                 "CUDA 12's and 13's)",                                       \
                 lib->path, #sym);                                            \
        cupti_unload(lib);                                                    \
        return CUPTI_LOAD_SYMBOL;                                             \
    }
    CUPTI_SYMBOLS(CUPTI_LOOKUP)
#undef CUPTI_LOOKUP
    uint32_t v = 0;
    CUptiResult r = lib->cuptiGetVersion(&v);
    int known = (v >= CUPTI_VERSION_CUDA12_FIRST && v <= CUPTI_VERSION_CUDA12_LAST) ||
                (v >= CUPTI_VERSION_CUDA13_FIRST && v <= CUPTI_VERSION_CUDA13_LAST);
    if (r != CUPTI_SUCCESS || !known) {
        snprintf(reason, len,
                 "%s is CUPTI version %u%s%s: this build reads the records of CUDA 12 "
                 "(versions %d-%d) and 13 (%d-%d)",
                 lib->path, (unsigned)v, r != CUPTI_SUCCESS ? ", cuptiGetVersion: " : "",
                 r != CUPTI_SUCCESS ? cupti_result_words(lib, r) : "", CUPTI_VERSION_CUDA12_FIRST,
                 CUPTI_VERSION_CUDA12_LAST, CUPTI_VERSION_CUDA13_FIRST, CUPTI_VERSION_CUDA13_LAST);
        cupti_unload(lib);
        return CUPTI_LOAD_VERSION;
    }
    lib->version = v;
    return CUPTI_LOAD_OK;
}

const char *cupti_result_words(const struct cupti_lib *lib, CUptiResult result)
{
    static _Thread_local char buf[32];
    const char *s = NULL;
    if (lib->cuptiGetResultString && lib->cuptiGetResultString(result, &s) == CUPTI_SUCCESS && s)
        return s;
    snprintf(buf, sizeof buf, "CUPTI error %d", result);
    return buf;
}

void cupti_unload(struct cupti_lib *lib)
{
    if (lib->handle)
        dlclose(lib->handle);
    memset(lib, 0, sizeof *lib);
}
