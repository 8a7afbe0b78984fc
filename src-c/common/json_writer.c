/* json_writer.c: the streaming JSON writer (two-space indent) and the one string
 * escaper of the project (RFC 8259; invalid UTF-8 becomes U+FFFD). */
#include <math.h>
#include <string.h>

#include "json_writer.h"

void jw_init(struct jw *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    w->count[0] = 0;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when it is not one (overlong
 * forms, surrogates and code points past U+10FFFF are not valid either). */
static int utf8_sequence(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    int n;
    unsigned int cp;
    if ((p[0] & 0xe0) == 0xc0) {
        n = 2;
        cp = p[0] & 0x1fu;
    } else if ((p[0] & 0xf0) == 0xe0) {
        n = 3;
        cp = p[0] & 0x0fu;
    } else if ((p[0] & 0xf8) == 0xf0) {
        n = 4;
        cp = p[0] & 0x07u;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0; /* also stops at the terminator */
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    static const unsigned int min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* The escaped form of the character at *p into out (at most 7 bytes); advances *p. */
static size_t escape_one(const unsigned char **p, char out[8])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char c = **p;
    int n = utf8_sequence(*p);
    if (n == 0) { /* one invalid byte becomes one U+FFFD */
        (*p)++;
        memcpy(out, "\\ufffd", 6);
        return 6;
    }
    if (n > 1) {
        memcpy(out, *p, (size_t)n);
        *p += n;
        return (size_t)n;
    }
    (*p)++;
    switch (c) {
    case '"': memcpy(out, "\\\"", 2); return 2;
    case '\\': memcpy(out, "\\\\", 2); return 2;
    case '\n': memcpy(out, "\\n", 2); return 2;
    case '\r': memcpy(out, "\\r", 2); return 2;
    case '\t': memcpy(out, "\\t", 2); return 2;
    default:
        if (c >= 0x20 && c != 0x7f) {
            out[0] = (char)c;
            return 1;
        }
        memcpy(out, "\\u00", 4);
        out[4] = hex[c >> 4];
        out[5] = hex[c & 15];
        return 6;
    }
}

size_t json_escape(char *dst, size_t cap, const char *s)
{
    size_t need = 0, kept = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        char one[8];
        size_t n = escape_one(&p, one);
        if (kept == need && need + n < cap) { /* still whole: keep this character */
            memcpy(dst + kept, one, n);
            kept += n;
        }
        need += n;
    }
    if (cap > 0)
        dst[kept] = '\0';
    return need;
}

void json_put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        char one[8];
        size_t n = escape_one(&p, one);
        fwrite(one, 1, n, f);
    }
    fputc('"', f);
}

/* Comma, newline and indent before a member; then its key if any. */
static void member(struct jw *w, const char *key)
{
    if (w->count[w->depth]++)
        fputc(',', w->f);
    if (w->depth > 0) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    if (key) {
        json_put_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_scope(struct jw *w, const char *key, char c)
{
    member(w, key);
    fputc(c, w->f);
    if (w->depth + 1 < JW_MAX_DEPTH)
        w->depth++;
    w->count[w->depth] = 0;
}

static void close_scope(struct jw *w, char c)
{
    int had = w->count[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (had) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    fputc(c, w->f);
}

void jw_obj_begin(struct jw *w, const char *key) { open_scope(w, key, '{'); }
void jw_obj_end(struct jw *w) { close_scope(w, '}'); }
void jw_arr_begin(struct jw *w, const char *key) { open_scope(w, key, '['); }
void jw_arr_end(struct jw *w) { close_scope(w, ']'); }

void jw_str(struct jw *w, const char *key, const char *value)
{
    member(w, key);
    json_put_string(w->f, value);
}

void jw_int(struct jw *w, const char *key, long long value)
{
    member(w, key);
    fprintf(w->f, "%lld", value);
}

void jw_uint(struct jw *w, const char *key, unsigned long long value)
{
    member(w, key);
    fprintf(w->f, "%llu", value);
}

void jw_hex(struct jw *w, const char *key, unsigned long long value)
{
    member(w, key);
    fprintf(w->f, "\"0x%llx\"", value);
}

void jw_double(struct jw *w, const char *key, double value)
{
    member(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.17g", value);
    else
        fputs("null", w->f); /* JSON has no NaN or infinity */
}

void jw_fixed(struct jw *w, const char *key, double value, int decimals)
{
    member(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.*f", decimals, value);
    else
        fputs("null", w->f);
}

void jw_bool(struct jw *w, const char *key, int value)
{
    member(w, key);
    fputs(value ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
    member(w, key);
    fputs("null", w->f);
}

int jw_finish(struct jw *w)
{
    fputc('\n', w->f);
    if (fflush(w->f) != 0 || ferror(w->f))
        return -1;
    return 0;
}

void jw_raw(struct jw *w, const char *key, const char *json)
{
    size_t n = strlen(json);
    while (n > 0 && (json[n - 1] == '\n' || json[n - 1] == ' ')) /* its own last newline */
        n--;
    member(w, key);
    fwrite(json, 1, n, w->f);
}
