/* preset_csv_parser.c: the papi_events.csv format (comment lines, CPU lines whose
 * consecutive names are synonyms, PRESET lines). Pure text processing: native event
 * names are resolved later by preset_build_def, so a table for a CPU this machine is
 * not can still be checked for syntax. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_tables.h"

#define MAX_FIELDS 64
#define MAX_SYNONYMS 32

static const struct { const char *name; enum derive_op op; } derive_names[] = {
    {"NOT_DERIVED", DERIVE_NONE},         {"DERIVED_ADD", DERIVE_ADD},
    {"DERIVED_SUB", DERIVE_SUB},          {"DERIVED_CMPD", DERIVE_CMPD},
    {"DERIVED_POSTFIX", DERIVE_POSTFIX},  {"DERIVED POSTFIX", DERIVE_POSTFIX},
};

int preset_derive_from_name(const char *name, enum derive_op *op)
{
    for (size_t i = 0; i < sizeof derive_names / sizeof derive_names[0]; i++)
        if (strcmp(name, derive_names[i].name) == 0) {
            *op = derive_names[i].op;
            return PAPI_OK;
        }
    return PAPI_EINVAL;
}

const char *preset_derive_name(enum derive_op op)
{
    switch (op) {
    case DERIVE_ADD: return "DERIVED_ADD";
    case DERIVE_SUB: return "DERIVED_SUB";
    case DERIVE_POSTFIX: return "DERIVED_POSTFIX";
    case DERIVE_CMPD: return "DERIVED_CMPD";
    default: return "NOT_DERIVED";
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

int preset_csv_split(char *line, char **fields, int maxf)
{
    int nf = 0;
    char *p = line;
    for (;;) {
        if (nf >= maxf)
            return -1;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '"') { /* quoted: unescape "" in place */
            char *w = ++p, *start = p;
            for (;;) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p && *p != ',')
                return -1;
            char *next = *p ? p + 1 : NULL;
            *w = '\0';
            fields[nf++] = start;
            if (!next)
                return nf;
            p = next;
        } else {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = '\0';
            fields[nf++] = trim(p);
            if (!comma)
                return nf;
            p = comma + 1;
        }
    }
}

int preset_src_check(const struct preset_src *s, char *err, size_t errlen)
{
    const char *what = preset_derive_name(s->op);
    if (s->nterms < 1) {
        snprintf(err, errlen, "%s needs at least one native event", what);
        return PAPI_EINVAL;
    }
    if (s->nterms > PRESET_MAX_TERMS) {
        snprintf(err, errlen, "too many native events (%d, at most %d)", s->nterms, PRESET_MAX_TERMS);
        return PAPI_EINVAL;
    }
    if (s->op == DERIVE_NONE && s->nterms != 1) {
        snprintf(err, errlen, "NOT_DERIVED takes exactly one native event, not %d", s->nterms);
        return PAPI_EINVAL;
    }
    if ((s->op == DERIVE_ADD || s->op == DERIVE_SUB || s->op == DERIVE_CMPD) && s->nterms < 2) {
        snprintf(err, errlen, "%s needs two or more native events", what);
        return PAPI_EINVAL;
    }
    if (s->op == DERIVE_POSTFIX) {
        struct preset_def *scratch = calloc(1, sizeof *scratch);
        if (!scratch) {
            snprintf(err, errlen, "out of memory");
            return PAPI_ENOMEM;
        }
        int r = preset_rpn_compile(s->postfix, s->nterms, scratch, err, errlen);
        free(scratch);
        return r;
    } else if (s->postfix[0]) {
        snprintf(err, errlen, "a postfix formula is only allowed with DERIVED_POSTFIX");
        return PAPI_EINVAL;
    }
    return PAPI_OK;
}

void preset_src_list_free(struct preset_src_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* A later definition of a preset replaces the earlier one where it stands (the later one
 * wins either way), so memory is proportional to the distinct presets, not to the lines:
 * a file of a million repeated lines holds one record. */
static int list_push(struct preset_src_list *l, const struct preset_src *s)
{
    for (int i = 0; i < l->count; i++)
        if (l->v[i].idx == s->idx) {
            l->v[i] = *s;
            return PAPI_OK;
        }
    if (l->count == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 64;
        struct preset_src *n = realloc(l->v, (size_t)ncap * sizeof *n);
        if (!n)
            return PAPI_ENOMEM;
        l->v = n;
        l->cap = ncap;
    }
    l->v[l->count++] = *s;
    return PAPI_OK;
}

static int catalog_index(const char *name)
{
    for (int i = 0; i < PAPI_END_idx; i++)
        if (strcmp(preset_catalog_name(i), name) == 0)
            return i;
    return -1;
}

/* Parse the fields of one PRESET line into s; the message goes to err. */
static int parse_preset_fields(char **f, int nf, struct preset_src *s, char *err, size_t errlen)
{
    if (nf < 4) {
        snprintf(err, errlen, "PRESET line needs a name, a type and a native event");
        return PAPI_EINVAL;
    }
    s->idx = catalog_index(f[1]);
    if (s->idx < 0) {
        snprintf(err, errlen, "unknown preset name '%.64s'", f[1]);
        return PAPI_EINVAL;
    }
    if (preset_derive_from_name(f[2], &s->op) != PAPI_OK) {
        snprintf(err, errlen, "unknown derivation type '%.64s'", f[2]);
        return PAPI_EINVAL;
    }
    int first = 3;
    if (s->op == DERIVE_POSTFIX) {
        if (papi_strcpy(s->postfix, sizeof s->postfix, f[3])) {
            snprintf(err, errlen, "postfix formula longer than %zu characters", sizeof s->postfix - 1);
            return PAPI_EINVAL;
        }
        first = 4;
    }
    while (nf > first && f[nf - 1][0] == '\0') /* tolerate trailing commas */
        nf--;
    s->nterms = nf - first;
    for (int i = first; i < nf && i - first < PRESET_MAX_TERMS; i++) {
        const char *n = f[i];
        if (!*n || strpbrk(n, " \t\"")) {
            snprintf(err, errlen, "bad native event name '%.64s' (term %d)", n, i - first);
            return PAPI_EINVAL;
        }
        if (papi_strcpy(s->native[i - first], PRESET_SRC_NAME_LEN, n)) {
            snprintf(err, errlen, "native event name too long (term %d)", i - first);
            return PAPI_EINVAL;
        }
    }
    return preset_src_check(s, err, errlen);
}

static int name_in(char names[][PAPI_MIN_STR_LEN * 2], int n, const char *want)
{
    if (!want)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], want) == 0)
            return 1;
    return 0;
}

