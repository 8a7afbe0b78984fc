/* golden_json.c: a small recursive JSON reader (golden_json.h); strings keep their
 * escapes but \" and \\ (the golden files' names need no more). */
#include "golden_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const char *s, *start;
    char *err;
    size_t errlen;
    int depth;
};

static void skip_ws(struct reader *r)
{
    while (*r->s == ' ' || *r->s == '\n' || *r->s == '\r' || *r->s == '\t')
        r->s++;
}

static int fail(struct reader *r, const char *why)
{
    snprintf(r->err, r->errlen, "%s at offset %ld", why, (long)(r->s - r->start));
    return -1;
}

static int parse_value(struct reader *r, struct jval *v);

/* What v holds (not v itself). */
static void free_members(struct jval *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_members(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

static char *parse_string(struct reader *r)
{
    const char *p = ++r->s; /* past the quote */
    size_t n = 0;
    while (p[n] && p[n] != '"')
        n += p[n] == '\\' && p[n + 1] ? 2 : 1;
    if (!p[n])
        return fail(r, "unterminated string"), NULL;
    char *out = malloc(n + 1), *o = out;
    for (size_t i = 0; out && i < n; i++)
        *o++ = p[i] == '\\' && (p[i + 1] == '"' || p[i + 1] == '\\') ? p[++i] : p[i];
    if (out)
        *o = '\0';
    r->s = p + n + 1;
    return out;
}

static int add_item(struct jval *v, char *key, struct jval *item)
{
    struct jval *items = realloc(v->items, (v->n + 1) * sizeof *items);
    if (!items)
        return -1;
    v->items = items;
    if (v->t == J_OBJ) {
        char **keys = realloc(v->keys, (v->n + 1) * sizeof *keys);
        if (!keys)
            return -1;
        v->keys = keys;
        keys[v->n] = key;
    }
    items[v->n++] = *item;
    return 0;
}

/* An array or object's members, the opening bracket read. */
static int parse_members(struct reader *r, struct jval *v, char close)
{
    skip_ws(r);
    if (*r->s == close) {
        r->s++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        struct jval item = {0};
        skip_ws(r);
        if (v->t == J_OBJ) {
            if (*r->s != '"' || !(key = parse_string(r)))
                return fail(r, "expected a key");
            skip_ws(r);
            if (*r->s++ != ':')
                return free(key), fail(r, "expected ':'");
        }
        if (parse_value(r, &item) != 0 || add_item(v, key, &item) != 0)
            return free(key), free_members(&item), -1;
        skip_ws(r);
        if (*r->s == ',') {
            r->s++;
            continue;
        }
        if (*r->s++ == close)
            return 0;
        return fail(r, "expected ',' or a closing bracket");
    }
}

static int parse_number(struct reader *r, struct jval *v)
{
    char *end;
    v->t = J_NUM;
    v->num = strtod(r->s, &end);
    if (end == r->s)
        return fail(r, "expected a value");
    v->inum = strtoll(r->s, NULL, 10);
    r->s = end;
    return 0;
}

static int parse_value(struct reader *r, struct jval *v)
{
    skip_ws(r);
    if (++r->depth > 64)
        return fail(r, "nested too deep");
    int rc = 0;
    if (*r->s == '{' || *r->s == '[') {
        v->t = *r->s == '{' ? J_OBJ : J_ARR;
        r->s++;
        rc = parse_members(r, v, v->t == J_OBJ ? '}' : ']');
    } else if (*r->s == '"') {
        v->t = J_STR;
        rc = (v->str = parse_string(r)) ? 0 : -1;
    } else if (strncmp(r->s, "true", 4) == 0 || strncmp(r->s, "false", 5) == 0) {
        v->t = J_BOOL;
        v->inum = *r->s == 't';
        r->s += v->inum ? 4 : 5;
    } else if (strncmp(r->s, "null", 4) == 0) {
        v->t = J_NULL;
        r->s += 4;
    } else
        rc = parse_number(r, v);
    r->depth--;
    return rc;
}

struct jval *json_parse(const char *text, char *err, size_t errlen)
{
    struct reader r = {text, text, err, errlen, 0};
    struct jval *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_value(&r, v) != 0) {
        json_free(v);
        return NULL;
    }
    skip_ws(&r);
    if (*r.s) {
        fail(&r, "text after the value");
        json_free(v);
        return NULL;
    }
    return v;
}

const struct jval *json_get(const struct jval *obj, const char *key)
{
    for (size_t i = 0; obj && obj->t == J_OBJ && i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

void json_free(struct jval *v)
{
    if (!v)
        return;
    free_members(v);
    free(v);
}
