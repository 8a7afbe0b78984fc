/* ompt_query.c: the OMPT tool's exported symbols, found among the loaded objects by the
 * tool's file name (ompt_query.h): the OpenMP runtime loads it privately (RTLD_LOCAL), so
 * the symbol is taken from its own handle, which the runtime's reference keeps loaded. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "ompt_query.h"

struct found {
    void *tool;
    int gomp;
};

static int find_tool(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct found *f = data;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *name = slash ? slash + 1 : info->dlpi_name;
    f->gomp |= strncmp(name, "libgomp.so", 10) == 0;
    if (strcmp(name, "libpapi_ompt.so") == 0 && !f->tool)
        f->tool = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return 0;
}

void *ompt_query_lookup(const char *symbol, int *gomp)
{
    struct found f = {NULL, 0};
    dl_iterate_phdr(find_tool, &f);
    void *sym = f.tool ? dlsym(f.tool, symbol) : NULL;
    if (f.tool)
        dlclose(f.tool); /* the runtime's reference keeps it loaded */
    if (gomp)
        *gomp = f.gomp;
    return sym;
}
