/* output_file.c: exclusive temporaries renamed into place, in directories the user owns
 * (see output_file.h for the threat this answers). */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int accept_dir(int fd, const char *path, char *why, size_t whylen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, whylen, "cannot inspect the directory %s: %s", path, strerror(errno));
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(why, whylen,
                 "the directory %s belongs to user %u, not to this user (%u): another user could "
                 "replace the files written there; choose a directory of your own",
                 path, (unsigned)st.st_uid, (unsigned)geteuid());
        return -1;
    }
    return 0;
}

/* mkdir -p; an existing component is fine (its ownership is checked on the last one). */
static int make_parents(const char *path, char *why, size_t whylen)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len >= sizeof buf) {
        snprintf(why, whylen, "the directory name is longer than %zu bytes", sizeof buf - 1);
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            snprintf(why, whylen, "cannot create the directory %s: %s", buf, strerror(errno));
            return -1;
        }
        buf[i] = c;
    }
    return 0;
}

int output_dir_open(const char *path, int create, char *why, size_t whylen)
{
    if (!path || !*path) {
        snprintf(why, whylen, "empty directory name");
        return -1;
    }
    if (create && make_parents(path, why, whylen) != 0)
        return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "cannot open the directory %s: %s", path, strerror(errno));
        return -1;
    }
    if (accept_dir(fd, path, why, whylen) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Six characters from the pid, the clock and a counter: unique enough to rarely
 * collide, and O_EXCL makes a collision (or a planted name) a retry, never a reuse. */
static void random_suffix(char out[7], unsigned attempt)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long x = ((unsigned long long)getpid() << 32) ^ (unsigned long long)ts.tv_nsec ^
                           ((unsigned long long)attempt * 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < 6; i++) {
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        out[i] = set[x % (sizeof set - 1)];
    }
    out[6] = '\0';
}

int output_file_create(int dirfd, const char *final, char *tmp, size_t tmplen)
{
    size_t flen = strlen(final);
    if (flen + 9 > tmplen) { /* "." + final + "." + 6 + NUL */
        errno = ENAMETOOLONG;
        return -1;
    }
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        char sfx[7];
        random_suffix(sfx, attempt);
        tmp[0] = '.';
        memcpy(tmp + 1, final, flen);
        tmp[flen + 1] = '.';
        memcpy(tmp + flen + 2, sfx, 7);
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int output_file_write(int fd, const void *p, size_t len)
{
    const char *b = p;
    while (len > 0) {
        ssize_t w = write(fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        len -= (size_t)w;
    }
    return 0;
}

int output_file_publish(int dirfd, const char *tmp, const char *final)
{
    if (renameat(dirfd, tmp, dirfd, final) == 0)
        return 0;
    int err = errno;
    unlinkat(dirfd, tmp, 0);
    errno = err;
    return -1;
}

int output_file_publish_new(int dirfd, const char *tmp, const char *final)
{
    if (linkat(dirfd, tmp, dirfd, final, 0) != 0)
        return -1; /* EEXIST: final is another's; tmp is kept for another name */
    unlinkat(dirfd, tmp, 0);
    return 0;
}

void output_file_discard(int dirfd, const char *tmp)
{
    int err = errno;
    unlinkat(dirfd, tmp, 0);
    errno = err;
}
