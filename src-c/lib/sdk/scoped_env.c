/* scoped_env.c: an environment variable set only around one call into a library that
 * reads its options from the environment (hwloc's plugin list, libpfm4's PMU choice).
 * One lock serialises these windows, so two threads of ours never add and remove
 * variables at once; glibc appends a new variable at the end of environ and removes it
 * in place, so a concurrent getenv of another name still finds what it looks for. */
#include <pthread.h>
#include <stdlib.h>

#include "env.h"
#include "scoped_env.h"

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

bool scoped_env_begin(const char *name, const char *value, bool wanted)
{
    pthread_mutex_lock(&env_lock);
    /* The user's own setting always wins. */
    if (!wanted || env_is_set(name))
        return false;
    return setenv(name, value, 0) == 0;
}

void scoped_env_end(const char *name, bool was_set)
{
    if (was_set)
        unsetenv(name);
    pthread_mutex_unlock(&env_lock);
}
