/* frame_names.c: addresses of this process named at exit by the one symbolizer
 * (src-c/sampling/symbolizer.c: libdw, the modules from /proc/self/maps, the function from
 * the symbol table, file:line and inlined functions from DWARF when present, names
 * demangled: C++, gfortran's __mod_MOD_proc as mod::proc). A frame's name is its function
 * followed by the functions inlined there (the folded format's frames); a module without
 * symbols (stripped) gives module+0xOFFSET and one note. Each address is named once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "frame_names.h"
#include "symbolizer.h"

struct entry {
    uint64_t addr; /* 0: empty */
    size_t index;  /* into frame[] */
};

struct frame_names {
    struct symbolizer *sym;
    struct entry *e;
    size_t n, size; /* open addressing, size a power of two */
    struct frame_name *frame;
    size_t fcap;
    char notes[1024];
};

struct frame_names *frame_names_open(void)
{
    struct frame_names *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = 1024;
    s->e = calloc(s->size, sizeof *s->e);
    s->sym = sym_open_process();
    if (!s->e || !s->sym) {
        frame_names_close(s);
        return NULL;
    }
    if (strcmp(sym_how(s->sym), "libdw") != 0)
        snprintf(s->notes, sizeof s->notes, "%s", sym_how(s->sym));
    return s;
}

void frame_names_close(struct frame_names *s)
{
    if (!s)
        return;
    sym_close(s->sym);
    for (size_t i = 0; s->frame && i < s->n; i++) {
        free((char *)s->frame[i].name);
        free((char *)s->frame[i].file);
    }
    free(s->frame);
    free(s->e);
    free(s);
}

const char *frame_names_notes(const struct frame_names *s)
{
    return s ? s->notes : "";
}

static void note_once(struct frame_names *s, const char *text)
{
    if (strstr(s->notes, text))
        return;
    size_t n = strlen(s->notes);
    snprintf(s->notes + n, sizeof s->notes - n, "%s%s", n ? "; " : "", text);
}

/* The base name of a module's path (the symbolizer's string: alive as long as s). */
static const char *module_name(const char *path)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path;
    return base ? base : "[unknown]";
}

static void separators_out(char *name)
{
    for (char *c = name; *c; c++) /* the folded format's separators stay separators */
        if (*c == ';' || *c == '\t' || *c == '\n')
            *c = ':';
}

/* The function's name, then each function inlined at the address, outermost first, as
 * ";name" (the folded format's frames: the function the code was inlined into stays the
 * caller). */
static void frame_name(const struct sym_where *w, char *buf, size_t len)
{
    papi_demangle(w->symbol, buf, len);
    separators_out(buf);
    for (int i = w->depth - 1; i >= 0; i--) {
        if (!w->inlined[i])
            continue;
        char one[SYM_NAME_LEN];
        snprintf(one, sizeof one, "%s", w->scope[i]);
        separators_out(one);
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, ";%s", one);
    }
}

static void resolve(struct frame_names *s, uint64_t addr, struct frame_name *f)
{
    char buf[1024];
    if (addr == 0 || addr == FRAME_KERNEL) {
        f->name = strdup(addr ? "[kernel]" : "[unknown]");
        f->module = addr ? "[kernel]" : "[unknown]";
        return;
    }
    struct sym_where w;
    int found = sym_lookup(s->sym, (uintptr_t)addr, &w) == 0;
    f->module = module_name(found ? w.module : NULL);
    if (found && w.file[0]) {
        f->file = strdup(w.file);
        f->line = w.line;
    }
    if (found && w.symbol[0]) {
        frame_name(&w, buf, sizeof buf);
    } else {
        snprintf(buf, sizeof buf, "%s+0x%llx", f->module,
                 (unsigned long long)(addr - (found ? w.module_start : 0)));
        if (found && w.module_functions == 0) { /* (between functions, a PLT stub: no note) */
            char text[300];
            snprintf(text, sizeof text,
                     "no symbols in %.200s (stripped): its frames are "
                     "module+0xOFFSET",
                     f->module);
            note_once(s, text);
        }
    }
    f->name = strdup(buf);
}

static int grow(struct frame_names *s)
{
    size_t size = s->size * 2;
    struct entry *e = calloc(size, sizeof *e);
    if (!e)
        return -1;
    for (size_t i = 0; i < s->size; i++)
        if (s->e[i].addr) {
            size_t b = (s->e[i].addr * 0x9E3779B97F4A7C15ULL >> 20) & (size - 1);
            while (e[b].addr)
                b = (b + 1) & (size - 1);
            e[b] = s->e[i];
        }
    free(s->e);
    s->e = e;
    s->size = size;
    return 0;
}

size_t frame_names_count(const struct frame_names *s)
{
    return s->n;
}

const struct frame_name *frame_names_get(const struct frame_names *s, size_t index)
{
    return &s->frame[index];
}

long frame_names_index(struct frame_names *s, uint64_t addr)
{
    if (2 * (s->n + 1) > s->size && grow(s) != 0)
        return -1;
    if (s->n == s->fcap) {
        size_t cap = s->fcap ? 2 * s->fcap : 1024;
        struct frame_name *f = realloc(s->frame, cap * sizeof *f);
        if (!f)
            return -1;
        s->frame = f;
        s->fcap = cap;
    }
    size_t b = (addr * 0x9E3779B97F4A7C15ULL >> 20) & (s->size - 1);
    while (s->e[b].addr && s->e[b].addr != addr)
        b = (b + 1) & (s->size - 1);
    struct entry *e = &s->e[b];
    if (!e->addr) {
        struct frame_name *f = &s->frame[s->n];
        memset(f, 0, sizeof *f);
        resolve(s, addr, f);
        if (!f->name) {
            free((char *)f->file);
            return -1;
        }
        e->addr = addr;
        e->index = s->n++;
    }
    return (long)e->index;
}
