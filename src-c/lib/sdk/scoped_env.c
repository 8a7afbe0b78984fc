/* scoped_env.c: an environment variable set only around one call into a library that
 * reads its options from the environment (hwloc's plugin list, libpfm4's PMU choice).
 * One lock serialises these windows, so two threads of ours never add and remove
 * variables at once; glibc appends a new variable at the end of environ and removes it
 * in place, so a concurrent getenv of another name still finds what it looks for.
 *
 * In a privileged process (AT_SECURE: setuid, setgid, or file capabilities such as
 * cap_perfmon) hwloc and libpfm4 would still read the caller's variables with a plain
 * getenv: HWLOC_PLUGINS_PATH makes hwloc dlopen any hwloc_*.so with the privilege held,
 * HWLOC_XMLFILE, HWLOC_CPUID_PATH and others make it read files the caller names. There
 * every HWLOC_* and LIBPFM_* variable is taken out of the environment for the window
 * and put back after it, so neither library sees one; that is said once. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "env.h"
#include "scoped_env.h"
#include "warn_once.h"

extern char **environ;

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

/* The variables hidden for the current window (under env_lock), as "NAME=value" copies:
 * as many as the environment holds (a cap would leave the ones past it visible). */
static char **hidden;
static size_t n_hidden, cap_hidden;
static size_t n_dropped; /* hidden for good: no memory to keep a copy */
static atomic_int said;

static bool foreign(const char *entry)
{
    return !strncmp(entry, "HWLOC_", 6) || !strncmp(entry, "LIBPFM_", 7);
}

/* Keeps a copy of entry to put back after the window; false when there is no memory. */
static bool keep_copy(const char *entry)
{
    if (n_hidden == cap_hidden) {
        size_t cap = cap_hidden ? 2 * cap_hidden : 16;
        char **grown = realloc(hidden, cap * sizeof *grown);
        if (!grown)
            return false;
        hidden = grown;
        cap_hidden = cap;
    }
    char *copy = strdup(entry);
    if (!copy)
        return false;
    hidden[n_hidden++] = copy;
    return true;
}

static void hide_foreign_variables(void)
{
    char name[256];
    const char *first = NULL;
    size_t first_len = 0;
    n_dropped = 0;
    for (int again = 1; again;) {
        again = 0;
        for (char **e = environ; e && *e; e++) {
            const char *eq = strchr(*e, '=');
            size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
            /* A name this long is none that hwloc or libpfm4 reads. */
            if (!foreign(*e) || len >= sizeof name)
                continue;
            memcpy(name, *e, len);
            name[len] = '\0';
            /* Without memory for a copy the variable is still removed (fail closed): it
             * stays out of the environment for the rest of the process. */
            if (!keep_copy(*e))
                n_dropped++;
            else if (!first) {
                first = hidden[0];
                first_len = len;
            }
            unsetenv(name); /* environ changed: scan it again from the start */
            again = 1;
            break;
        }
    }
    if (!first) { /* every copy failed: name the kinds */
        first = "HWLOC_*/LIBPFM_* variables";
        first_len = strlen(first);
    }
    if (n_hidden || n_dropped)
        warn_once(&said,
                  "%.*s%s ignored: this process runs with privileges (setuid, setgid or "
                  "file capabilities), and hwloc's and libpfm4's variables, which load plugins "
                  "and read files, are not taken from its caller's environment%s",
                  (int)first_len, first,
                  !n_hidden                  ? " are"
                  : n_hidden + n_dropped > 1 ? " and the other HWLOC_*/LIBPFM_* variables are"
                                             : " is",
                  n_dropped ? " (some removed for good: no memory to keep them)" : "");
}

static void restore_foreign_variables(void)
{
    for (size_t i = 0; i < n_hidden; i++) {
        char *eq = strchr(hidden[i], '=');
        if (eq) {
            *eq = '\0';
            setenv(hidden[i], eq + 1, 1);
        }
        free(hidden[i]);
    }
    n_hidden = 0;
}

bool scoped_env_begin(const char *name, const char *value, bool wanted)
{
    pthread_mutex_lock(&env_lock);
    if (getauxval(AT_SECURE))
        hide_foreign_variables();
    /* The user's own setting always wins (env_is_set: never in a privileged process). */
    if (!wanted || env_is_set(name))
        return false;
    return setenv(name, value, 0) == 0;
}

void scoped_env_end(const char *name, bool was_set)
{
    if (was_set)
        unsetenv(name);
    restore_foreign_variables();
    pthread_mutex_unlock(&env_lock);
}
