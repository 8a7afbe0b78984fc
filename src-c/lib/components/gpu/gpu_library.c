/* gpu_library.c: a vendor library dlopened and its symbols looked up (gpu_library.h). */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "component.h"
#include "gpu_library.h"

const char *gpu_library_path(void *handle, const char *soname)
{
    struct link_map *map = NULL;
    if (handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
        map->l_name[0])
        return map->l_name;
    return soname;
}

int gpu_library_open(const char *soname, const struct gpu_symbol *syms, int n,
                     const struct gpu_library_words *words, void **handle, char *reason, size_t len)
{
    reason[0] = '\0';
    *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        const char *why = dlerror();
        snprintf(reason, len, "%s not found (%s): %s", soname, why ? why : "dlopen failed",
                 words->absent);
        return PAPI_ECMP;
    }
    char missing[512] = "";
    for (int i = 0; i < n; i++) {
        *syms[i].address = dlsym(*handle, syms[i].name);
        if (!*syms[i].address && syms[i].required) {
            snprintf(reason, len, "%s lacks %s: %s", gpu_library_path(*handle, soname),
                     syms[i].name, words->other_version);
            return PAPI_ECMP;
        }
        size_t used = strlen(missing);
        if (!*syms[i].address)
            snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", syms[i].name);
    }
    if (missing[0]) /* a caveat of an enabled component: what is not listed, and why */
        snprintf(reason, len,
                 "%s lacks %s: the events that read them are not listed (the others are)",
                 gpu_library_path(*handle, soname), missing);
    return PAPI_OK;
}
