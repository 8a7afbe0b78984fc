/* metric_table.c: papi_metrics.csv parsed for this CPU, and each metric's events
 * resolved on first use (metric_table.h). */
#include <dirent.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_room.h"
#include "env.h"
#include "events.h"
#include "fsroot.h"
#include "metric_table.h"
#include "preset_tables.h"
#include "str_append.h"

#define GENERIC_TABLE "generic"
#define MAX_FIELDS    (METRIC_MAX_GROUP + 3)
#define MAX_SYNONYMS  32

/* ---- parsing ------------------------------------------------------------------- */

struct parse_state {
    const char *cpu;
    char names[MAX_SYNONYMS][PAPI_MIN_STR_LEN];
    int nnames, last_was_cpu, in_table;
    int generic, own; /* the table being read is "generic", this CPU's */
    struct metric_table *out;
};

static int in_names(const struct parse_state *st, const char *want)
{
    for (int i = 0; want && i < st->nnames; i++)
        if (strcmp(st->names[i], want) == 0)
            return 1;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= PAPI_MIN_STR_LEN)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static int cpu_line(struct parse_state *st, char **f, int nf, char *msg, size_t msglen)
{
    if (nf != 2 || !f[1][0] || strlen(f[1]) >= PAPI_MIN_STR_LEN) {
        snprintf(msg, msglen, "CPU line must be 'CPU,<name>'");
        return PAPI_EINVAL;
    }
    if (!st->last_was_cpu)
        st->nnames = 0;
    if (st->nnames == MAX_SYNONYMS) {
        snprintf(msg, msglen, "more than %d CPU synonyms", MAX_SYNONYMS);
        return PAPI_EINVAL;
    }
    papi_strcpy(st->names[st->nnames++], sizeof st->names[0], f[1]);
    st->in_table = st->last_was_cpu = 1;
    st->generic = in_names(st, GENERIC_TABLE);
    st->own = in_names(st, st->cpu);
    return PAPI_OK;
}

static void metric_clear(struct metric *m)
{
    free(m->name);
    free(m->unit);
    free(m->description);
    free(m->first_text);
    for (int k = 0; k < m->nalts; k++)
        free(m->alt_text[k]);
    if (m->r) {
        for (int i = 0; i < m->r->nevents; i++)
            free(m->r->events[i]);
        free(m->r->events);
        free(m->r->factor);
        free(m->r);
    }
    memset(m, 0, sizeof *m);
}

/* The slot for name: the one already there (a later definition replaces it) or a new
 * one; NULL when out of memory. */
static struct metric *metric_slot(struct metric_table *t, const char *name)
{
    struct metric *m = metric_find(t, name);
    if (m)
        return m;
    struct metric *n = array_room(t->v, t->count, &t->cap, sizeof *n, 32);
    if (!n)
        return NULL;
    t->v = n;
    /* A new slot starts empty: metric_line tells a new slot from a generic one by name. */
    memset(&t->v[t->count], 0, sizeof t->v[0]);
    return &t->v[t->count++];
}

/* A METRIC or OR line's formula text for metric name, compiled to check it on every table's
 * line: PAPI_EINVAL with "metric NAME: why" when it does not compile; else 1 when the line
 * is kept (this CPU's table or the generic one), 0 when it is another CPU's (checked, not
 * kept). */
static int formula_checked(const struct parse_state *st, const char *name, const char *text,
                           char *msg, size_t msglen)
{
    struct metric_formula fm;
    char why[PAPI_HUGE_STR_LEN];
    if (metric_formula_compile(text, &fm, why, sizeof why) != PAPI_OK) {
        snprintf(msg, msglen, "metric %.63s: %.900s", name, why);
        return PAPI_EINVAL;
    }
    return st->generic || st->own;
}

