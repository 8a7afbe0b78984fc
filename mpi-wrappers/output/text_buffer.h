/* text_buffer.h: a text buffer for the rows and reports: text and CSV here, JSON by the
 * one JSON writer writing into it (tb_jw). A fixed-capacity one (tb_init) never
 * allocates: its text, integer and seconds forms, and the JSON writer's integer, seconds
 * and string forms into it, are async-signal-safe, so the same code formats a row at
 * MPI_Finalize and in a signal handler. A growing one (tb_init_growing, never in a signal handler) doubles its heap
 * block as text comes: rank 0's report parts take what they hold, not a reservation for
 * the worst case. Text that does not fit (no memory to grow) sets 'cut': a cut buffer is
 * never written to a file. */
#ifndef TEXT_BUFFER_H
#define TEXT_BUFFER_H

#include <stddef.h>

#include "json_writer.h"

struct tbuf {
    char *s;
    size_t len, cap;
    int cut, grows;
    void (*sink)(void *arg, const char *s, size_t n); /* tb_init_sink's */
    void *sink_arg;
};

void tb_init(struct tbuf *t, char *mem, size_t cap);
/* A growing buffer of first capacity cap on the heap (s: free it); cut when even that
 * could not be had. */
void tb_init_growing(struct tbuf *t, size_t cap);
/* A buffer that hands its text to sink(arg, s, n) whenever it is full instead of
 * growing, and a string longer than it at once, uncopied: text on its way to a file is
 * never held whole (rank 0's report tail, whose ranks' text grows with the job). A
 * single number, escaped string or formatted piece longer than cap is cut. */
void tb_init_sink(struct tbuf *t, char *mem, size_t cap,
                  void (*sink)(void *arg, const char *s, size_t n), void *arg);
/* The one JSON writer (json_writer.h) writing into t, one line: t's rules hold for its
 * text (fixed: never allocates, and 'cut' on overflow). */
void tb_jw(struct jw *w, struct tbuf *t);
/* A sink's buffer: hands on what it holds (nothing once cut). */
void tb_flush(struct tbuf *t);
void tb_raw(struct tbuf *t, const char *s);           /* as is */
void tb_put(struct tbuf *t, const char *s, size_t n); /* n bytes of s, as they are */
void tb_csv(struct tbuf *t, const char *s);           /* a CSV field: quoted when needed */
void tb_int(struct tbuf *t, long long v);
void tb_secs(struct tbuf *t, long long ns); /* ns as seconds, 9 decimals */
/* prefix (raw) then the value: one CSV field */
void tb_kv_int(struct tbuf *t, const char *prefix, long long v);
void tb_kv_secs(struct tbuf *t, const char *prefix, long long ns);
/* printf form for numbers that are not integers (not async-signal-safe). */
void tb_fmt(struct tbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
