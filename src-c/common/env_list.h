/* env_list.h: adding one item to a colon-separated list in the environment
 * (LD_PRELOAD, OMP_TOOL_LIBRARIES), for a program started next (papi_run's child) or a
 * runtime that reads the variable later (the MPI wrapper names the OMPT tool before main).
 * The one place both do it, so the two agree on order and on what "too long" is. */
#ifndef PAPI_ENV_LIST_H
#define PAPI_ENV_LIST_H

/* Sets name to item alone when the variable is unset or empty, else item in front of
 * (front != 0: it is found first, LD_PRELOAD) or after the value read through env_get
 * (the user's tools keep their place). 0, or -1 when the result would exceed 8191 bytes
 * (the variable is then left as it was). */
__attribute__((visibility("hidden"))) int env_list_add(const char *name, const char *item,
                                                       int front);

#endif
