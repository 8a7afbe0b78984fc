/* text_spool.c: see text_spool.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_TMPFILE */
#endif
#include "text_spool.h"

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ts_init(struct text_spool *s, int dir, size_t bound)
{
    tb_init_growing(&s->t, 4096);
    s->dir = dir;
    s->fd = -1;
    s->bound = bound;
    s->spilled = 0;
}

/* A file of our own in dir, unnamed: O_TMPFILE, or where the file system has none a
 * fresh O_EXCL|O_NOFOLLOW name removed at once. Nothing is left whatever ends the run. */
static int open_unnamed(int dir)
{
    int fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    char name[64];
    for (int i = 0; i < 16 && fd < 0; i++) {
        snprintf(name, sizeof name, ".papi_mpi_spool.%ld.%d", (long)getpid(), i);
        fd = openat(dir, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            return -1;
    }
    if (fd >= 0 && unlinkat(dir, name, 0) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void ts_settle(struct text_spool *s)
{
    if (s->t.cut || s->dir < 0 || s->t.len < s->bound)
        return;
    if (s->fd < 0)
        s->fd = open_unnamed(s->dir);
    /* written at the file's end (ts_copy reads with pread, which leaves the offset) */
    if (s->fd < 0 || output_file_write(s->fd, s->t.s, s->t.len) != 0) {
        s->dir = -1; /* memory only from here; the file's first `spilled` bytes stay whole */
        return;
    }
    s->spilled += (long long)s->t.len;
    s->t.len = 0;
    s->t.s[0] = '\0';
}

void ts_copy(const struct text_spool *s, struct tbuf *to)
{
    static char chunk[1 << 16]; /* rank 0's tail only, one spool at a time */
    for (long long at = 0; at < s->spilled && !to->cut;) {
        size_t want =
            s->spilled - at < (long long)sizeof chunk ? (size_t)(s->spilled - at) : sizeof chunk;
        ssize_t n = pread(s->fd, chunk, want, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr,
                    "papi_mpi: the wait states' text kept in a temporary file could "
                    "not be read back (%s)\n",
                    n < 0 ? strerror(errno) : "it ended early");
            to->cut = 1;
            return;
        }
        tb_put(to, chunk, (size_t)n);
        at += n;
    }
    tb_put(to, s->t.s ? s->t.s : "", s->t.len);
}

int ts_cut(const struct text_spool *s)
{
    return s->t.cut;
}

void ts_free(struct text_spool *s)
{
    free(s->t.s);
    s->t.s = NULL;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}
