/* ompt_names.c: a parallel region's name, line and site (ompt_names.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "demangle.h"
#include "json_writer.h"
#include "ompt_names.h"

#define OUTLINED_MAX 256 /* gcc's outlined regions of one function looked at */

/* gcc outlines a region's body in function F as F._omp_fn.N, whose entry is on the
 * directive's line; F's call that forks it (the code address) may have the line of the
 * statement before it (no row of its own: NPB EP's directive at ep.c:110 read ep.c:108
 * at -O2), or at -O2 wherever its scheduler put it. The outlined function the call
 * passes, where DWARF's call site says it (gcc -O2 -g); else (-O0: no call sites) the
 * nearest entry line of F's outlined functions in the same file at or after the call's
 * (kept where one is on it, or none is after it). */
static void directive_line(struct symbolizer *sym, uintptr_t address, const struct sym_where *w,
                           struct ompt_name *n)
{
    char prefix[SYM_NAME_LEN + 16];
    const char *f =
        w->depth > 0 && w->inlined[0] ? (w->linkage[0] ? w->linkage : w->scope[0]) : w->symbol;
    if (!f[0] || !n->file[0] || n->line <= 0)
        return;
    snprintf(prefix, sizeof prefix, "%s._omp_fn.", f);
    uintptr_t passed;
    struct sym_where e;
    if (sym_call_address_argument(sym, address, &passed) == 0 && sym_lookup(sym, passed, &e) == 0 &&
        strncmp(e.symbol, prefix, strlen(prefix)) == 0 && e.line > 0 &&
        strcmp(e.file, n->file) == 0) {
        n->line = e.line;
        return;
    }
    uintptr_t entry[OUTLINED_MAX];
    int k = sym_functions_prefixed(sym, address - 1, prefix, entry, OUTLINED_MAX);
    int best = 0;
    for (int i = 0; i < k && i < OUTLINED_MAX; i++) {
        if (sym_lookup(sym, entry[i], &e) != 0 || strcmp(e.file, n->file) != 0 || e.line < n->line)
            continue;
        if (e.line == n->line)
            return;
        if (best == 0 || e.line < best)
            best = e.line;
    }
    if (best)
        n->line = best;
}

/* The inlined calls that lead to the code, innermost first. */
static void inline_site(const struct sym_where *w, char *site, size_t len)
{
    size_t used = 0;
    site[0] = '\0';
    for (int i = 0; i + 1 < w->depth && w->inlined[i] && used < len; i++) {
        int k =
            snprintf(site + used, len - used, "%s%s (%s:%d)", used ? " < " : "", w->scope[i + 1],
                     w->call_file[i][0] ? w->call_file[i] : "??", w->call_line[i]);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* The objects opened alone (ompt_regions.h's slots), each once for the run: the names'
 * module paths point into them. */
static struct symbolizer *opened[OMPT_OBJECTS_MAX];
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;

/* The object file a region's code lay in when that object is no longer where it was (a
 * library the program unloaded: issue 69 N9), opened alone, and *at the code address as
 * its file address; NULL where its object is still loaded or none was kept. */
static struct symbolizer *unloaded_object(uintptr_t address, uintptr_t *at)
{
    const char *path;
    char now[OMPT_OBJECT_PATH];
    uintptr_t kept, now_at;
    int k = ompt_region_object(address, &path, &kept);
    if (k < 0 || (sym_object_of(address - 1, now, sizeof now, &now_at) == 0 &&
                  strcmp(now, path) == 0 && now_at + 1 == kept))
        return NULL;
    pthread_mutex_lock(&opened_lock);
    if (!opened[k])
        opened[k] = sym_open_object(path);
    struct symbolizer *s = opened[k];
    pthread_mutex_unlock(&opened_lock);
    *at = kept;
    return s;
}

void ompt_name_of(struct symbolizer *sym, uintptr_t address, struct ompt_name *n)
{
    struct sym_where w;
    char plain[SYM_NAME_LEN];
    memset(n, 0, sizeof *n);
    n->address = address;
    uintptr_t at = address; /* the code address in sym's terms */
    struct symbolizer *object = sym ? unloaded_object(address, &at) : NULL;
    sym = object ? object : sym;
    n->found = address != OMPT_REGION_NO_ADDRESS && sym && sym_lookup(sym, at - 1, &w) == 0;
    if (!n->found) {
        snprintf(n->name, sizeof n->name,
                 address == OMPT_REGION_NO_ADDRESS ? "(no code address)" : "0x%lx",
                 (unsigned long)address);
        return;
    }
    /* an ELF symbol as the source reads it (flang's _QQmain) */
    papi_demangle(w.symbol, plain, sizeof plain);
    snprintf(n->function, sizeof n->function, "%s", w.depth > 0 ? w.scope[0] : plain);
    snprintf(n->file, sizeof n->file, "%s", w.file);
    n->line = w.line;
    n->module = w.module;
    n->offset = at - w.module_start;
    directive_line(sym, at, &w, n);
    inline_site(&w, n->site, sizeof n->site);
    const char *fn = n->function[0] ? n->function : "??";
    if (n->file[0])
        snprintf(n->name, sizeof n->name, "%s (%s:%d)", fn, n->file, n->line);
    else
        snprintf(n->name, sizeof n->name, "%s", fn);
}

void ompt_names_apart(struct ompt_name *v, int n)
{
    char alike[n > 0 ? n : 1];
    memset(alike, 0, sizeof alike);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (v[i].found && v[j].found && v[i].address != v[j].address &&
                strcmp(v[i].site, v[j].site) == 0 && strcmp(v[i].name, v[j].name) == 0)
                alike[i] = alike[j] = 1;
    for (int i = 0; i < n; i++) {
        if (!alike[i])
            continue;
        const char *base = v[i].module ? strrchr(v[i].module, '/') : NULL;
        base = base ? base + 1 : v[i].module ? v[i].module : "??";
        size_t used = strlen(v[i].site);
        snprintf(v[i].site + used, sizeof v[i].site - used, "%s%s+0x%lx", used ? ", " : "", base,
                 (unsigned long)v[i].offset);
    }
}

void ompt_name_put(struct jw *w, const struct ompt_name *n)
{
    jw_str(w, "name", n->name);
    jw_str(w, "function", n->function);
    jw_str(w, "file", n->file);
    jw_int(w, "line", n->line);
    jw_str(w, "module", n->module ? n->module : "");
    if (n->address != OMPT_REGION_NO_ADDRESS)
        jw_hex(w, "address", n->address);
    jw_str(w, "site", n->site);
}
