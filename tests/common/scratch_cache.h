/* scratch_cache.h: a cache folder of a program's own (XDG_CACHE_HOME), so that what a
 * component keeps there for a test or a bench (the cuda component's metric lists of the
 * doubles' fake chips) never reaches the user's ~/.cache; removed at the end. */
#ifndef PAPI_TESTS_SCRATCH_CACHE_H
#define PAPI_TESTS_SCRATCH_CACHE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* dir: a mkdtemp template, made and named in XDG_CACHE_HOME; 0, or -1 when mkdtemp failed. */
static inline int scratch_cache_make(char *dir)
{
    if (!mkdtemp(dir))
        return -1;
    return setenv("XDG_CACHE_HOME", dir, 1);
}

/* The folder and the project's files under it removed. */
static inline void scratch_cache_remove(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/papi-compat", dir);
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.') {
            char file[4500];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            unlink(file);
        }
    if (d)
        closedir(d);
    rmdir(path);
    rmdir(dir);
}

#endif
