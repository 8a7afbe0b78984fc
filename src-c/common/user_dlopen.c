/* user_dlopen.c: a library the caller names, never loaded with privileges (user_dlopen.h). */
#include "user_dlopen.h"

#include <dlfcn.h>
#include <stdio.h>

#include "env.h"

void *user_dlopen(const char *path, int flags, char *why, size_t len)
{
    if (env_privileged()) {
        snprintf(why, len,
                 "not loaded: this process runs with privileges (setuid, setgid or file "
                 "capabilities such as cap_perfmon), and the library's code would run with "
                 "them; run a copy of the program without them");
        return NULL;
    }
    void *h = dlopen(path, flags);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, len, "%s", e ? e : "dlopen failed");
    }
    return h;
}