static int metric_line(struct parse_state *st, char **f, int nf, int line, char *msg, size_t msglen)
{
    if (nf != 5) {
        snprintf(msg, msglen, "METRIC line must be 'METRIC,<name>,<unit>,<formula>,<description>'");
        return PAPI_EINVAL;
    }
    if (!valid_name(f[1])) {
        char shown[4 * 64 + 1];
        snprintf(msg, msglen, "bad metric name '%s' (capitals, digits and _, under %d)",
                 preset_csv_shown(shown, sizeof shown, f[1], 64), PAPI_MIN_STR_LEN);
        return PAPI_EINVAL;
    }
    if (!f[2][0] || strlen(f[2]) >= PAPI_MIN_STR_LEN || strlen(f[3]) >= PAPI_HUGE_STR_LEN ||
        strlen(f[4]) >= PAPI_HUGE_STR_LEN) {
        snprintf(msg, msglen, "metric %s: unit empty, or a field too long", f[1]);
        return PAPI_EINVAL;
    }
    int kept = formula_checked(st, f[1], f[3], msg, msglen);
    if (kept < 0)
        return PAPI_EINVAL;
    if (!kept)
        return PAPI_OK; /* another CPU's: checked, not kept */
    struct metric *m = metric_slot(st->out, f[1]);
    if (!m) {
        snprintf(msg, msglen, "out of memory");
        return PAPI_ENOMEM;
    }
    /* This CPU's definition wins over the generic one, whatever the order. */
    if (m->name && st->generic && !st->own && strcmp(m->table, GENERIC_TABLE) != 0)
        return PAPI_OK;
    metric_clear(m);
    m->table = st->own ? st->out->cpu : GENERIC_TABLE;
    m->line = line;
    m->name = strdup(f[1]);
    m->unit = strdup(f[2]);
    m->first_text = strdup(f[3]);
    m->description = strdup(f[4]);
    m->formula_text = m->first_text;
    if (!m->name || !m->unit || !m->first_text || !m->description) {
        snprintf(msg, msglen, "out of memory");
        return PAPI_ENOMEM; /* the table is freed whole */
    }
    return PAPI_OK;
}

/* OR,<name>,<formula>: another formula for a metric this table defined above it. */
static int or_line(struct parse_state *st, char **f, int nf, char *msg, size_t msglen)
{
    if (nf != 3 || !valid_name(f[1]) || strlen(f[2]) >= PAPI_HUGE_STR_LEN) {
        snprintf(msg, msglen, "OR line must be 'OR,<metric>,<formula>'");
        return PAPI_EINVAL;
    }
    int kept = formula_checked(st, f[1], f[2], msg, msglen);
    if (kept < 0)
        return PAPI_EINVAL;
    if (!kept)
        return PAPI_OK; /* another CPU's: checked, not kept */
    struct metric *m = metric_find(st->out, f[1]);
    const char *table = st->own ? st->cpu : GENERIC_TABLE;
    if (!m || strcmp(m->table, table) != 0) {
        snprintf(msg, msglen, "OR line for %.63s, which this table does not define above it", f[1]);
        return PAPI_EINVAL;
    }
    if (m->nalts == METRIC_MAX_ALTS) {
        snprintf(msg, msglen, "metric %.63s: more than %d OR lines", f[1], METRIC_MAX_ALTS);
        return PAPI_EINVAL;
    }
    if (!(m->alt_text[m->nalts] = strdup(f[2]))) {
        snprintf(msg, msglen, "out of memory");
        return PAPI_ENOMEM;
    }
    m->nalts++;
    return PAPI_OK;
}

static int group_line(struct parse_state *st, char **f, int nf, char *msg, size_t msglen)
{
    /* A last field with a blank is the description, not a member. */
    const char *descr = nf >= 4 && strchr(f[nf - 1], ' ') ? f[--nf] : "";
    if (strlen(descr) >= PAPI_HUGE_STR_LEN) {
        snprintf(msg, msglen, "group %.63s: description too long", f[1]);
        return PAPI_EINVAL;
    }
    if (nf < 3 || nf - 2 > METRIC_MAX_GROUP || !valid_name(f[1])) {
        snprintf(msg, msglen, "GROUP line must be 'GROUP,<name>,<metric>...' (1 to %d metrics)",
                 METRIC_MAX_GROUP);
        return PAPI_EINVAL;
    }
    for (int i = 2; i < nf; i++)
        if (!valid_name(f[i])) {
            char shown[4 * 64 + 1];
            snprintf(msg, msglen, "group %s: bad metric name '%s'", f[1],
                     preset_csv_shown(shown, sizeof shown, f[i], 64));
            return PAPI_EINVAL;
        }
    if (!st->generic && !st->own)
        return PAPI_OK;
    struct metric_table *t = st->out;
    struct metric_group *g = (struct metric_group *)metric_group_find(t, f[1]);
    if (!g) {
        struct metric_group *n = array_room(t->g, t->ngroups, &t->gcap, sizeof *n, 8);
        if (!n) {
            snprintf(msg, msglen, "out of memory");
            return PAPI_ENOMEM;
        }
        t->g = n;
        g = &t->g[t->ngroups++];
        memset(g, 0, sizeof *g);
    }
    free(g->name);
    memset(g, 0, sizeof *g);
    /* One block: the name, each member, the description, each with its NUL. */
    size_t size = strlen(descr) + 1;
    for (int i = 1; i < nf; i++)
        size += strlen(f[i]) + 1;
    char *p = malloc(size);
    if (!p) {
        t->ngroups--; /* the slot stays empty: nothing points into it */
        snprintf(msg, msglen, "out of memory");
        return PAPI_ENOMEM;
    }
    for (int i = 1; i < nf; i++) {
        size_t n = strlen(f[i]) + 1;
        memcpy(p, f[i], n);
        if (i == 1)
            g->name = p;
        else
            g->members[g->n++] = p;
        p += n;
    }
    memcpy(p, descr, strlen(descr) + 1);
    g->description = p;
    return PAPI_OK;
}

