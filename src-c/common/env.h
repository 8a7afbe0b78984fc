/* env.h: the library's and the tools' one way to read their environment variables.
 *
 * A variable that names a file or directory (PAPI_FSROOT, PAPI_OUTPUT_DIRECTORY,
 * PAPI_CSV_EVENT_FILE ...) or changes what the library does (PAPI_EVENTS,
 * PAPI_USER_READ ...) is the choice of whoever runs the program. In a privileged process
 * (setuid, setgid, or file capabilities such as cap_perfmon given with setcap: the
 * kernel's AT_SECURE) that user is not the one the program acts for, so env_get ignores
 * every such variable there (secure_getenv), and says so once (warn_once.h).
 *
 * env_is_set only asks whether a third-party library (hwloc, libpfm4) will see one of
 * its own variables, which it reads itself: the library then leaves that choice alone.
 * In a privileged process those libraries see none (scoped_env.c hides every HWLOC_* and
 * LIBPFM_* variable around each call into them), and env_is_set answers false.
 *
 * env_privileged is that one question, asked wherever a caller's choice must not be
 * taken with the privileges (user_dlopen.c: a library the caller names is not loaded). */
#ifndef PAPI_ENV_H
#define PAPI_ENV_H

#include <stdbool.h>

/* The variable's value, or NULL when it is unset or the process is privileged. */
__attribute__((visibility("hidden"))) const char *env_get(const char *name);
/* Whether name is set at all (for another library's own variables only); false in a
 * privileged process. */
__attribute__((visibility("hidden"))) bool env_is_set(const char *name);
/* Whether this process runs with privileges its caller may not have (AT_SECURE). */
__attribute__((visibility("hidden"))) bool env_privileged(void);

#endif
