/* fsroot.c: one root for everything the library reads of /sys and /proc (see fsroot.h):
 * a recorded machine is one directory, replayed by every reader through these calls. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsroot.h"

const char *fsroot(void)
{
    const char *r = getenv(PAPI_FSROOT_ENV);
    return r && *r ? r : "";
}

bool fsroot_replaying(void)
{
    return fsroot()[0] != '\0';
}

/* The process's own files stay live: a recorded machine has no "self", nor any task of
 * this process (/proc/<pid>/..., e.g. an attached thread's io). */
static bool is_self(const char *abs)
{
    if (strncmp(abs, "/proc/self/", 11) == 0 || strncmp(abs, "/proc/thread-self/", 18) == 0)
        return true;
    if (strncmp(abs, "/proc/", 6) != 0 || abs[6] < '0' || abs[6] > '9')
        return false;
    const char *p = abs + 6;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '/';
}

int fsroot_path_in(const char *root, const char *abs, char *out, size_t len)
{
    if (!abs || abs[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    if (!root || is_self(abs))
        root = "";
    int n = snprintf(out, len, "%s%s", root, abs);
    if (n < 0 || (size_t)n >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int fsroot_path(const char *abs, char *out, size_t len)
{
    return fsroot_path_in(fsroot(), abs, out, len);
}

FILE *fsroot_fopen_in(const char *root, const char *abs)
{
    char p[4096];
    return fsroot_path_in(root, abs, p, sizeof p) == 0 ? fopen(p, "re") : NULL;
}

FILE *fsroot_fopen(const char *abs)
{
    return fsroot_fopen_in(fsroot(), abs);
}

DIR *fsroot_opendir(const char *abs)
{
    char p[4096];
    return fsroot_path(abs, p, sizeof p) == 0 ? opendir(p) : NULL;
}

int fsroot_open(const char *abs, int flags)
{
    char p[4096];
    return fsroot_path(abs, p, sizeof p) == 0 ? open(p, flags | O_CLOEXEC) : -1;
}

int fsroot_access(const char *abs, int mode)
{
    char p[4096];
    return fsroot_path(abs, p, sizeof p) == 0 ? access(p, mode) : -1;
}

int fsroot_read_line_in(const char *root, const char *abs, char *buf, size_t len)
{
    FILE *f = fsroot_fopen_in(root, abs);
    if (!f)
        return -1;
    int ok = len > 1 && fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

int fsroot_read_line(const char *abs, char *buf, size_t len)
{
    return fsroot_read_line_in(fsroot(), abs, buf, len);
}

int fsroot_scan(const char *abs, const char *fmt, ...)
{
    FILE *f = fsroot_fopen(abs);
    if (!f)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(f, fmt, ap);
    va_end(ap);
    fclose(f);
    return n == 1 ? 0 : -1;
}
