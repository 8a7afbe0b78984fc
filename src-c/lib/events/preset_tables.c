/* preset_tables.c: the preset table in force. Loaded on first use from
 * PAPI_CSV_EVENT_FILE (or the 3.x name PAPI_PERFMON_EVENT_FILE), else from the built-in
 * papi_events.csv, choosing the tables named after the core PMU libpfm4 detects (or the
 * "generic" tables on perf's generic events when none is named so). A preset is
 * available when every native event opens here; each native is tried once through its
 * component (an event set context of its own) and the answer cached. Which PMU the
 * tables are for is the preset component's answer (component.h, preset_pmu): this
 * layer names no component.
 *
 * Definitions are never freed before shutdown: an event set keeps a pointer to the
 * definition it was built from, even after PAPI_encode_events replaces it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_room.h"
#include "env.h"
#include "registry.h"
#include "str_append.h"
#include "event_native.h"
#include "preset_tables.h"

#define GENERIC_TABLE  "generic"
#define MAX_OPEN_CACHE 1024

struct preset_slot {
    struct preset_def *def; /* NULL: no definition */
    int avail;              /* 0 not yet checked, 1 available, -1 not */
    char *reason;           /* why not (heap, whole, whatever its length), or NULL */
};

/* snprintf for messages that may be cut short (they are notes, not data). */
__attribute__((format(printf, 3, 4))) static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static void clear_reason(char **dst)
{
    free(*dst);
    *dst = NULL;
}

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;
static struct preset_slot slots[PAPI_END_idx];
static char *table_desc;          /* "built-in table 'skx'" for notes (heap, whole) */
static int generic_without_pmu;   /* no CPU PMU was found: the generic table applies */
static struct preset_def **owned; /* every definition ever installed */
static int nowned, owned_cap;
static struct {
    int code;
    int ok;
    char *why;
} open_cache[MAX_OPEN_CACHE];
static int nopen_cache;
/* The CPU the tables are chosen for: asked of the preset component once per
 * initialisation (a program may replay another machine after PAPI_shutdown, fsroot.h),
 * forgotten at shutdown. Its own lock: PAPI_encode_events asks without tables_lock. */
static pthread_mutex_t detect_lock = PTHREAD_MUTEX_INITIALIZER;
static char detected[PAPI_MIN_STR_LEN * 2];
static int detected_valid;
static int (*_Atomic running_query)(int code); /* preset_set_running_query */

void preset_set_running_query(int (*fn)(int code))
{
    atomic_store(&running_query, fn);
}

static void tables_lifecycle(const struct papi_life *ev);

const char *preset_detected_cpu(void)
{
    pthread_mutex_lock(&detect_lock);
    if (!detected_valid) {
        const struct papi_component *c = papi_components[PRESET_COMPONENT];
        const char *pmu = c->preset_pmu ? c->preset_pmu(c) : NULL;
        papi_strcpy(detected, sizeof detected, pmu ? pmu : "");
        detected_valid = 1;
        papi_lifecycle_register(PAPI_LIFE_STAGE_NAMES, tables_lifecycle);
    }
    pthread_mutex_unlock(&detect_lock);
    return detected[0] ? detected : NULL;
}

static int own(struct preset_def *d)
{
    struct preset_def **n = array_room(owned, nowned, &owned_cap, sizeof *n, 128);
    if (!n)
        return PAPI_ENOMEM;
    owned = n;
    owned[nowned++] = d;
    return PAPI_OK;
}

int preset_build_def(const struct preset_src *s, const char *pmu, struct preset_def *def, char *err,
                     size_t errlen)
{
    int r = preset_src_check(s, err, errlen);
    if (r != PAPI_OK)
        return r;
    memset(def, 0, sizeof *def);
    def->op = s->op;
    def->nterms = s->nterms;
    for (int t = 0; t < s->nterms; t++) {
        char name[PAPI_HUGE_STR_LEN];
        if (pmu && !strstr(s->native[t], "::"))
            say(name, sizeof name, "%s::%s", pmu, s->native[t]);
        else
            papi_strcpy(name, sizeof name, s->native[t]);
        if (event_native_name_to_code(name, &def->native_code[t]) != PAPI_OK) {
            say(err, errlen, "native event '%s' does not encode: %s", name,
                papi_last_error_detail());
            return PAPI_ENOEVNT;
        }
    }
    if (s->op == DERIVE_POSTFIX) {
        r = preset_rpn_compile(s->postfix, s->nterms, def, err, errlen);
        if (r != PAPI_OK)
            return r;
    }
    papi_strcpy(def->note, sizeof def->note, s->note);
    return PAPI_OK;
}

