/* env.c: environment variables, ignored in privileged processes (env.h). */
#include "env.h"

#include <stdlib.h>
#include <sys/auxv.h>

#include "warn_once.h"

static atomic_int said;

const char *env_get(const char *name)
{
    const char *v = secure_getenv(name);
    /* The second look only in a privileged process: fsroot() asks at every file read. */
    if (!v && env_privileged() && getenv(name))
        warn_once(&said,
                  "%s is ignored: this process runs with privileges (setuid, setgid or "
                  "file capabilities), and variables that name files or change the "
                  "library's behaviour are not taken from its caller's environment",
                  name);
    return v;
}

bool env_is_set(const char *name)
{
    /* In a privileged process hwloc and libpfm4 never see their variables (scoped_env.c
     * hides them around every call), so none of them is set as far as we are concerned. */
    return !env_privileged() && getenv(name) != NULL;
}

bool env_privileged(void)
{
    return getauxval(AT_SECURE) != 0;
}