int preset_csv_parse(const char *text, size_t len, const char *origin, const char *cpu,
                     const char *fallback, struct preset_src_list *out, char *err, size_t errlen)
{
    char names[MAX_SYNONYMS][PAPI_MIN_STR_LEN * 2];
    int nnames = 0, last_was_cpu = 0, in_table = 0, lineno = 0, ret = PAPI_OK;
    int match_cpu = 0, match_fb = 0;
    struct preset_src_list fb = {0};
    struct preset_src *s = calloc(1, sizeof *s);
    char *line = NULL, msg[PAPI_HUGE_STR_LEN];
    size_t pos = 0, linecap = 0;

    memset(out, 0, sizeof *out);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return PAPI_ENOMEM;
    }
    while (pos < len) {
        size_t n = 0;
        while (pos + n < len && text[pos + n] != '\n' && text[pos + n] != '\r')
            n++;
        lineno++;
        if (n + 1 > linecap) {
            char *nl = realloc(line, n + 1);
            if (!nl) {
                ret = PAPI_ENOMEM;
                snprintf(msg, sizeof msg, "out of memory");
                goto fail;
            }
            line = nl;
            linecap = n + 1;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos += n;
        if (pos < len && text[pos] == '\r' && pos + 1 < len && text[pos + 1] == '\n')
            pos += 2;
        else if (pos < len)
            pos++;
        if (memchr(line, '\0', n)) {
            ret = PAPI_EINVAL;
            snprintf(msg, sizeof msg, "NUL byte in line");
            goto fail;
        }
        if (line[0] == '#')
            continue;
        char *f[MAX_FIELDS];
        char *t = trim(line);
        if (!*t)
            continue;
        int nf = preset_csv_split(t, f, MAX_FIELDS);
        if (nf < 0) {
            ret = PAPI_EINVAL;
            snprintf(msg, sizeof msg, "unbalanced quotes or more than %d fields", MAX_FIELDS);
            goto fail;
        }
        if (strcmp(f[0], "CPU") == 0) {
            if (nf != 2 || !f[1][0]) {
                ret = PAPI_EINVAL;
                snprintf(msg, sizeof msg, "CPU line must be 'CPU,<name>'");
                goto fail;
            }
            if (!last_was_cpu)
                nnames = 0;
            if (nnames == MAX_SYNONYMS || strlen(f[1]) >= sizeof names[0]) {
                ret = PAPI_EINVAL;
                snprintf(msg, sizeof msg, "too many CPU synonyms or CPU name too long");
                goto fail;
            }
            papi_strcpy(names[nnames++], sizeof names[0], f[1]);
            if (!last_was_cpu || !in_table) {
                in_table = 1;
            }
            int mc = name_in(names, nnames, cpu), mf = name_in(names, nnames, fallback);
            /* Count a table once, when its first matching synonym is seen. */
            if (mc && !name_in(names, nnames - 1, cpu))
                match_cpu++;
            if (mf && !name_in(names, nnames - 1, fallback))
                match_fb++;
            last_was_cpu = 1;
            continue;
        }
        last_was_cpu = 0;
        if (strcmp(f[0], "PRESET") != 0) {
            ret = PAPI_EINVAL;
            snprintf(msg, sizeof msg, "unknown line type '%.32s' (expected CPU, PRESET or #)", f[0]);
            goto fail;
        }
        if (!in_table) {
            ret = PAPI_EINVAL;
            snprintf(msg, sizeof msg, "PRESET line before any CPU line");
            goto fail;
        }
        memset(s, 0, sizeof *s);
        s->line = lineno;
        ret = parse_preset_fields(f, nf, s, msg, sizeof msg);
        if (ret != PAPI_OK)
            goto fail;
        if (name_in(names, nnames, cpu))
            ret = list_push(out, s);
        else if (name_in(names, nnames, fallback))
            ret = list_push(&fb, s);
        if (ret != PAPI_OK) {
            snprintf(msg, sizeof msg, "out of memory");
            goto fail;
        }
    }
    if (!match_cpu && match_fb) {
        preset_src_list_free(out);
        *out = fb;
        out->matched_tables = match_fb;
        out->fallback_used = 1;
    } else {
        preset_src_list_free(&fb);
        out->matched_tables = match_cpu;
    }
    free(line);
    free(s);
    return PAPI_OK;
fail:
    snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
    free(line);
    free(s);
    preset_src_list_free(&fb);
    preset_src_list_free(out);
    return ret;
}
