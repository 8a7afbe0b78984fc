/* text_spool.h: text that grows with the job on rank 0 (the wait report's per-rank and
 * per-region tables, about 330 bytes a rank), held in memory up to a bound and past it in
 * an unnamed file in the output directory, then copied into the report's tail: rank 0's
 * memory for it stays bounded whatever the number of ranks. Where no such file can be
 * had (no output directory, a file system without room or without unnamed files and
 * read-only), the text past the bound stays in memory, as it did before. */
#ifndef TEXT_SPOOL_H
#define TEXT_SPOOL_H

#include <stddef.h>

#include "text_buffer.h"

/* Text held before it is written to the file: 4 KiB, about a dozen ranks' rows (a file
 * write per 4 KiB costs the fold nothing next to the pull that brings the rows; a job of
 * 16 ranks, as the tests run, goes through the file). */
#define TS_BOUND ((size_t)4 * 1024)

struct text_spool {
    struct tbuf t;     /* where the text is formatted: a growing buffer */
    int dir;           /* the file's directory; -1: memory only */
    int fd;            /* the unnamed file, -1 until the first spill */
    size_t bound;      /* text held before a spill */
    long long spilled; /* the file's bytes, which come before t's */
};

/* An empty spool whose text goes to an unnamed file in dir (-1: none) whenever bound
 * bytes or more are held; t.cut when not even its first buffer could be had. */
void ts_init(struct text_spool *s, int dir, size_t bound);
/* Called after each piece of text: what t holds into the file once it is bound bytes. */
void ts_settle(struct text_spool *s);
/* The whole text (the file's, then t's) into to; when the file cannot be read back,
 * to->cut is set and stderr says why. */
void ts_copy(const struct text_spool *s, struct tbuf *to);
/* Whether text was lost (t cut: no memory). */
int ts_cut(const struct text_spool *s);
void ts_free(struct text_spool *s);

#endif