static int parse_line(struct parse_state *st, char *line, int lineno, char *msg, size_t msglen)
{
    char *t = line;
    while (*t == ' ' || *t == '\t')
        t++;
    if (*t == '#' || !*t)
        return PAPI_OK;
    char *f[MAX_FIELDS];
    int nf = preset_csv_fields(t, f, MAX_FIELDS, msg, msglen);
    if (nf < 0)
        return PAPI_EINVAL;
    if (strcmp(f[0], "CPU") == 0)
        return cpu_line(st, f, nf, msg, msglen);
    st->last_was_cpu = 0;
    if (!st->in_table) {
        char shown[4 * 32 + 1];
        snprintf(msg, msglen, "%s line before any CPU line",
                 preset_csv_shown(shown, sizeof shown, f[0], 32));
        return PAPI_EINVAL;
    }
    if (strcmp(f[0], "METRIC") == 0)
        return metric_line(st, f, nf, lineno, msg, msglen);
    if (strcmp(f[0], "GROUP") == 0)
        return group_line(st, f, nf, msg, msglen);
    if (strcmp(f[0], "OR") == 0)
        return or_line(st, f, nf, msg, msglen);
    char shown[4 * 32 + 1];
    snprintf(msg, msglen, "unknown line type '%s' (expected CPU, METRIC, GROUP, OR or #)",
             preset_csv_shown(shown, sizeof shown, f[0], 32));
    return PAPI_EINVAL;
}

/* Every group names metrics of the table (checked once the whole file is read). */
static int check_groups(const struct metric_table *t, char *msg, size_t msglen)
{
    for (int i = 0; i < t->ngroups; i++)
        for (int k = 0; k < t->g[i].n; k++)
            if (!metric_find((struct metric_table *)t, t->g[i].members[k])) {
                snprintf(msg, msglen, "group %s names %s, which this CPU's tables do not define",
                         t->g[i].name, t->g[i].members[k]);
                return PAPI_EINVAL;
            }
    return PAPI_OK;
}

int metric_table_parse(const char *text, size_t len, const char *origin, const char *cpu,
                       struct metric_table *out, char *err, size_t errlen)
{
    struct parse_state st = {.cpu = cpu, .out = out};
    char msg[PAPI_HUGE_STR_LEN], *line = NULL;
    size_t pos = 0, cap = 0;
    int lineno = 0, ret = PAPI_OK;
    memset(out, 0, sizeof *out);
    preset_csv_skip_bom(&text, &len);
    if (cpu && !(out->cpu = strdup(cpu))) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return PAPI_ENOMEM;
    }
    while (pos < len && ret == PAPI_OK) {
        size_t n = 0;
        while (pos + n < len && text[pos + n] != '\n' && text[pos + n] != '\r')
            n++;
        lineno++;
        if (n + 1 > cap) {
            char *nl = realloc(line, n + 1);
            if (!nl) {
                snprintf(msg, sizeof msg, "out of memory");
                ret = PAPI_ENOMEM;
                break;
            }
            line = nl;
            cap = n + 1;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos += n;
        if (pos < len && text[pos] == '\r' && pos + 1 < len && text[pos + 1] == '\n')
            pos += 2;
        else if (pos < len)
            pos++;
        if (memchr(line, '\0', n)) {
            snprintf(msg, sizeof msg, "NUL byte in line");
            ret = PAPI_EINVAL;
            break;
        }
        ret = parse_line(&st, line, lineno, msg, sizeof msg);
    }
    free(line);
    if (ret == PAPI_OK && (ret = check_groups(out, msg, sizeof msg)) != PAPI_OK)
        lineno = 0;
    if (ret != PAPI_OK) {
        if (lineno)
            snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
        else
            snprintf(err, errlen, "%s: %s", origin, msg);
        metric_table_free(out);
    }
    return ret;
}

