/* fsroot.c: one root for everything the library reads of /sys and /proc (see fsroot.h):
 * a recorded machine is one directory, replayed by every reader through these calls. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "fsroot.h"
#include "warn_once.h"

static atomic_int refusal_said;

const char *fsroot(void)
{
    const char *r = env_get(PAPI_FSROOT_ENV);
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

/* Why st is no file to read (with the errno to give): NULL when it is a regular file
 * within the bound. */
static const char *not_a_file(const struct stat *st, int *err)
{
    *err = EINVAL;
    if (S_ISDIR(st->st_mode)) {
        *err = EISDIR; /* what a read of it says: no hazard, nothing to warn about */
        return "a directory";
    }
    if (S_ISFIFO(st->st_mode))
        return "a FIFO (its open would wait for a writer)";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "a device (it may never end)";
    if (!S_ISREG(st->st_mode))
        return "not a regular file";
    if (st->st_size > FSROOT_MAX_FILE) {
        *err = EFBIG;
        return "larger than " FSROOT_MAX_FILE_TEXT;
    }
    return NULL;
}

static int refuse(const char *path, const char *why, int err)
{
    if (err != EISDIR)
        warn_once(&refusal_said,
                  "%s is not read: it is %s (a recorded machine is read from regular "
                  "files only; %s)",
                  path, why, PAPI_FSROOT_ENV);
    errno = err;
    return -1;
}

int fsroot_open_file(const char *path, int flags)
{
    struct stat st;
    const char *why = NULL;
    int err = 0;
    /* A recorded tree is checked before the open (opening a device may act on it). */
    if (fsroot_replaying() && stat(path, &st) == 0 && (why = not_a_file(&st, &err)) != NULL)
        return refuse(path, why, err);
    int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    /* This machine's sysfs holds attribute files only (no FIFO, device or link to one):
     * the check would be one more system call for each of the files an init reads. */
    if (!fsroot_replaying() && strncmp(path, "/sys/", 5) == 0)
        return fd;
    if (fstat(fd, &st) != 0) {
        err = errno;
        why = "not inspectable";
    } else {
        why = not_a_file(&st, &err);
    }
    if (why) {
        close(fd);
        return refuse(path, why, err);
    }
    return fd; /* O_NONBLOCK stays: it changes nothing for a regular file */
}

FILE *fsroot_fopen_file(const char *path)
{
    int fd = fsroot_open_file(path, O_RDONLY);
    FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
    if (!f && fd >= 0)
        close(fd);
    return f;
}

FILE *fsroot_fopen_in(const char *root, const char *abs)
{
    char p[4096];
    return fsroot_path_in(root, abs, p, sizeof p) == 0 ? fsroot_fopen_file(p) : NULL;
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
    return fsroot_path(abs, p, sizeof p) == 0 ? fsroot_open_file(p, flags) : -1;
}

int fsroot_access(const char *abs, int mode)
{
    char p[4096];
    return fsroot_path(abs, p, sizeof p) == 0 ? access(p, mode) : -1;
}

/* With read(2), not stdio: open, fstat, read, close, where fdopen and fgets add an
 * fcntl and a second fstat to each of the few dozen files an init reads. */
int fsroot_read_line_in(const char *root, const char *abs, char *buf, size_t len)
{
    char p[4096];
    if (len < 2 || fsroot_path_in(root, abs, p, sizeof p) != 0)
        return -1;
    int fd = fsroot_open_file(p, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got < len - 1) {
        ssize_t n = read(fd, buf + got, len - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (memchr(buf + got, '\n', (size_t)n)) {
            got += (size_t)n;
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    if (got == 0)
        return -1;
    buf[got] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

int fsroot_read_line(const char *abs, char *buf, size_t len)
{
    return fsroot_read_line_in(fsroot(), abs, buf, len);
}

long fsroot_read_file(const char *abs, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    FILE *f = len ? fsroot_fopen(abs) : NULL;
    if (!f)
        return -1;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
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
