/* sysfs_encode.c: encode native event names against the kernel's sysfs PMU description
 * (names in sysfs_encode.h). Every field is checked against the PMU's format/ files: a
 * value that does not fit its bits, or a field the PMU does not have, is refused with
 * the reason, never silently truncated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str_append.h"
#include "sysfs_encode.h"
#include "sysfs_pmus.h"

__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

static unsigned digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return (unsigned)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (unsigned)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (unsigned)(c - 'A' + 10);
    return 16;
}

/* A term's value as perf reads one (its event lexer: decimal digits, or "0x" and hex
 * digits): no sign, no space, no octal ("010" is ten), nothing wider than 64 bits. */
static int parse_value(const char *s, size_t n, uint64_t *v)
{
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && s[1] == 'x') {
        base = 16;
        s += 2;
        n -= 2;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned dv = digit_value(s[i]);
        if (dv >= base || x > (UINT64_MAX - dv) / base)
            return -1;
        x = x * base + dv;
    }
    *v = x;
    return n ? 0 : -1;
}

/* Put v into the bits of format f; -1 when it does not fit. */
static int deposit(const struct sysfs_format *f, uint64_t v, uint64_t config[3])
{
    for (int r = 0; r < f->nranges; r++) {
        int w = f->hi[r] - f->lo[r] + 1;
        uint64_t part = w == 64 ? v : v & ((UINT64_C(1) << w) - 1);
        uint64_t mask = w == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << w) - 1) << f->lo[r];
        config[f->config] = (config[f->config] & ~mask) | (part << f->lo[r]);
        v = w == 64 ? 0 : v >> w;
    }
    return v ? -1 : 0;
}

static void describe_bits(const struct sysfs_format *f, char *out, size_t len)
{
    snprintf(out, len, "config%s:", f->config ? (f->config == 1 ? "1" : "2") : "");
    for (int r = 0; r < f->nranges; r++)
        str_appendf(out, len, f->lo[r] == f->hi[r] ? "%s%d" : "%s%d-%d", r ? "," : "", f->lo[r],
                    f->hi[r]);
}

/* One "field=value" term (n bytes) into enc. */
static int apply_term(const struct sysfs_pmu *pmu, const char *t, size_t n,
                      struct sysfs_encoding *enc, char *why, size_t whylen)
{
    const char *eq = memchr(t, '=', n);
    if (!eq)
        return fail(why, whylen, "'%.*s' is not field=value", (int)n, t);
    size_t fl = (size_t)(eq - t);
    uint64_t v;
    if (parse_value(eq + 1, n - fl - 1, &v) != 0)
        return fail(why, whylen, "'%.*s': the value must be a number (decimal or 0x hexadecimal)",
                    (int)n, t);
    char field[SYSFS_NAME_LEN];
    if (fl == 0 || fl >= sizeof field)
        return fail(why, whylen, "'%.*s': no field name", (int)n, t);
    memcpy(field, t, fl);
    field[fl] = '\0';
    const struct sysfs_format *f = sysfs_pmu_format(pmu, field);
    if (f) {
        if (deposit(f, v, enc->config) != 0) {
            char bits[64];
            describe_bits(f, bits, sizeof bits);
            return fail(why, whylen,
                        "value 0x%llx of field '%s' does not fit its bits (%s) on PMU %s",
                        (unsigned long long)v, field, bits, pmu->name);
        }
        return 0;
    }
    static const char *const words[] = {"config", "config1", "config2"};
    for (int w = 0; w < 3; w++)
        if (strcmp(field, words[w]) == 0) {
            enc->config[w] = v;
            return 0;
        }
    char known[512] = "";
    for (int i = 0; i < pmu->nformats; i++)
        str_appendf(known, sizeof known, "%s%s", i ? ", " : "", pmu->fmt[i].name);
    return fail(why, whylen, "PMU %s has no field '%s' (its format/ lists: %s)", pmu->name, field,
                known[0] ? known : "none");
}