void metric_table_free(struct metric_table *t)
{
    for (int i = 0; i < t->count; i++)
        metric_clear(&t->v[i]);
    free(t->v);
    free(t->cpu);
    for (int i = 0; i < t->ngroups; i++)
        free(t->g[i].name);
    free(t->g);
    memset(t, 0, sizeof *t);
}

struct metric *metric_find(struct metric_table *t, const char *name)
{
    for (int i = 0; i < t->count; i++)
        if (t->v[i].name && strcmp(t->v[i].name, name) == 0)
            return &t->v[i];
    return NULL;
}

const struct metric_group *metric_group_find(const struct metric_table *t, const char *name)
{
    for (int i = 0; i < t->ngroups; i++)
        if (strcmp(t->g[i].name, name) == 0)
            return &t->g[i];
    return NULL;
}

/* ---- resolution ---------------------------------------------------------------- */

/* A clause of m's reason ("; " between clauses); what does not fit is cut. */
static void add_reason(struct metric_state *r, const char *event, const char *why)
{
    str_appendf(r->reason, sizeof r->reason, "%s%s: %s", r->reason[0] ? "; " : "", event, why);
}

double metric_unit_size(const char *unit)
{
    static const struct {
        const char *unit;
        double size;
    } sizes[] = {{"B", 1},           {"Bytes", 1},          {"bytes", 1},  {"KiB", 1024.0},
                 {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"kB", 1e3},   {"KB", 1e3},
                 {"MB", 1e6},        {"GB", 1e9},           {"Joules", 1}, {"J", 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(unit, sizes[i].unit) == 0)
            return sizes[i].size;
    return 1;
}

/* Event i of m's count in base units: the kernel's scale and unit, when it has them. */
static void event_factor(struct metric_state *r, int i, int code)
{
    double scale;
    char unit[PAPI_MIN_STR_LEN];
    r->factor[i] = 1;
    if (event_native_scale(code, &scale, unit, sizeof unit) == PAPI_OK)
        r->factor[i] = scale * metric_unit_size(unit);
}

/* One concrete event: whether it names an event of this machine (or the recorded one)
 * and whether it opens here. */
static void resolve_event(struct metric_state *r, int i)
{
    const char *name = r->events[i];
    int code;
    r->factor[i] = 1;
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK) {
        r->resolved = r->countable = 0;
        add_reason(r, name, PAPI_strerror_detail());
        return;
    }
    if ((code & PAPI_PRESET_MASK) && !(code & PAPI_NATIVE_MASK) &&
        !preset_tables_defined(code & PAPI_PRESET_AND_MASK)) {
        r->resolved = r->countable = 0;
        add_reason(r, name, preset_tables_unavailable_reason(code & PAPI_PRESET_AND_MASK));
        return;
    }
    event_factor(r, i, code);
    if (PAPI_query_event(code) != PAPI_OK && r->countable) {
        r->countable = 0;
        char why[PAPI_HUGE_STR_LEN];
        snprintf(why, sizeof why, "cannot be counted here: %s", PAPI_strerror_detail());
        add_reason(r, name, why);
    }
}

/* Whether pmu has event: a named event needs its sysfs file (uncore_imc_* also matches
 * the free-running uncore_imc_free_running_N, which have other events); raw fields
 * (event=0x0a,...) go to every PMU of the pattern. */
static int pmu_has_event(const char *pmu, const char *event)
{
    if (strchr(event, '='))
        return 1;
    char path[PAPI_HUGE_STR_LEN];
    snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/events/%s", pmu, event);
    return fsroot_access(path, F_OK) == 0;
}

/* Names in the order people number PMUs: amd_umc_2 before amd_umc_10 (a run of digits
 * compares by its value, the rest byte by byte). */
