/* util_json.c: streaming JSON writer (RFC 8259 string escaping, two-space indent). */
#include <math.h>

#include "util_json.h"

void jw_init(struct jw *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    w->count[0] = 0;
}

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
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
        put_string(w->f, key);
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
    put_string(w->f, value);
}

void jw_int(struct jw *w, const char *key, long long value)
{
    member(w, key);
    fprintf(w->f, "%lld", value);
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

void jw_finish(struct jw *w)
{
    fputc('\n', w->f);
    fflush(w->f);
}
