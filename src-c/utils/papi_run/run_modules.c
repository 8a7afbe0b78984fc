/* run_modules.c: where papi_run's own modules lie (its preloaded libraries, the OMPT
 * tool): the program's preparation (run_program.c) and the OpenMP side (run_openmp.c) find
 * them here, a leaf. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "run_modules.h"

/* Candidate i (0..3) of the directory holding lib: PAPI_RUN_LIBDIR, this program's own
 * directory (a build tree), the lib directory beside its bin, the configured one. */
static int lib_candidate(int i, char *dir, size_t len)
{
    char exe[PATH_MAX];
    const char *env = env_get("PAPI_RUN_LIBDIR");
    if (i == 0)
        return env && *env ? snprintf(dir, len, "%s", env) < (int)len : 0;
    if (i == 3)
        return snprintf(dir, len, "%s", PAPI_RUN_LIBDIR) < (int)len;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
    if (!slash)
        return 0;
    *slash = 0;
    int w = i == 1 ? snprintf(dir, len, "%s", exe)
                   : snprintf(dir, len, "%s/../%s", exe, PAPI_RUN_LIBDIR_REL);
    return w > 0 && (size_t)w < len;
}

int run_find_module(const char *lib, char *path, size_t len)
{
    char dir[PATH_MAX + 64];
    for (int i = 0; i < 8; i++) { /* each directory, then its papi-compat/ (modules) */
        if (!lib_candidate(i / 2, dir, sizeof dir) ||
            snprintf(path, len, "%s/%s%s", dir, i % 2 ? "papi-compat/" : "", lib) >= (int)len)
            continue;
        if (access(path, R_OK) == 0)
            return 0;
    }
    return -1;
}