static int apply_terms(const struct sysfs_pmu *pmu, const char *s, size_t n,
                       struct sysfs_encoding *enc, char *why, size_t whylen)
{
    while (n) {
        const char *comma = memchr(s, ',', n);
        size_t tn = comma ? (size_t)(comma - s) : n;
        if (apply_term(pmu, s, tn, enc, why, whylen) != 0)
            return -1;
        if (!comma)
            break;
        n -= tn + 1;
        s = comma + 1;
    }
    return 0;
}

static int parse_mods(const char *mods, int *plm, char *why, size_t whylen)
{
    *plm = 0;
    for (const char *p = mods; p && *p;) {
        p++; /* the ':' */
        size_t n = strcspn(p, ":");
        if (n == 1 && (*p == 'u' || *p == 'k' || *p == 'h'))
            *plm |= *p == 'u' ? SYSFS_PLM_USER : *p == 'k' ? SYSFS_PLM_KERNEL : SYSFS_PLM_HV;
        else
            return fail(why, whylen, "unknown modifier ':%.*s' (sysfs events take :u, :k, :h)",
                        (int)n, p);
        p += n;
    }
    return 0;
}

int sysfs_encode(const char *name, struct sysfs_encoding *enc, char *why, size_t whylen)
{
    memset(enc, 0, sizeof *enc);
    enc->event = -1;
    const char *sep = strstr(name, "::");
    if (!sep || sep == name)
        return fail(why, whylen, "no PMU: sysfs names are <pmu>::<event>");
    char pmu_name[SYSFS_NAME_LEN];
    size_t pl = (size_t)(sep - name);
    if (pl >= sizeof pmu_name)
        return fail(why, whylen, "no PMU called '%.*s'", (int)pl, name);
    memcpy(pmu_name, name, pl);
    pmu_name[pl] = '\0';
    const struct sysfs_pmu *pmu = sysfs_pmu_find(pmu_name, &enc->pmu);
    if (!pmu)
        return fail(why, whylen, "no PMU called '%s' under %s", pmu_name, SYSFS_PMU_DIR);
    enc->type = pmu->type;
    const char *body = sep + 2;
    const char *mods = strchr(body, ':');
    size_t bl = mods ? (size_t)(mods - body) : strlen(body);
    if (bl == 0)
        return fail(why, whylen, "no event after '%s::'", pmu_name);
    if (parse_mods(mods, &enc->plm, why, whylen) != 0)
        return -1;
    if (memchr(body, '=', bl))
        return apply_terms(pmu, body, bl, enc, why, whylen);
    char ev[SYSFS_NAME_LEN];
    if (bl < sizeof ev) {
        memcpy(ev, body, bl);
        ev[bl] = '\0';
        const struct sysfs_event *e = sysfs_pmu_event(pmu, ev, &enc->event);
        if (e) {
            if (strchr(e->spec, '?'))
                return fail(why, whylen, "%s::%s needs a parameter (%s): give its fields instead",
                            pmu_name, ev, e->spec);
            return apply_terms(pmu, e->spec, strlen(e->spec), enc, why, whylen);
        }
        if (ev[0] == 'r' && bl > 1 && strspn(ev + 1, "0123456789abcdefABCDEF") == bl - 1) {
            char hex[SYSFS_NAME_LEN + 2];
            snprintf(hex, sizeof hex, "0x%s", ev + 1);
            return parse_value(hex, strlen(hex), &enc->config[0]) == 0
                       ? 0
                       : fail(why, whylen, "'%s': raw value wider than 64 bits", ev);
        }
    }
    return fail(why, whylen,
                "PMU %s has no event '%.*s' (%d named events; raw form: "
                "%s::event=0x..,umask=0x.. or %s::r<hex>)",
                pmu_name, (int)bl, body, pmu->nevents, pmu_name, pmu_name);
}
