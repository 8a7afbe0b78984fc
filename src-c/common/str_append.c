/* str_append.c: bounded appends into fixed buffers (str_append.h). */
#include "str_append.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The end of buf marked as cut, when it has room for the mark. */
static void mark_cut(char *buf, size_t size)
{
    static const char mark[] = STR_CUT_MARK;
    if (size >= sizeof mark)
        memcpy(buf + size - sizeof mark, mark, sizeof mark);
    else
        buf[size - 1] = '\0';
}

int str_appendf(char *buf, size_t size, const char *fmt, ...)
{
    if (size == 0)
        return -1;
    size_t len = strnlen(buf, size);
    if (len == size) { /* not terminated: keep what fits */
        mark_cut(buf, size);
        return -1;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        buf[len] = '\0';
        return -1;
    }
    if ((size_t)n >= size - len) {
        mark_cut(buf, size);
        return -1;
    }
    return 0;
}

void str_vsetf(char **dst, const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    free(*dst);
    *dst = s;
}

void str_setf(char **dst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    str_vsetf(dst, fmt, ap);
    va_end(ap);
}
