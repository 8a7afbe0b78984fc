/* omp_tool_name.c: the wrapper names the project's OMPT tool (libpapi_ompt.so, issue 58)
 * in OMP_TOOL_LIBRARIES when it loads, before main, so that an OpenMP runtime with OMPT
 * (LLVM's libomp, Intel's; they read the variable at their start, at the first OpenMP
 * construct) gives each rank its OpenMP sums for the hybrid efficiency (omp_hybrid.c).
 * The tool is the one installed beside the wrapper (papi-compat/, as papi_run takes its
 * modules), else in the configured library folder. A tool already named (papi_run names
 * it) is left alone; the user's tools keep their place in front; OMP_TOOL=disabled
 * names none. A libgomp program (gcc, gfortran) has no OMPT: papi_run interposes its
 * GOMP_* entry points for the tool (libpapi_gomp.so) or with --libomp runs it under
 * libomp, or the user preloads either before the wrapper. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "env_list.h"

#ifndef PAPI_MPI_OMPT_DIR
#define PAPI_MPI_OMPT_DIR ""
#endif

/* The tool beside this library, else in the configured folder: 0, or -1. */
static int find_tool(char *path, size_t len)
{
    Dl_info self;
    if (dladdr((void *)find_tool, &self) && self.dli_fname) {
        const char *slash = strrchr(self.dli_fname, '/');
        int dir = slash ? (int)(slash - self.dli_fname) : 1;
        if (snprintf(path, len, "%.*s/papi-compat/libpapi_ompt.so", dir,
                     slash ? self.dli_fname : ".") < (int)len &&
            access(path, R_OK) == 0)
            return 0;
    }
    return PAPI_MPI_OMPT_DIR[0] &&
                   snprintf(path, len, "%s/libpapi_ompt.so", PAPI_MPI_OMPT_DIR) < (int)len &&
                   access(path, R_OK) == 0
               ? 0
               : -1;
}

__attribute__((constructor)) static void name_ompt_tool(void)
{
    char tool[PATH_MAX];
    const char *off = env_get("OMP_TOOL"), *named = env_get("OMP_TOOL_LIBRARIES");
    if ((off && strcmp(off, "disabled") == 0) || (named && strstr(named, "libpapi_ompt.so")))
        return;
    if (find_tool(tool, sizeof tool) != 0)
        return; /* not installed: the report's wait_states.openmp says no rank measured */
    env_list_add("OMP_TOOL_LIBRARIES", tool, 0); /* too long: left as it was, no tool */
}
