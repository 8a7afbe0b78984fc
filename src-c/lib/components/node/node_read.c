/* node_read.c: the numbers of a /proc or /sys file for the node components
 * (node_read.h), and the sorted listing of a directory for their discovery. The
 * numbers are read by PAPI_read, which may run in a signal handler: open, fstat, pread
 * and close only, a line at a time through a fixed buffer, no stdio, no allocation,
 * errno saved. A line longer than the buffer keeps its beginning (every line the node
 * components read is short; /proc/stat's long "intr" line is never theirs). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsroot.h"
#include "node_read.h"

#define NODE_LINE_MAX  512
#define NODE_MAX_EVS   64
#define NODE_MAX_BYTES (16L << 20) /* a recorded file past this is no kernel's */

struct node_scan {
    const struct node_event *const *evs;
    int n, found;
    uint64_t *out;
    char done[NODE_MAX_EVS];
    int bad_line, bad_event; /* the first malformed line, and its event */
    int bad_kind;            /* NODE_MALFORMED or NODE_TOO_BIG */
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Where the numbers after key begin in line (the key alone, or followed by ':' or a
 * space), or -1. A NULL key matches the first line only. */
static long after_key(const char *line, size_t len, const char *key, int lineno)
{
    if (!key)
        return lineno == 1 ? 0 : -1;
    size_t i = 0, k = strlen(key);
    while (i < len && is_space(line[i]))
        i++;
    if (len - i < k || memcmp(line + i, key, k) != 0)
        return -1;
    i += k;
    if (i < len && line[i] == ':')
        return (long)i + 1;
    return i == len || is_space(line[i]) ? (long)i : -1;
}

/* The column-th token from line[i..len) as a decimal number (a leading '-' for
 * instantaneous values: a temperature may be below zero): 0, NODE_MALFORMED when it is
 * no number, NODE_TOO_BIG when it does not fit (a counter past 2^64 - 1, a signed value
 * past 2^63 - 1 either way): an error, never a wrapped value. */
static int column_value(const char *line, size_t len, size_t i, int column, int sign, uint64_t *v)
{
    for (int c = 0;; c++) {
        while (i < len && is_space(line[i]))
            i++;
        if (i == len)
            return -1;
        if (c == column)
            break;
        while (i < len && !is_space(line[i]))
            i++;
    }
    int neg = sign && line[i] == '-', big = 0;
    i += (size_t)neg;
    size_t digits = i;
    uint64_t x = 0, most = sign ? (uint64_t)INT64_MAX + (uint64_t)neg : UINT64_MAX;
    for (; i < len && line[i] >= '0' && line[i] <= '9'; i++) {
        uint64_t d = (uint64_t)(line[i] - '0');
        if (x > (most - d) / 10)
            big = 1;
        else
            x = x * 10 + d;
    }
    if (i == digits || (i < len && !is_space(line[i])))
        return NODE_MALFORMED;
    if (big)
        return NODE_TOO_BIG;
    *v = neg ? (uint64_t)0 - x : x;
    return 0;
}

static void scan_line(struct node_scan *s, const char *line, size_t len, int lineno)
{
    for (int e = 0; e < s->n; e++) {
        if (s->done[e])
            continue;
        long at = after_key(line, len, s->evs[e]->key, lineno);
        if (at < 0)
            continue;
        s->done[e] = 1;
        s->found++;
        int bad =
            column_value(line, len, (size_t)at, s->evs[e]->column, s->evs[e]->instant, &s->out[e]);
        if (bad && !s->bad_line) {
            s->bad_line = lineno;
            s->bad_event = e;
            s->bad_kind = bad;
        }
    }
}

/* Read fd line by line into s; 0 or an errno. */
static int scan_fd(int fd, struct node_scan *s)
{
    char chunk[1024], line[NODE_LINE_MAX];
    size_t len = 0;
    long total = 0;
    int lineno = 1;
    for (;;) {
        ssize_t got = pread(fd, chunk, sizeof chunk, (off_t)total);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno;
        if (got == 0 || (total += got) > NODE_MAX_BYTES)
            break;
        for (ssize_t i = 0; i < got; i++) {
            if (chunk[i] != '\n') {
                if (len < sizeof line)
                    line[len++] = chunk[i];
                continue;
            }
            scan_line(s, line, len, lineno++);
            len = 0;
        }
    }
    if (len)
        scan_line(s, line, len, lineno);
    return total > NODE_MAX_BYTES ? EFBIG : 0;
}

int node_read_file(const char *path, const struct node_event *const *evs, int n, uint64_t *out,
                   int *bad_line, int *bad_event)
{
    struct node_scan s = {.evs = evs, .n = n < NODE_MAX_EVS ? n : NODE_MAX_EVS, .out = out};
    int saved = errno, err = 0;
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        err = errno;
    else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        err = EINVAL; /* a FIFO or a device put in a recorded tree */
    else
        err = scan_fd(fd, &s);
    if (fd >= 0)
        close(fd);
    errno = saved;
    if (err)
        return err;
    *bad_line = s.bad_line;
    *bad_event = s.bad_event;
    int missing = 0;
    for (int e = 0; e < s.n; e++)
        if (!s.done[e] && evs[e]->absent_zero)
            out[e] = 0;
        else if (!s.done[e] && !missing++ && !s.bad_line)
            *bad_event = e;
    return s.bad_line ? s.bad_kind : missing ? NODE_MALFORMED : 0;
}

static int not_dot(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

int node_list_dir(const char *abs, struct dirent ***list)
{
    char path[4096];
    if (fsroot_path(abs, path, sizeof path) != 0)
        return -1;
    return scandir(path, list, not_dot, alphasort);
}

void node_free_list(struct dirent **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}