/* Preset files are small (the full papi_events.csv is ~150 KB); this bound rejects
 * anything else before it costs memory or time. */
#define PRESET_FILE_MAX ((size_t)64 << 20)

char *preset_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    char *buf = NULL;
    size_t n = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        say(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        say(err, errlen, "%s: not a regular file", path);
        goto fail;
    }
    if ((unsigned long long)st.st_size > PRESET_FILE_MAX) {
        say(err, errlen, "%s: larger than 64 MiB (%lld bytes)", path, (long long)st.st_size);
        goto fail;
    }
    size_t cap = (size_t)st.st_size + 2; /* +1 for the NUL, +1: a growing file is seen */
    buf = malloc(cap);
    if (!buf) {
        say(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    /* stdio from here: plain read() on descriptors is the perf_event component's alone
     * (tests/layers), and fread retries short reads and EINTR itself. */
    FILE *f = fdopen(fd, "r");
    if (!f) {
        say(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        goto fail;
    }
    n = fread(buf, 1, cap - 1, f);
    int bad = ferror(f);
    fclose(f); /* closes fd */
    if (bad || n == cap - 1) {
        say(err, errlen, bad ? "%s: read error" : "%s: changed size while it was read", path);
        free(buf);
        errno = EINVAL;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    close(fd);
    free(buf);
    errno = EINVAL;
    return NULL;
}

/* Build every definition of l; strict: any failure rejects all (user files), else a
 * failing definition only makes its preset unavailable (the built-in table may name an
 * event an older libpfm4 does not know). Caller holds tables_lock; slots are empty. */
static int load_list(const struct preset_src_list *l, const char *pmu, const char *origin,
                     int strict, char *err, size_t errlen)
{
    struct preset_def *defs[PAPI_END_idx] = {0};
    char why[PAPI_HUGE_STR_LEN];
    int ret = PAPI_OK;
    for (int i = 0; i < l->count; i++) {
        const struct preset_src *s = &l->v[i];
        struct preset_def *d = calloc(1, sizeof *d);
        if (!d) {
            ret = PAPI_ENOMEM;
            say(err, errlen, "%s: out of memory", origin);
            goto fail;
        }
        int r = preset_build_def(s, pmu, d, why, sizeof why);
        if (r != PAPI_OK) {
            free(d);
            if (strict) {
                ret = r;
                say(err, errlen, "%s:%d: %s", origin, s->line, why);
                goto fail;
            }
            free(defs[s->idx]);
            defs[s->idx] = NULL;
            str_setf(&slots[s->idx].reason, "%s:%d: %s", origin, s->line, why);
            continue;
        }
        free(defs[s->idx]); /* a later table overrides */
        defs[s->idx] = d;
        clear_reason(&slots[s->idx].reason);
    }
    for (int i = 0; i < PAPI_END_idx; i++)
        if (defs[i]) {
            if (own(defs[i]) != PAPI_OK) {
                ret = PAPI_ENOMEM;
                say(err, errlen, "%s: out of memory", origin);
                goto fail;
            }
            slots[i].def = defs[i];
            defs[i] = NULL;
        }
    return PAPI_OK;
fail:
    for (int i = 0; i < PAPI_END_idx; i++) {
        free(defs[i]);
        slots[i].def = NULL;
        clear_reason(&slots[i].reason);
    }
    return ret;
}

static int count_locked(void);

/* Into the description PAPI_get_component_info returned (the registry also asks
 * preset_defined_count when it refreshes it, after a forked child's init). */
static void publish_count_locked(void)
{
    g_papi.cmp[PRESET_COMPONENT].num_preset_events = count_locked();
}

static void load_locked(void)
{
    if (loaded)
        return;
    loaded = 1;
    papi_lifecycle_register(PAPI_LIFE_STAGE_NAMES, tables_lifecycle);
    const char *path = env_get("PAPI_CSV_EVENT_FILE");
    const char *var = "PAPI_CSV_EVENT_FILE";
    if (!path || !*path) {
        path = env_get("PAPI_PERFMON_EVENT_FILE");
        var = "PAPI_PERFMON_EVENT_FILE";
    }
    if (path && !*path)
        path = NULL;
    const char *cpu = preset_detected_cpu();
    char err[16384] = ""; /* a path of up to PATH_MAX and the parser's words: whole */
    struct preset_src_list l;
    char *text = NULL;
    size_t len = 0;
    const char *origin = "papi_events.csv (built in)";
    int ret;

    if (path) {
        origin = path;
        text = preset_read_file(path, &len, err, sizeof err);
        ret = text ? preset_csv_parse(text, len, path, cpu, GENERIC_TABLE, &l, err, sizeof err)
                   : PAPI_ESYS;
    } else {
        ret = preset_csv_parse_builtin(preset_builtin_csv, preset_builtin_csv_len, origin, cpu,
                                       GENERIC_TABLE, &l, err, sizeof err);
    }
    free(text);
    if (ret == PAPI_OK) {
        /* Unqualified names belong to the PMU the table was chosen for. */
        int own_table = cpu && l.matched_tables > 0 && !l.fallback_used;
        const char *pmu = own_table ? cpu : NULL;
        ret = load_list(&l, pmu, origin, path != NULL, err, sizeof err);
        if (!l.matched_tables)
            str_setf(&table_desc, "%s %s: it has no table for CPU '%s' nor '%s'",
                     path ? "file" : "built-in", path ? path : "papi_events.csv",
                     cpu ? cpu : "(none detected)", GENERIC_TABLE);
        generic_without_pmu = !cpu && l.matched_tables > 0;
        if (l.matched_tables)
            str_setf(&table_desc, "table '%s' of the %s %s", l.fallback_used ? GENERIC_TABLE : cpu,
                     path ? "file" : "built-in", path ? path : "papi_events.csv");
        preset_src_list_free(&l);
    }
    if (ret != PAPI_OK) {
        /* A rejected file defines nothing; say why in every preset's note. */
        for (int i = 0; i < PAPI_END_idx; i++)
            str_setf(&slots[i].reason, "%s rejected: %s", path ? var : "built-in table", err);
        str_setf(&table_desc, "rejected: %s", err);
        return;
    }
    publish_count_locked();
}

/* Does native code open on this machine (its component adds it to a set of its own,
 * counted in the user domain)? Cached per code; *why is the whole reason (cached, or
 * NULL when out of memory) when it does not. */
static int native_opens(int code, const char **why)
{
    for (int i = 0; i < nopen_cache; i++)
        if (open_cache[i].code == code) {
            *why = open_cache[i].why;
            return open_cache[i].ok;
        }
    char name[PAPI_2MAX_STR_LEN] = "?", *reason = NULL;
    event_native_code_to_name(code, name, sizeof name);
    struct papi_component *cmp = event_component_of(code);
    struct cmp_target t = {.domain = PAPI_DOM_USER, .granularity = PAPI_GRN_THR, .cpu = -1};
    struct cmp_context *ctx = NULL;
    int slot, ok = 0;
    if (!cmp) {
        str_setf(&reason, "native event 0x%x has no component", (unsigned)code);
    } else if (cmp->ctx_create(cmp, &t, &ctx) != PAPI_OK ||
               cmp->add(ctx, cmp_local(code), &slot) != PAPI_OK) {
        str_setf(&reason, "native event %s does not open here: %s", name, papi_last_error_detail());
    } else {
        ok = 1;
    }
    if (cmp)
        cmp->ctx_destroy(ctx);
    *why = reason;
    if (nopen_cache < MAX_OPEN_CACHE) {
        open_cache[nopen_cache].code = code;
        open_cache[nopen_cache].ok = ok;
        open_cache[nopen_cache].why = reason;
        nopen_cache++;
    } else {
        /* Not cached: the slot keeps its own copy below, this one is dropped. */
        static _Thread_local char *last;
        free(last);
        last = reason;
    }
    return ok;
}

static void check_avail_locked(int idx)
{
    struct preset_slot *s = &slots[idx];
    if (s->avail || !s->def)
        return;
    s->avail = 1;
    for (int t = 0; t < s->def->nterms; t++) {
        const char *why = NULL;
        if (!native_opens(s->def->native_code[t], &why)) {
            s->avail = -1;
            str_setf(&s->reason, "%s", why ? why : "out of memory for the reason");
            return;
        }
    }
}

const struct preset_def *preset_tables_get(int idx)
{
    if (idx < 0 || idx >= PAPI_END_idx)
        return NULL;
    pthread_mutex_lock(&tables_lock);
    load_locked();
    check_avail_locked(idx);
    const struct preset_def *d = slots[idx].avail > 0 ? slots[idx].def : NULL;
    pthread_mutex_unlock(&tables_lock);
    return d;
}

int preset_unavailable_error(int code, const char *name)
{
    const char *r = preset_tables_unavailable_reason(code & PAPI_PRESET_AND_MASK);
    if (r && strncmp(r, "not available: ", 15) == 0)
        r += 15;
    return papi_error(PAPI_ENOEVNT, "preset %s is not available on this machine%s%s", name,
                      r && *r ? ": " : "", r ? r : "");
}

/* The whole reason, in this thread's buffer (valid until its next call). */
int preset_tables_defined(int idx)
{
    if (idx < 0 || idx >= PAPI_END_idx)
        return 0;
    pthread_mutex_lock(&tables_lock);
    load_locked();
    int defined = slots[idx].def != NULL;
    pthread_mutex_unlock(&tables_lock);
    return defined;
}

const char *preset_tables_unavailable_reason(int idx)
{
    static _Thread_local char *buf;
    if (idx < 0 || idx >= PAPI_END_idx)
        return "not a preset";
    pthread_mutex_lock(&tables_lock);
    load_locked();
    check_avail_locked(idx);
    if (slots[idx].reason)
        str_setf(&buf, "not available: %s", slots[idx].reason);
    else if (!slots[idx].def && generic_without_pmu)
        /* The cause is the missing PMU, not the table: say it first. */
        str_setf(&buf,
                 "not available: no CPU PMU was found here (PAPI_get_component_reason"
                 "(0) says why), and the %s, which applies without one, does not "
                 "define it",
                 table_desc ? table_desc : "table");
    else if (!slots[idx].def)
        str_setf(&buf, "not available: no definition in the %s", table_desc ? table_desc : "table");
    else
        str_setf(&buf, "%s", "");
    pthread_mutex_unlock(&tables_lock);
    return buf ? buf : "not available (no memory to say why)";
}

int preset_tables_install(struct preset_def *const *defs, int replace, const char *origin)
{
    int ret = PAPI_OK;
    pthread_mutex_lock(&tables_lock);
    load_locked();
    for (int i = 0; i < PAPI_END_idx; i++) {
        if (!defs[i])
            continue;
        if (slots[i].def && !replace) {
            ret = papi_error(PAPI_EPERM, "%s: %s is already defined; pass replace=1 to redefine it",
                             origin, preset_catalog_name(i));
            goto out;
        }
        int (*query)(int) = atomic_load(&running_query);
        int h = query ? query(i | PAPI_PRESET_MASK) : -1;
        if (h >= 0) {
            ret = papi_error(PAPI_EISRUN, "%s: %s is in running EventSet %d; stop it first", origin,
                             preset_catalog_name(i), h);
            goto out;
        }
    }
    if (owned_cap - nowned < PAPI_END_idx) { /* reserve room so the swap cannot fail */
        int ncap = nowned + PAPI_END_idx + 128;
        struct preset_def **n = realloc(owned, (size_t)ncap * sizeof *n);
        if (!n) {
            ret = papi_error(PAPI_ENOMEM, "no memory to install preset definitions");
            goto out;
        }
        owned = n;
        owned_cap = ncap;
    }
    for (int i = 0; i < PAPI_END_idx; i++) {
        if (!defs[i])
            continue;
        owned[nowned++] = defs[i];
        slots[i].def = defs[i];
        slots[i].avail = 0;
        clear_reason(&slots[i].reason);
    }
    publish_count_locked();
out:
    pthread_mutex_unlock(&tables_lock);
    return ret;
}

static int count_locked(void)
{
    int n = 0;
    if (loaded)
        for (int i = 0; i < PAPI_END_idx; i++)
            n += slots[i].def != NULL;
    return n;
}

int preset_defined_count(void)
{
    pthread_mutex_lock(&tables_lock);
    int n = count_locked();
    pthread_mutex_unlock(&tables_lock);
    return n;
}

static void tables_shutdown(void)
{
    pthread_mutex_lock(&tables_lock);
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    free(owned);
    owned = NULL;
    nowned = owned_cap = 0;
    for (int i = 0; i < PAPI_END_idx; i++)
        free(slots[i].reason);
    memset(slots, 0, sizeof slots);
    for (int i = 0; i < nopen_cache; i++)
        free(open_cache[i].why);
    nopen_cache = 0;
    loaded = 0;
    generic_without_pmu = 0;
    clear_reason(&table_desc);
    pthread_mutex_unlock(&tables_lock);
    pthread_mutex_lock(&detect_lock);
    detected_valid = 0; /* the next initialisation may describe another machine */
    pthread_mutex_unlock(&detect_lock);
}

/* The library's lifecycle (papi_sdk.h): the tables go at shutdown, except in a forked
 * child, which keeps its parent's (they describe the same machine). */
static void tables_lifecycle(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN && !ev->keep_machine)
        tables_shutdown();
}
