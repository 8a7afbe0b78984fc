/* preset_encode.c: PAPI_encode_events and PAPI_set_event_info, which redefine presets
 * at run time. The file format is the one papi_decode writes:
 *   name,derived,postfix,short_descr,long_descr,note,native[,native...]
 * (a title line, comment lines starting with '#' and blank lines are skipped). A file
 * is applied all or nothing. Descriptions are fixed per preset name in this library and
 * are read but not changed; the note is kept. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_native.h"
#include "preset_tables.h"

#define ENC_MAX_FIELDS (6 + PRESET_MAX_TERMS + 1)

static int catalog_index(const char *name)
{
    for (int i = 0; i < PAPI_END_idx; i++)
        if (strcmp(preset_catalog_name(i), name) == 0)
            return i;
    return -1;
}

static void free_defs(struct preset_def **defs)
{
    for (int i = 0; i < PAPI_END_idx; i++) {
        free(defs[i]);
        defs[i] = NULL;
    }
}

/* One record into s; returns a PAPI error with the reason in msg. */
static int parse_record(char **f, int nf, struct preset_src *s, char *msg, size_t msglen)
{
    if (nf < 7) {
        snprintf(msg, msglen,
                 "expected name,derived,postfix,short_descr,long_descr,note,native...; "
                 "got %d fields",
                 nf);
        return PAPI_EINVAL;
    }
    s->idx = catalog_index(f[0]);
    if (s->idx < 0) {
        snprintf(msg, msglen,
                 "'%.64s' is not a PAPI preset name (new preset names cannot be "
                 "added: the preset table has a fixed set of names)",
                 f[0]);
        return PAPI_ENOTPRESET;
    }
    if (preset_derive_from_name(f[1], &s->op) != PAPI_OK) {
        snprintf(msg, msglen, "unknown derivation type '%.64s'", f[1]);
        return PAPI_EINVAL;
    }
    if (s->op == DERIVE_POSTFIX && papi_strcpy(s->postfix, sizeof s->postfix, f[2])) {
        snprintf(msg, msglen, "postfix formula too long");
        return PAPI_EINVAL;
    }
    papi_strcpy(s->note, sizeof s->note, f[5]);
    while (nf > 6 && f[nf - 1][0] == '\0')
        nf--;
    s->nterms = nf - 6;
    if (s->nterms > PRESET_MAX_TERMS) {
        snprintf(msg, msglen, "too many native events (%d, at most %d)", s->nterms,
                 PRESET_MAX_TERMS);
        return PAPI_EINVAL;
    }
    for (int t = 0; t < s->nterms; t++)
        if (!f[6 + t][0] || papi_strcpy(s->native[t], sizeof s->native[t], f[6 + t])) {
            snprintf(msg, msglen, "native event %d is empty or too long", t);
            return PAPI_EINVAL;
        }
    return PAPI_OK;
}

static int encode_text(char *text, const char *path, struct preset_def **defs)
{
    char msg[PAPI_HUGE_STR_LEN];
    struct preset_src *s = calloc(1, sizeof *s);
    int lineno = 0, ret = PAPI_OK;
    char *save = NULL;
    if (!s)
        return papi_error(PAPI_ENOMEM, "no memory to read %s", path);
    /* strtok_r would merge empty lines; walk line by line to keep numbering exact. */
    for (char *line = text; line; line = save) {
        save = strpbrk(line, "\r\n");
        if (save) {
            if (save[0] == '\r' && save[1] == '\n')
                *save++ = '\0';
            *save++ = '\0';
        }
        lineno++;
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line || *line == '#')
            continue;
        char *f[ENC_MAX_FIELDS];
        int nf = preset_csv_split(line, f, ENC_MAX_FIELDS);
        if (nf < 0) {
            ret = papi_error(PAPI_EINVAL, "%s:%d: unbalanced quotes or too many fields", path,
                             lineno);
            goto out;
        }
        if (strcmp(f[0], "name") == 0)
            continue; /* title line */
        memset(s, 0, sizeof *s);
        s->line = lineno;
        ret = parse_record(f, nf, s, msg, sizeof msg);
        struct preset_def *d = NULL;
        if (ret == PAPI_OK) {
            d = calloc(1, sizeof *d);
            ret = d ? preset_build_def(s, preset_detected_cpu(), d, msg, sizeof msg) : PAPI_ENOMEM;
            if (!d)
                snprintf(msg, sizeof msg, "out of memory");
        }
        if (ret != PAPI_OK) {
            free(d);
            /* A native name that does not encode is an invalid field of the file. */
            ret =
                papi_error(ret == PAPI_ENOEVNT ? PAPI_EINVAL : ret, "%s:%d: %s", path, lineno, msg);
            goto out;
        }
        free(defs[s->idx]);
        defs[s->idx] = d;
    }
out:
    free(s);
    return ret;
}

