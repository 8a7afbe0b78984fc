/* json_writer.c: the streaming JSON writer (two-space indent to a stream, one line to a
 * sink) and the one string escaper of the project (RFC 8259; invalid UTF-8 becomes
 * U+FFFD). */
#include <math.h>
#include <string.h>

#include "json_writer.h"

void jw_init(struct jw *w, FILE *f)
{
    w->f = f;
    w->put = NULL;
    w->put_arg = NULL;
    w->gap = NULL;
    w->tight = 0;
    w->depth = 0;
    w->count[0] = 0;
}

void jw_init_sink(struct jw *w, void (*put)(void *arg, const char *s, size_t n), void *arg)
{
    jw_init(w, NULL);
    w->put = put;
    w->put_arg = arg;
}

void jw_resume(struct jw *w, int members)
{
    if (w->depth + 1 < JW_MAX_DEPTH)
        w->depth++;
    w->count[w->depth] = members;
}

void jw_tight(struct jw *w)
{
    w->tight = 1;
}

void jw_break(struct jw *w, const char *text)
{
    w->gap = text;
}

/* Every byte the writer writes goes through here: the stream or the sink. */
static void out(struct jw *w, const char *s, size_t n)
{
    if (w->put)
        w->put(w->put_arg, s, n);
    else
        fwrite(s, 1, n, w->f);
}

static void out_str(struct jw *w, const char *s)
{
    out(w, s, strlen(s));
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


/* s quoted and escaped, a few characters at a time (no allocation). */
static void quoted(struct jw *w, const char *s)
{
    char chunk[128];
    size_t n = 0;
    chunk[n++] = '"';
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        if (n + 8 > sizeof chunk) {
            out(w, chunk, n);
            n = 0;
        }
        n += escape_one(&p, chunk + n);
    }
    chunk[n++] = '"';
    out(w, chunk, n);
}

void json_put_string(FILE *f, const char *s)
{
    struct jw w;
    jw_init(&w, f);
    quoted(&w, s);
}

/* The separator before a member (a sink's: ", " (tight: ","), or the comma and
 * jw_break's text; a stream's: comma, newline and indent); then its key if any. */
static void member(struct jw *w, const char *key)
{
    int later = w->count[w->depth]++ > 0;
    if (w->put) {
        if (later)
            out(w, ",", 1);
        if (w->gap || (later && !w->tight))
            out_str(w, w->gap ? w->gap : " ");
        w->gap = NULL;
    } else {
        if (later)
            out(w, ",", 1);
        if (w->depth > 0) {
            out(w, "\n", 1);
            for (int i = 0; i < w->depth; i++)
                out(w, "  ", 2);
        }
    }
    if (key) {
        quoted(w, key);
        out(w, ": ", w->tight ? 1 : 2);
    }
}

static void open_scope(struct jw *w, const char *key, char c)
{
    member(w, key);
    out(w, &c, 1);
    if (w->depth + 1 < JW_MAX_DEPTH)
        w->depth++;
    w->count[w->depth] = 0;
}

/* A sink's scope closes where its last member ended, unless jw_break asked for a line. */
static void close_scope(struct jw *w, char c)
{
    int had = w->count[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (w->put) {
        if (w->gap)
            out_str(w, w->gap);
        w->gap = NULL;
    } else if (had) {
        out(w, "\n", 1);
        for (int i = 0; i < w->depth; i++)
            out(w, "  ", 2);
    }
    out(w, &c, 1);
}

char *jw_decimal(char buf[JW_DECIMAL_MAX], unsigned long long v, int min_digits)
{
    int n = 0;
    do {
        buf[JW_DECIMAL_MAX - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v || (n < min_digits && n < JW_DECIMAL_MAX));
    return buf + JW_DECIMAL_MAX - n;
}

static void out_uint(struct jw *w, unsigned long long v, int min_digits)
{
    char d[JW_DECIMAL_MAX];
    const char *p = jw_decimal(d, v, min_digits);
    out(w, p, (size_t)(d + sizeof d - p));
}

static void out_int(struct jw *w, long long v)
{
    if (v < 0) {
        out(w, "-", 1);
        out_uint(w, 0ULL - (unsigned long long)v, 1);
    } else {
        out_uint(w, (unsigned long long)v, 1);
    }
}

/* A finite double in printf's %.*f (fixed) or %.*g form with precision prec; null when
 * not finite. */
static void out_double(struct jw *w, int fixed, int prec, double v)
{
    char text[512]; /* %.*f of the largest double with a few decimals fits */
    int n = !isfinite(v) ? -1
            : fixed      ? snprintf(text, sizeof text, "%.*f", prec, v)
                         : snprintf(text, sizeof text, "%.*g", prec, v);
    if (n < 0 || (size_t)n >= sizeof text)
        out(w, "null", 4); /* JSON has no NaN or infinity */
    else
        out(w, text, (size_t)n);
}

void jw_obj_begin(struct jw *w, const char *key) { open_scope(w, key, '{'); }
void jw_obj_end(struct jw *w) { close_scope(w, '}'); }
void jw_arr_begin(struct jw *w, const char *key) { open_scope(w, key, '['); }
void jw_arr_end(struct jw *w) { close_scope(w, ']'); }

void jw_str(struct jw *w, const char *key, const char *value)
{
    member(w, key);
    quoted(w, value);
}

void jw_int(struct jw *w, const char *key, long long value)
{
    member(w, key);
    out_int(w, value);
}

void jw_uint(struct jw *w, const char *key, unsigned long long value)
{
    member(w, key);
    out_uint(w, value, 1);
}

void jw_hex(struct jw *w, const char *key, unsigned long long value)
{
    static const char hex[] = "0123456789abcdef";
    char d[20];
    int n = 0;
    do {
        d[sizeof d - 1 - (size_t)n++] = hex[value & 15];
        value >>= 4;
    } while (value);
    member(w, key);
    out(w, "\"0x", 3);
    out(w, d + sizeof d - n, (size_t)n);
    out(w, "\"", 1);
}

void jw_double(struct jw *w, const char *key, double value)
{
    member(w, key);
    out_double(w, 0, 17, value);
}

void jw_fixed(struct jw *w, const char *key, double value, int decimals)
{
    member(w, key);
    out_double(w, 1, decimals, value);
}

void jw_digits(struct jw *w, const char *key, double value, int digits)
{
    member(w, key);
    out_double(w, 0, digits, value);
}

void jw_secs(struct jw *w, const char *key, long long ns)
{
    member(w, key);
    unsigned long long u = (unsigned long long)ns;
    if (ns < 0) {
        out(w, "-", 1);
        u = 0ULL - u;
    }
    out_uint(w, u / 1000000000ULL, 1);
    out(w, ".", 1);
    out_uint(w, u % 1000000000ULL, 9);
}

void jw_bool(struct jw *w, const char *key, int value)
{
    member(w, key);
    out_str(w, value ? "true" : "false");
}

void jw_null(struct jw *w, const char *key)
{
    member(w, key);
    out(w, "null", 4);
}

int jw_finish(struct jw *w)
{
    if (w->put)
        return 0; /* the sink's owner knows whether it was cut */
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
    out(w, json, n);
}
