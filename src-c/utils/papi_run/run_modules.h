/* run_modules.h: where papi_run's own modules lie (run_modules.c). */
#ifndef PAPI_RUN_MODULES_H
#define PAPI_RUN_MODULES_H

#include <stddef.h>

/* The path of papi_run's module lib (PAPI_RUN_LIBDIR, papi_run's own directory, the lib
 * directory beside its bin, the configured one; each also with papi-compat/): 0, or -1
 * when it is not installed. */
int run_find_module(const char *lib, char *path, size_t len);

#endif