int PAPI_encode_events(char *event_file, int replace)
{
    PAPI_CHECK_INIT();
    if (!event_file || !*event_file)
        return papi_error(PAPI_EINVAL, "event_file is NULL or empty");
    char why[PAPI_HUGE_STR_LEN];
    size_t n = 0;
    int ret = PAPI_OK;
    char *text = preset_read_file(event_file, &n, why, sizeof why);
    if (!text) /* errno: why open failed, or EINVAL for a file we refuse */
        return papi_error(errno == EINVAL ? PAPI_EINVAL : PAPI_ESYS, "PAPI_encode_events: %s", why);
    if (strlen(text) != n) {
        ret = papi_error(PAPI_EINVAL, "%s contains a NUL byte", event_file);
        goto out;
    }
    struct preset_def *defs[PAPI_END_idx] = {0};
    ret = encode_text(text, event_file, defs);
    if (ret == PAPI_OK)
        ret = preset_tables_install(defs, replace, event_file);
    if (ret != PAPI_OK)
        free_defs(defs);
out:
    free(text);
    return ret;
}

/* The native terms of info into s: by name, else by code (as PAPI_get_event_info fills
 * both). PAPI_OK or the error with its reason. */
static int src_terms(const PAPI_event_info_t *info, const char *symbol, struct preset_src *s)
{
    for (int t = 0; t < s->nterms; t++) {
        if (strnlen(info->name[t], sizeof info->name[t]) == sizeof info->name[t])
            return papi_error(PAPI_EINVAL, "%s: native name %d is not terminated", symbol, t);
        if (!papi_strcpy(s->native[t], sizeof s->native[t], info->name[t]) && s->native[t][0])
            continue;
        if (event_native_code_to_name((int)info->code[t], s->native[t], sizeof s->native[t]) !=
            PAPI_OK)
            return papi_error(PAPI_EINVAL, "%s: native term %d has neither a name nor a valid code",
                              symbol, t);
    }
    return PAPI_OK;
}

/* info's definition of the preset idx as a source entry s (what a CSV line gives):
 * PAPI_OK or the error with its reason. */
static int src_from_info(const PAPI_event_info_t *info, const char *symbol, int idx,
                         struct preset_src *s)
{
    s->idx = idx;
    char derived[PAPI_MIN_STR_LEN];
    papi_strcpy(derived, sizeof derived, info->derived);
    if (!derived[0])
        s->op = DERIVE_NONE;
    else if (preset_derive_from_name(derived, &s->op) != PAPI_OK)
        return papi_error(PAPI_EINVAL, "%s: unknown derivation type '%.64s'", symbol, derived);
    if (info->count < 1 || info->count > PRESET_MAX_TERMS)
        return papi_error(PAPI_EINVAL, "%s: count %u must be 1 to %d", symbol, info->count,
                          PRESET_MAX_TERMS);
    s->nterms = (int)info->count;
    if (s->op == DERIVE_POSTFIX && papi_strcpy(s->postfix, sizeof s->postfix, info->postfix))
        return papi_error(PAPI_EINVAL, "%s: postfix is not terminated", symbol);
    papi_strcpy(s->note, sizeof s->note, info->note);
    return src_terms(info, symbol, s);
}

/* The preset's index for info's symbol: PAPI_OK and *idx, or the error with its reason. */
static int info_preset_index(const PAPI_event_info_t *info, char *symbol, size_t len, int *idx)
{
    if (!IS_PRESET((int)info->event_code))
        return papi_error(PAPI_ENOEVNT,
                          "info->event_code 0x%x lacks PAPI_PRESET_MASK: only presets "
                          "can be defined",
                          info->event_code);
    if (strnlen(info->symbol, sizeof info->symbol) == sizeof info->symbol ||
        strnlen(info->postfix, sizeof info->postfix) == sizeof info->postfix ||
        strnlen(info->derived, sizeof info->derived) == sizeof info->derived ||
        strnlen(info->note, sizeof info->note) == sizeof info->note)
        return papi_error(PAPI_EINVAL, "a string field of info is not NUL-terminated");
    papi_strcpy(symbol, len, info->symbol);
    *idx = catalog_index(symbol);
    if (*idx < 0)
        return papi_error(PAPI_ENOTPRESET,
                          "'%.64s' is not a PAPI preset name (new preset names "
                          "cannot be added)",
                          symbol);
    return PAPI_OK;
}

int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace)
{
    PAPI_CHECK_INIT();
    if (!info || !EventCode)
        return papi_error(PAPI_EINVAL, "NULL info or EventCode pointer");
    char symbol[PAPI_HUGE_STR_LEN];
    int idx;
    int ret = info_preset_index(info, symbol, sizeof symbol, &idx);
    if (ret != PAPI_OK)
        return ret;
    struct preset_src *s = calloc(1, sizeof *s);
    struct preset_def *defs[PAPI_END_idx] = {0};
    char msg[PAPI_HUGE_STR_LEN];
    if (!s)
        return papi_error(PAPI_ENOMEM, "no memory");
    if ((ret = src_from_info(info, symbol, idx, s)) != PAPI_OK)
        goto out;
    defs[idx] = calloc(1, sizeof *defs[idx]);
    if (!defs[idx]) {
        ret = papi_error(PAPI_ENOMEM, "no memory");
        goto out;
    }
    ret = preset_build_def(s, preset_detected_cpu(), defs[idx], msg, sizeof msg);
    if (ret != PAPI_OK) {
        ret = papi_error(ret == PAPI_ENOEVNT ? PAPI_EINVAL : ret, "%s: %s", symbol, msg);
        goto out;
    }
    ret = preset_tables_install(defs, replace, "PAPI_set_event_info");
    if (ret == PAPI_OK) {
        defs[idx] = NULL;
        *EventCode = idx | PAPI_PRESET_MASK;
    }
out:
    free_defs(defs);
    free(s);
    return ret;
}
