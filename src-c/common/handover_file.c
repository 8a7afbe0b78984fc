/* handover_file.c: the blocks processes hand over to papi_run (handover_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "handover_file.h"

/* papi_run blocked for ever on a FIFO put at a hand-over name (its reader's open waits for
 * a writer, a process's writer's open for a reader): O_NONBLOCK makes both return, the
 * check refuses what is not a file. */
int handover_open(int dirfd, const char *name, int flags, unsigned mode)
{
    int fd =
        openat(dirfd, name, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, (mode_t)mode);
    struct stat st;
    if (fd < 0)
        return -1;
    int err = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (err) {
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

const char *handover_strerror(int err)
{
    if (err == EINVAL || err == ENXIO)
        return "not a regular file";
    if (err == ELOOP)
        return "a symbolic link, not followed";
    return strerror(err);
}

void handover_print(FILE *f, const char *kind, long pid, int nnames, size_t nitems,
                    uint64_t dropped, handover_name_fn name, handover_item_fn item, const void *ctx)
{
    fprintf(f, "%s %ld %d %zu %" PRIu64 "\n", kind, pid, nnames, nitems, dropped);
    for (int k = 0; k < nnames; k++)
        fprintf(f, "n %s\n", name(ctx, k));
    for (size_t i = 0; i < nitems; i++)
        item(f, ctx, i);
}

int handover_save(int fd, const char *kind, long pid, int nnames, size_t nitems, uint64_t dropped,
                  handover_name_fn name, handover_item_fn item, const void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    handover_print(f, kind, pid, nnames, nitems, dropped, name, item, ctx);
    int rc = fclose(f) != 0 ? -1 : 0;
    for (size_t done = 0; rc == 0 && done < len;) { /* one write but for a short one */
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            rc = -1;
        else
            done += (size_t)k;
    }
    free(text);
    return rc;
}

/* One block's lines after its head (a line of any length: an OpenMP table's may be long),
 * in *buf: 0, or -1 with why. */
static int load_block(FILE *f, const char *path, long *line, const struct handover_kind *k,
                      void *ctx, int nn, size_t nitems, char **buf, size_t *cap, char *why,
                      size_t whylen)
{
    for (long i = 0; i < nn + (long)nitems; i++) {
        ++*line;
        if (getline(buf, cap, f) < 0) {
            snprintf(why, whylen, "%s: line %ld: the block ends early (a cut write)", path, *line);
            return -1;
        }
        char *b = *buf;
        b[strcspn(b, "\n")] = '\0';
        int ok =
            i < nn ? b[0] == 'n' && b[1] == ' ' && k->name(ctx, b + 2) == 0 : k->item(ctx, b) == 0;
        if (!ok) {
            snprintf(why, whylen, "%s: line %ld: expected %s: '%.60s'", path, *line,
                     i < nn ? "a name (n NAME)" : k->item_form, b);
            return -1;
        }
    }
    if (k->end && k->end(ctx) != 0) {
        snprintf(why, whylen, "%s: line %ld: no memory for its block", path, *line);
        return -1;
    }
    return 0;
}

int handover_load(const char *path, const struct handover_kind *k, void *ctx, char *why,
                  size_t whylen)
{
    int fd = handover_open(AT_FDCWD, path, O_RDONLY, 0);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        if (err == ENOENT)
            return 1;
        snprintf(why, whylen, "%s: %s", path, handover_strerror(err));
        return -1;
    }
    char head[128], word[32], *buf = NULL;
    size_t cap = 0;
    long line = 0;
    int rc = 0;
    while (rc == 0 && fgets(head, sizeof head, f)) {
        long pid;
        int nn;
        size_t n;
        uint64_t dropped;
        ++line;
        if (sscanf(head, "%31s %ld %d %zu %" SCNu64, word, &pid, &nn, &n, &dropped) != 5 ||
            strcmp(word, k->head) != 0 || nn < 0) {
            head[strcspn(head, "\n")] = '\0';
            snprintf(why, whylen, "%s: line %ld: expected '%s': '%.60s'", path, line, k->head_form,
                     head);
            rc = -1;
        } else if (pid <= 0 || pid > INT32_MAX) {
            snprintf(why, whylen, "%s: line %ld: process id %ld out of range", path, line, pid);
            rc = -1;
        } else if (k->block(ctx, pid, nn, dropped) != 0) {
            snprintf(why, whylen, "%s: line %ld: no memory for its block", path, line);
            rc = -1;
        } else {
            rc = load_block(f, path, &line, k, ctx, nn, n, &buf, &cap, why, whylen);
        }
    }
    free(buf);
    fclose(f);
    return rc;
}
