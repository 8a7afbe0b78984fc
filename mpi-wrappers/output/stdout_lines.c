/* stdout_lines.c: rank 0's banner written to stdout in whole lines (stdout_lines.h). */
#include "stdout_lines.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

FILE *pmpi_lines_open(struct pmpi_lines *l)
{
    l->buf = NULL;
    l->len = 0;
    l->f = open_memstream(&l->buf, &l->len);
    if (!l->f)
        l->f = stdout; /* printed as before: whole lines are not promised then */
    return l->f;
}

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* stdout gone: as printf would, the text is lost */
        p += w;
        n -= (size_t)w;
    }
}

/* The length of the next piece of s[0 .. len): up to its last newline within max bytes,
 * or a whole line longer than that (a pipe may split only such a line). */
static size_t piece(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    for (size_t n = max; n > 0; n--)
        if (s[n - 1] == '\n')
            return n;
    const char *nl = memchr(s + max, '\n', len - max);
    return nl ? (size_t)(nl - s) + 1 : len;
}

/* Until the pipe's reader has taken all that is in it (50 ms at most): Open MPI's
 * launcher reads 4096 bytes at a time, so a piece written behind another would be cut
 * by its read, and the other ranks' output forwarded in between. */
static void drained(void)
{
    const struct timespec tick = {0, 100000}; /* 0.1 ms */
    for (int i = 0; i < 500; i++) {
        int queued = 0;
        if (ioctl(STDOUT_FILENO, FIONREAD, &queued) != 0 || queued <= 0)
            return;
        nanosleep(&tick, NULL);
    }
}

static void write_text(const char *s, size_t len)
{
    /* A pipe: pieces of up to PIPE_BUF bytes, each into an empty pipe. A terminal (Open
     * MPI gives its ranks a pseudo-terminal where it can) passes writes on in parts
     * wherever it likes, even another rank's short line: one line per write there, as
     * stdio's line buffering does, keeps the cuts rare. */
    struct stat st;
    int fifo = fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
    size_t max = isatty(STDOUT_FILENO) ? 1 : PIPE_BUF;
    fflush(stdout); /* what the program printed before comes first */
    for (size_t at = 0, n; at < len; at += n) {
        n = piece(s + at, len - at, max);
        if (fifo)
            drained();
        write_all(s + at, n);
    }
}

void pmpi_lines_write(struct pmpi_lines *l)
{
    if (l->f == stdout) {
        fflush(stdout);
        return;
    }
    fclose(l->f); /* sets buf and len to the text printed */
    if (l->buf)
        write_text(l->buf, l->len);
    free(l->buf);
    l->f = NULL;
    l->buf = NULL;
    l->len = 0;
}
