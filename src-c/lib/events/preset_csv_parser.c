/* preset_csv_parser.c: the papi_events.csv format (comment lines, CPU lines whose
 * consecutive names are synonyms, PRESET lines). Pure text processing: native event
 * names are resolved later by preset_build_def, so a table for a CPU this machine is
 * not can still be checked for syntax. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_room.h"
#include "preset_catalog.h"
#include "preset_csv_parser.h"
#include "preset_rpn.h"

#define MAX_FIELDS   64
#define MAX_SYNONYMS 32

static const struct {
    const char *name;
    enum derive_op op;
} derive_names[] = {
    {"NOT_DERIVED", DERIVE_NONE},        {"DERIVED_ADD", DERIVE_ADD},
    {"DERIVED_SUB", DERIVE_SUB},         {"DERIVED_CMPD", DERIVE_CMPD},
    {"DERIVED_POSTFIX", DERIVE_POSTFIX}, {"DERIVED POSTFIX", DERIVE_POSTFIX},
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
    case DERIVE_ADD:
        return "DERIVED_ADD";
    case DERIVE_SUB:
        return "DERIVED_SUB";
    case DERIVE_POSTFIX:
        return "DERIVED_POSTFIX";
    case DERIVE_CMPD:
        return "DERIVED_CMPD";
    default:
        return "NOT_DERIVED";
    }
}

void preset_csv_skip_bom(const char **text, size_t *len)
{
    if (*len >= 3 && memcmp(*text, "\xEF\xBB\xBF", 3) == 0) {
        *text += 3;
        *len -= 3;
    }
}

const char *preset_csv_shown(char *dst, size_t cap, const char *s, size_t max)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    if (!cap)
        return dst;
    for (size_t i = 0; s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        int plain = c >= 0x20 && c < 0x7f && c != '\\';
        if (o + (plain ? 1 : 4) >= cap)
            break;
        if (plain) {
            dst[o++] = (char)c;
        } else {
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        }
    }
    dst[o] = '\0';
    return dst;
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

int preset_csv_fields(char *line, char **fields, int maxf, char *msg, size_t msglen)
{
    int nf = preset_csv_split(line, fields, maxf);
    if (nf < 0)
        snprintf(msg, msglen, "unbalanced quotes or more than %d fields", maxf);
    return nf;
}

int preset_src_check(const struct preset_src *s, char *err, size_t errlen)
{
    const char *what = preset_derive_name(s->op);
    if (s->nterms < 1) {
        snprintf(err, errlen, "%s needs at least one native event", what);
        return PAPI_EINVAL;
    }
    if (s->nterms > PRESET_MAX_TERMS) {
        snprintf(err, errlen, "too many native events (%d, at most %d)", s->nterms,
                 PRESET_MAX_TERMS);
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
    struct preset_src *n = array_room(l->v, l->count, &l->cap, sizeof *n, 64);
    if (!n)
        return PAPI_ENOMEM;
    l->v = n;
    l->v[l->count++] = *s;
    return PAPI_OK;
}

/* Parse the fields of one PRESET line into s; the message goes to err. */
static int parse_preset_fields(char **f, int nf, struct preset_src *s, char *err, size_t errlen)
{
    if (nf < 4) {
        snprintf(err, errlen, "PRESET line needs a name, a type and a native event");
        return PAPI_EINVAL;
    }
    s->idx = preset_catalog_index(f[1]);
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
            snprintf(err, errlen, "postfix formula longer than %zu characters",
                     sizeof s->postfix - 1);
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

/* What the parse has seen so far: the CPU names of the table being read (consecutive CPU
 * lines are synonyms), how many tables matched the CPU and its fallback, and the presets
 * of each. */
struct csv_parse {
    const char *cpu, *fallback;
    char names[MAX_SYNONYMS][PAPI_MIN_STR_LEN * 2];
    int nnames, last_was_cpu, in_table, match_cpu, match_fb;
    int trusted;      /* the built-in table: preset_table_check parses all of it in ctest */
    int table_wanted; /* the table being read is the CPU's or the fallback's */
    struct preset_src_list *out, fb;
    struct preset_src *src; /* one PRESET line's record, reused */
};

/* Copy the line at *pos (ended by \n, \r or \r\n) into *line, growing it; *pos past
 * the end of line. */
static int next_line(const char *text, size_t len, size_t *pos, char **line, size_t *cap, char *msg,
                     size_t msglen)
{
    size_t n = 0, at = *pos;
    while (at + n < len && text[at + n] != '\n' && text[at + n] != '\r')
        n++;
    if (n + 1 > *cap) {
        char *nl = realloc(*line, n + 1);
        if (!nl) {
            snprintf(msg, msglen, "out of memory");
            return PAPI_ENOMEM;
        }
        *line = nl;
        *cap = n + 1;
    }
    memcpy(*line, text + at, n);
    (*line)[n] = '\0';
    at += n;
    if (at < len && text[at] == '\r' && at + 1 < len && text[at + 1] == '\n')
        at += 2;
    else if (at < len)
        at++;
    *pos = at;
    if (memchr(*line, '\0', n)) {
        snprintf(msg, msglen, "NUL byte in line");
        return PAPI_EINVAL;
    }
    return PAPI_OK;
}

static int cpu_line(struct csv_parse *st, char **f, int nf, char *msg, size_t msglen)
{
    if (nf != 2 || !f[1][0]) {
        snprintf(msg, msglen, "CPU line must be 'CPU,<name>'");
        return PAPI_EINVAL;
    }
    if (!st->last_was_cpu)
        st->nnames = 0;
    if (st->nnames == MAX_SYNONYMS || strlen(f[1]) >= sizeof st->names[0]) {
        snprintf(msg, msglen, "too many CPU synonyms or CPU name too long");
        return PAPI_EINVAL;
    }
    papi_strcpy(st->names[st->nnames++], sizeof st->names[0], f[1]);
    st->in_table = 1;
    int n = st->nnames;
    /* Count a table once, when its first matching synonym is seen. */
    if (name_in(st->names, n, st->cpu) && !name_in(st->names, n - 1, st->cpu))
        st->match_cpu++;
    if (name_in(st->names, n, st->fallback) && !name_in(st->names, n - 1, st->fallback))
        st->match_fb++;
    st->table_wanted = name_in(st->names, n, st->cpu) || name_in(st->names, n, st->fallback);
    st->last_was_cpu = 1;
    return PAPI_OK;
}

/* A PRESET line: kept when its table is the CPU's or the fallback's. */
static int preset_line(struct csv_parse *st, char **f, int nf, int lineno, char *msg, size_t msglen)
{
    if (!st->in_table) {
        snprintf(msg, msglen, "PRESET line before any CPU line");
        return PAPI_EINVAL;
    }
    /* Reset field by field: the record is kilobytes of name buffers, and clearing it
     * whole for each of the table's lines was a twentieth of papi_avail's instructions. */
    struct preset_src *r = st->src;
    r->idx = r->nterms = 0;
    r->op = DERIVE_NONE;
    r->postfix[0] = r->note[0] = '\0';
    for (int i = 0; i < PRESET_MAX_TERMS; i++)
        r->native[i][0] = '\0';
    r->line = lineno;
    int ret = parse_preset_fields(f, nf, st->src, msg, msglen);
    if (ret != PAPI_OK)
        return ret;
    if (name_in(st->names, st->nnames, st->cpu))
        ret = list_push(st->out, st->src);
    else if (name_in(st->names, st->nnames, st->fallback))
        ret = list_push(&st->fb, st->src);
    if (ret != PAPI_OK)
        snprintf(msg, msglen, "out of memory");
    return ret;
}

static int parse_line(struct csv_parse *st, char *line, int lineno, char *msg, size_t msglen)
{
    if (line[0] == '#')
        return PAPI_OK;
    char *t = line;
    while (*t == ' ' || *t == '\t')
        t++;
    /* The built-in table's PRESET lines for other CPUs: checked whole by ctest
     * (preset_table_check), skipped here (they were half of papi_avail's parse). */
    if (st->trusted && st->in_table && !st->table_wanted && strncmp(t, "PRESET", 6) == 0 &&
        (t[6] == ',' || t[6] == ' ' || t[6] == '\t')) {
        st->last_was_cpu = 0;
        return PAPI_OK;
    }
    char *f[MAX_FIELDS];
    t = trim(line);
    if (!*t)
        return PAPI_OK;
    int nf = preset_csv_fields(t, f, MAX_FIELDS, msg, msglen);
    if (nf < 0)
        return PAPI_EINVAL;
    if (strcmp(f[0], "CPU") == 0)
        return cpu_line(st, f, nf, msg, msglen);
    st->last_was_cpu = 0;
    if (strcmp(f[0], "PRESET") != 0) {
        char shown[4 * 32 + 1];
        snprintf(msg, msglen, "unknown line type '%s' (expected CPU, PRESET or #)",
                 preset_csv_shown(shown, sizeof shown, f[0], 32));
        return PAPI_EINVAL;
    }
    return preset_line(st, f, nf, lineno, msg, msglen);
}

static int parse(const char *text, size_t len, const char *origin, const char *cpu,
                 const char *fallback, int trusted, struct preset_src_list *out, char *err,
                 size_t errlen)
{
    struct csv_parse st = {.cpu = cpu, .fallback = fallback, .out = out, .trusted = trusted};
    int lineno = 0, ret = PAPI_OK;
    char *line = NULL, msg[PAPI_HUGE_STR_LEN];
    size_t pos = 0, linecap = 0;

    memset(out, 0, sizeof *out);
    preset_csv_skip_bom(&text, &len);
    st.src = calloc(1, sizeof *st.src);
    if (!st.src) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return PAPI_ENOMEM;
    }
    while (pos < len) {
        lineno++;
        ret = next_line(text, len, &pos, &line, &linecap, msg, sizeof msg);
        if (ret == PAPI_OK)
            ret = parse_line(&st, line, lineno, msg, sizeof msg);
        if (ret != PAPI_OK)
            goto fail;
    }
    if (!st.match_cpu && st.match_fb) {
        preset_src_list_free(out);
        *out = st.fb;
        out->matched_tables = st.match_fb;
        out->fallback_used = 1;
    } else {
        preset_src_list_free(&st.fb);
        out->matched_tables = st.match_cpu;
    }
    free(line);
    free(st.src);
    return PAPI_OK;
fail:
    snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
    free(line);
    free(st.src);
    preset_src_list_free(&st.fb);
    preset_src_list_free(out);
    return ret;
}

int preset_csv_parse(const char *text, size_t len, const char *origin, const char *cpu,
                     const char *fallback, struct preset_src_list *out, char *err, size_t errlen)
{
    return parse(text, len, origin, cpu, fallback, 0, out, err, errlen);
}

int preset_csv_parse_builtin(const char *text, size_t len, const char *origin, const char *cpu,
                             const char *fallback, struct preset_src_list *out, char *err,
                             size_t errlen)
{
    return parse(text, len, origin, cpu, fallback, 1, out, err, errlen);
}
