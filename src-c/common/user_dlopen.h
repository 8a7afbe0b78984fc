/* user_dlopen.h: loading a library whose path the caller of a tool names (papi_native_avail
 * -sde FILE). Loading runs the library's constructors, so in a privileged process
 * (setuid, setgid, or file capabilities such as the cap_perfmon our messages recommend:
 * env_privileged) it would run the caller's code with privileges the caller may not
 * have. There nothing is loaded and the reason says why. Every dlopen of a name that is
 * not fixed at build time goes through here (tests/layers/check_env_reads.py). */
#ifndef PAPI_USER_DLOPEN_H
#define PAPI_USER_DLOPEN_H

#include <stddef.h>

/* dlopen(path, flags), or NULL with the reason in why (len bytes): the loader's, or
 * that a privileged process loads no library its caller names. */
__attribute__((visibility("hidden"))) void *user_dlopen(const char *path, int flags, char *why,
                                                        size_t len);

#endif
