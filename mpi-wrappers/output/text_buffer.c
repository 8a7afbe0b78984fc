/* text_buffer.c: see text_buffer.h. */
#include "text_buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

void tb_init(struct tbuf *t, char *mem, size_t cap)
{
    t->s = mem;
    t->len = 0;
    t->cap = cap;
    t->cut = !mem || cap == 0;
    t->grows = 0;
    t->sink = NULL;
    t->sink_arg = NULL;
    if (!t->cut)
        mem[0] = '\0';
}

void tb_init_growing(struct tbuf *t, size_t cap)
{
    tb_init(t, cap ? malloc(cap) : NULL, cap);
    t->grows = 1;
}

void tb_init_sink(struct tbuf *t, char *mem, size_t cap,
                  void (*sink)(void *arg, const char *s, size_t n), void *arg)
{
    tb_init(t, mem, cap);
    t->sink = sink;
    t->sink_arg = arg;
}

void tb_flush(struct tbuf *t)
{
    if (!t->sink || t->cut)
        return;
    if (t->len)
        t->sink(t->sink_arg, t->s, t->len);
    t->len = 0;
    t->s[0] = '\0';
}

/* Room for need more bytes and the terminator: 1 when there is (a growing buffer
 * doubled as often as it takes, a sink's handed on), 0 when not (cut). */
static int room_for(struct tbuf *t, size_t need)
{
    if (t->cut)
        return 0;
    if (t->len + need + 1 <= t->cap)
        return 1;
    if (t->sink) {
        tb_flush(t);
        t->cut = need + 1 > t->cap;
        return !t->cut;
    }
    size_t cap = t->cap;
    while (t->grows && cap < t->len + need + 1 && cap <= (size_t)-1 / 2)
        cap *= 2;
    char *s = t->grows && cap >= t->len + need + 1 ? realloc(t->s, cap) : NULL;
    if (!s) {
        t->cut = 1;
        return 0;
    }
    t->s = s;
    t->cap = cap;
    return 1;
}

static void put(struct tbuf *t, const char *s, size_t n)
{
    if (t->sink && !t->cut && t->len + n + 1 > t->cap) {
        tb_flush(t);
        if (n + 1 > t->cap) { /* longer than the buffer: on at once, not copied */
            t->sink(t->sink_arg, s, n);
            return;
        }
    }
    if (!room_for(t, n))
        return;
    memmove(t->s + t->len, s, n); /* s may lie in t's own free room (gpu_row.c) */
    t->len += n;
    t->s[t->len] = '\0';
}

void tb_put(struct tbuf *t, const char *s, size_t n)
{
    put(t, s, n);
}

static void jw_sink(void *t, const char *s, size_t n)
{
    put(t, s, n);
}

void tb_jw(struct jw *w, struct tbuf *t)
{
    jw_init_sink(w, jw_sink, t);
}

void tb_raw(struct tbuf *t, const char *s)
{
    put(t, s, strlen(s));
}

void tb_csv(struct tbuf *t, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        tb_raw(t, s);
        return;
    }
    put(t, "\"", 1);
    for (; *s; s++) {
        if (*s == '"')
            put(t, "\"\"", 2);
        else
            put(t, s, 1);
    }
    put(t, "\"", 1);
}

static void put_uint(struct tbuf *t, unsigned long long v, int min_digits)
{
    char d[JW_DECIMAL_MAX];
    const char *p = jw_decimal(d, v, min_digits);
    put(t, p, (size_t)(d + sizeof d - p));
}

void tb_int(struct tbuf *t, long long v)
{
    if (v < 0) {
        put(t, "-", 1);
        put_uint(t, 0ULL - (unsigned long long)v, 1);
    } else {
        put_uint(t, (unsigned long long)v, 1);
    }
}

void tb_secs(struct tbuf *t, long long ns)
{
    if (ns < 0) {
        put(t, "-", 1);
        ns = -ns;
    }
    put_uint(t, (unsigned long long)(ns / 1000000000LL), 1);
    put(t, ".", 1);
    put_uint(t, (unsigned long long)(ns % 1000000000LL), 9);
}

void tb_kv_int(struct tbuf *t, const char *prefix, long long v)
{
    tb_raw(t, prefix);
    tb_int(t, v);
}

void tb_kv_secs(struct tbuf *t, const char *prefix, long long ns)
{
    tb_raw(t, prefix);
    tb_secs(t, ns);
}

void tb_fmt(struct tbuf *t, const char *fmt, ...)
{
    if (t->cut)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n >= t->cap - t->len && (t->grows || t->sink) && room_for(t, (size_t)n)) {
        va_start(ap, fmt); /* room made: formatted again */
        n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
    }
    if (n < 0 || (size_t)n >= t->cap - t->len) {
        t->cut = 1;
        t->s[t->len] = '\0';
        return;
    }
    t->len += (size_t)n;
}