static int natural_cmp(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0' && a[1] >= '0' && a[1] <= '9')
                a++;
            while (*b == '0' && b[1] >= '0' && b[1] <= '9')
                b++;
            size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

/* One more event of m (every PMU a pattern matches: no fixed limit); -1 when out of
 * memory. */
static int add_event(struct metric_state *r, const char *pmu, const char *rest)
{
    if (r->nevents == r->ecap) {
        int ncap = r->ecap ? r->ecap * 2 : 8;
        char **ev = realloc(r->events, (size_t)ncap * sizeof *ev);
        if (!ev)
            return -1;
        r->events = ev;
        double *fa = realloc(r->factor, (size_t)ncap * sizeof *fa);
        if (!fa)
            return -1;
        r->factor = fa;
        r->ecap = ncap;
    }
    size_t len = strlen(pmu) + strlen(rest) + 1;
    char *e = malloc(len);
    if (!e)
        return -1;
    snprintf(e, len, "%s%s", pmu, rest);
    r->factor[r->nevents] = 1;
    r->events[r->nevents++] = e;
    return 0;
}

static void out_of_memory(struct metric_state *r)
{
    r->resolved = r->countable = 0;
    add_reason(r, "its events", "out of memory while resolving them");
}

/* Names found by a pattern (expand_pattern), kept for sorting. */
struct found {
    char **v;
    int n, cap, oom;
};

static void found_add(struct found *f, const char *name)
{
    char **nv = f->oom ? NULL : array_room(f->v, f->n, &f->cap, sizeof *nv, 16);
    if (!nv || !(nv[f->n] = strdup(name))) {
        f->oom = 1;
        return;
    }
    f->v = nv;
    f->n++;
}

/* {pmu*::event}: every PMU of the machine whose name matches and that has the event. */
static void find_pmus(const char *term, const char *sep, struct found *f)
{
    char pmu_pat[PAPI_MIN_STR_LEN];
    size_t plen = (size_t)(sep - term);
    if (plen >= sizeof pmu_pat)
        return;
    memcpy(pmu_pat, term, plen);
    pmu_pat[plen] = '\0';
    DIR *d = fsroot_opendir("/sys/bus/event_source/devices");
    struct dirent *e;
    while (d && !f->oom && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && fnmatch(pmu_pat, e->d_name, 0) == 0 &&
            strlen(e->d_name) < PAPI_MIN_STR_LEN && pmu_has_event(e->d_name, sep + 2))
            found_add(f, e->d_name);
    if (d)
        closedir(d);
}

/* {component:::pattern}: every event of the component whose whole name matches
 * ({nvml:::*:gpm_sm_activity_ns}: that event of every device). */
static void find_component_events(const char *term, const char *sep, struct found *f)
{
    char cmp[PAPI_MIN_STR_LEN], name[PAPI_MAX_STR_LEN];
    size_t clen = (size_t)(sep - term);
    if (clen >= sizeof cmp)
        return;
    memcpy(cmp, term, clen);
    cmp[clen] = '\0';
    int cidx = PAPI_get_component_index(cmp), code = PAPI_NATIVE_MASK;
    if (cidx < 0 || PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
        return;
    do
        if (PAPI_event_code_to_name(code, name) == PAPI_OK && fnmatch(term, name, 0) == 0)
            found_add(f, name);
    while (!f->oom && PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
}

/* A braced name with a `*`: {pmu*::event} (every PMU of the pattern that has the event)
 * or {component:::pattern} (every event of the component the pattern matches), in
 * number order (amd_umc_0, _1, ... _10; device_2 before device_10); however many. */
static int expand_pattern(struct metric_state *r, const char *term)
{
    const char *sep3 = strstr(term, ":::"), *sep = strstr(term, "::");
    struct found f = {0};
    if (sep3)
        find_component_events(term, sep3, &f);
    else if (sep)
        find_pmus(term, sep, &f);
    qsort(f.v, (size_t)f.n, sizeof *f.v, natural_cmp);
    for (int i = 0; i < f.n && !f.oom; i++)
        f.oom = add_event(r, f.v[i], sep3 ? "" : sep) != 0;
    for (int i = 0; i < f.n; i++)
        free(f.v[i]);
    free(f.v);
    if (f.oom) {
        out_of_memory(r);
        return -1;
    }
    return f.n;
}

/* m's events under the formula in force. */
static void resolve_formula(struct metric_state *r)
{
    r->resolved = r->countable = 1;
    r->reason[0] = '\0';
    for (int i = 0; i < r->nevents; i++)
        free(r->events[i]);
    r->nevents = 0;
    int oom = 0;
    for (int t = 0; t < r->f.nterms; t++) {
        const char *term = r->f.term[t];
        r->term_first[t] = r->nevents;
        if (oom) {
            r->term_count[t] = 0;
            continue;
        }
        if (strchr(term, '*')) {
            int n = expand_pattern(r, term);
            oom = n < 0;
            if (n == 0) {
                r->resolved = r->countable = 0;
                add_reason(r, term,
                           strstr(term, ":::")
                               ? "no event of this pattern here (the component is absent or "
                                 "disabled: papi_component_avail says why, or lists none such)"
                               : "no PMU of this name pattern with this event on this machine");
            }
        } else if (add_event(r, "", term) != 0) {
            out_of_memory(r);
            oom = 1;
        }
        r->term_count[t] = r->nevents - r->term_first[t];
        for (int i = r->term_first[t]; i < r->nevents; i++)
            resolve_event(r, i);
    }
    if (r->nevents > PAPIM_MAX_EVENTS) {
        char why[PAPI_HUGE_STR_LEN];
        snprintf(why, sizeof why,
                 "its patterns match %d events on this machine, more than the %d one metric "
                 "counts (PAPIM_MAX_EVENTS); refused rather than summed in part",
                 r->nevents, PAPIM_MAX_EVENTS);
        r->resolved = r->countable = 0;
        r->reason[0] = '\0'; /* this reason first and whole: the events' can wait */
        add_reason(r, "the metric", why);
    }
}

/* Formula k of m (0: the METRIC line's, then its OR lines') put in force. */
static void use_formula(struct metric *m, int k)
{
    char why[PAPI_HUGE_STR_LEN];
    m->formula_text = k == 0 ? m->first_text : m->alt_text[k - 1];
    metric_formula_compile(m->formula_text, &m->r->f, why, sizeof why); /* checked when parsed */
}

/* The first formula whose events this machine has; when none has them, the first one,
 * with the reasons of each. */
int metric_resolve(struct metric *m)
{
    if (m->r)
        return PAPI_OK;
    struct metric_state *r = calloc(1, sizeof *r);
    if (!r)
        return papi_error(PAPI_ENOMEM, "metric %s: no memory to resolve it", m->name);
    m->r = r;
    char reasons[PAPI_HUGE_STR_LEN] = "";
    for (int k = 0; k <= m->nalts; k++) {
        use_formula(m, k);
        resolve_formula(r);
        if (r->resolved || m->nalts == 0)
            break;
        str_appendf(reasons, sizeof reasons, "%sformula %d (%s): %s", k ? "; " : "", k + 1,
                    m->formula_text, r->reason);
    }
    if (!r->resolved && m->nalts > 0) {
        use_formula(m, 0);
        resolve_formula(r);
        papi_strcpy(r->reason, sizeof r->reason, reasons);
    }
    return PAPI_OK;
}

/* ---- the table in force -------------------------------------------------------- */

static pthread_mutex_t metrics_lock = PTHREAD_MUTEX_INITIALIZER;
static struct metric_table table;
static int table_loaded;

void metric_table_lock(void)
{
    pthread_mutex_lock(&metrics_lock);
}

void metric_table_unlock(void)
{
    pthread_mutex_unlock(&metrics_lock);
}

static void table_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN || ev->keep_machine)
        return;
    pthread_mutex_lock(&metrics_lock);
    metric_table_free(&table);
    table_loaded = 0;
    pthread_mutex_unlock(&metrics_lock);
}

struct metric_table *metric_table_get(void)
{
    if (table_loaded)
        return &table;
    char err[PAPI_HUGE_STR_LEN * 4] = "";
    const char *path = env_get("PAPI_METRICS_FILE");
    const char *cpu = preset_detected_cpu();
    int ret;
    if (path) {
        size_t len = 0;
        char *text = preset_read_file(path, &len, err, sizeof err);
        ret = text ? metric_table_parse(text, len, path, cpu, &table, err, sizeof err) : PAPI_ESYS;
        free(text);
    } else {
        ret = metric_table_parse(metric_builtin_csv, metric_builtin_csv_len,
                                 "papi_metrics.csv (built in)", cpu, &table, err, sizeof err);
    }
    if (ret != PAPI_OK) {
        papi_error(ret == PAPI_ENOMEM ? PAPI_ENOMEM : PAPI_EINVAL, "metric table %s%s",
                   path ? "PAPI_METRICS_FILE rejected: " : "rejected: ", err);
        return NULL;
    }
    table_loaded = 1;
    papi_lifecycle_register(PAPI_LIFE_STAGE_NAMES, table_lifecycle);
    return &table;
}
