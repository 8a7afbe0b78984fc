/* run_sample_symbols.c: addresses of this process named at exit through libdw (elfutils):
 * the modules from /proc/self/maps (the program and its shared libraries alike), the
 * function from the symbol table, file:line from DWARF when present. Names are demangled
 * by the shared demangler (src-c/common/demangle.c: C++ through the C++ runtime,
 * gfortran's __mod_MOD_proc as mod::proc). A module without symbols
 * (stripped) gives module+0xOFFSET and one note. Each address is looked up once. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "run_sample.h"

struct entry {
    uint64_t addr; /* 0: empty */
    size_t index;  /* into frame[] */
};

/* A module's functions sorted by address: libdw's own lookup scans the whole symbol
 * table for each address, far too slow for 100,000 stacks. */
struct fsym {
    GElf_Addr lo, hi;
    const char *name; /* libdw's, alive as long as the Dwfl */
};

struct modsyms {
    Dwfl_Module *m;
    struct fsym *sym;
    size_t n;
};

struct rs_syms {
    Dwfl *dwfl;
    struct modsyms *mod;
    size_t nmod;
    struct entry *e;
    size_t n, size; /* open addressing, size a power of two */
    struct rs_frame *frame;
    size_t fcap;
    char notes[1024];
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

struct rs_syms *rs_syms_open(void)
{
    struct rs_syms *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = 1024;
    s->e = calloc(s->size, sizeof *s->e);
    s->dwfl = dwfl_begin(&callbacks);
    if (!s->e || !s->dwfl) {
        rs_syms_close(s);
        return NULL;
    }
    dwfl_report_begin(s->dwfl);
    if (dwfl_linux_proc_report(s->dwfl, getpid()) != 0)
        snprintf(s->notes, sizeof s->notes, "the process's maps could not be read: %s",
                 dwfl_errmsg(-1));
    dwfl_report_end(s->dwfl, NULL, NULL);
    return s;
}

void rs_syms_close(struct rs_syms *s)
{
    if (!s)
        return;
    if (s->dwfl)
        dwfl_end(s->dwfl);
    for (size_t i = 0; s->frame && i < s->n; i++) {
        free((char *)s->frame[i].name);
        free((char *)s->frame[i].file);
    }
    free(s->frame);
    free(s->e);
    for (size_t i = 0; i < s->nmod; i++)
        free(s->mod[i].sym);
    free(s->mod);
    free(s);
}

const char *rs_syms_notes(const struct rs_syms *s)
{
    return s ? s->notes : "";
}

static void note_once(struct rs_syms *s, const char *text)
{
    if (strstr(s->notes, text))
        return;
    size_t n = strlen(s->notes);
    snprintf(s->notes + n, sizeof s->notes - n, "%s%s", n ? "; " : "", text);
}

static int by_lo(const void *a, const void *b)
{
    GElf_Addr x = ((const struct fsym *)a)->lo, y = ((const struct fsym *)b)->lo;
    return x < y ? -1 : x > y;
}

/* m's functions, sorted (read on m's first address); NULL when out of memory. */
static struct modsyms *functions_of(struct rs_syms *s, Dwfl_Module *m)
{
    for (size_t i = 0; i < s->nmod; i++)
        if (s->mod[i].m == m)
            return &s->mod[i];
    struct modsyms *grown = realloc(s->mod, (s->nmod + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    s->mod = grown;
    struct modsyms *ms = &s->mod[s->nmod++];
    memset(ms, 0, sizeof *ms);
    ms->m = m;
    int n = dwfl_module_getsymtab(m);
    ms->sym = n > 0 ? malloc((size_t)n * sizeof *ms->sym) : NULL;
    for (int i = 1; ms->sym && i < n; i++) {
        GElf_Sym es;
        GElf_Addr a;
        const char *name = dwfl_module_getsym_info(m, i, &es, &a, NULL, NULL, NULL);
        int type = GELF_ST_TYPE(es.st_info);
        if (name && *name && a && es.st_shndx != SHN_UNDEF &&
            (type == STT_FUNC || type == STT_GNU_IFUNC))
            ms->sym[ms->n++] = (struct fsym){a, a + (es.st_size ? es.st_size : 1), name};
    }
    qsort(ms->sym, ms->n, sizeof *ms->sym, by_lo);
    return ms;
}

/* The function holding addr in m, or NULL. */
static const char *function_at(struct rs_syms *s, Dwfl_Module *m, GElf_Addr addr)
{
    struct modsyms *ms = functions_of(s, m);
    if (!ms || ms->n == 0)
        return NULL;
    size_t lo = 0, hi = ms->n; /* the last symbol starting at or below addr */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ms->sym[mid].lo <= addr)
            lo = mid;
        else
            hi = mid;
    }
    for (size_t i = lo + 1; i-- > 0 && ms->sym[i].lo <= addr && lo - i < 8;)
        if (addr < ms->sym[i].hi) /* (aliases and nested sizes: the nearest that holds it) */
            return ms->sym[i].name;
    return NULL;
}

static void separators_out(char *name)
{
    for (char *c = name; *c; c++) /* the folded format's separators stay separators */
        if (*c == ';' || *c == '\t' || *c == '\n')
            *c = ':';
}

/* The functions inlined at addr, outermost first, each appended as ";name" (the folded
 * format's frames: the function the code was inlined into stays the caller). */
static void add_inlined(Dwfl_Module *m, uint64_t addr, char *buf, size_t len)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, (Dwarf_Addr)addr, &bias);
    Dwarf_Die *scopes = NULL;
    int n = cu ? dwarf_getscopes(cu, (Dwarf_Addr)addr - bias, &scopes) : 0;
    for (int i = n - 1; i >= 0; i--) { /* scopes[0] is the innermost */
        Dwarf_Attribute a;
        const char *name = NULL;
        char one[512];
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
            continue;
        if (dwarf_attr_integrate(&scopes[i], DW_AT_linkage_name, &a))
            name = dwarf_formstring(&a);
        if (!name && dwarf_attr_integrate(&scopes[i], DW_AT_name, &a))
            name = dwarf_formstring(&a);
        if (!name)
            continue;
        papi_demangle(name, one, sizeof one);
        separators_out(one);
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, ";%s", one);
    }
    free(scopes);
}

static void resolve(struct rs_syms *s, uint64_t addr, struct rs_frame *f)
{
    char buf[1024];
    if (addr == 0) {
        f->name = strdup("[unknown]");
        f->module = "[unknown]";
        return;
    }
    if (addr == RS_KERNEL) {
        f->name = strdup("[kernel]");
        f->module = "[kernel]";
        return;
    }
    Dwfl_Module *m = s->dwfl ? dwfl_addrmodule(s->dwfl, (Dwarf_Addr)addr) : NULL;
    const char *mname = NULL, *sym = NULL;
    Dwarf_Addr start = 0;
    if (m) {
        mname = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
        sym = function_at(s, m, (GElf_Addr)addr);
        Dwfl_Line *l = dwfl_module_getsrc(m, (Dwarf_Addr)addr);
        int line = 0;
        const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (src) {
            f->file = strdup(src);
            f->line = line;
        }
    }
    const char *base = mname ? strrchr(mname, '/') : NULL;
    base = base ? base + 1 : mname;
    f->module = base ? base : "[unknown]";
    if (sym) {
        papi_demangle(sym, buf, sizeof buf);
        separators_out(buf);
        add_inlined(m, addr, buf, sizeof buf);
    } else {
        snprintf(buf, sizeof buf, "%s+0x%llx", f->module,
                 (unsigned long long)(addr - (m ? start : 0)));
        struct modsyms *ms = m ? functions_of(s, m) : NULL;
        if (ms && ms->n == 0) { /* (an address between functions, a PLT stub: no note) */
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

static int grow(struct rs_syms *s)
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

size_t rs_syms_count(const struct rs_syms *s)
{
    return s->n;
}

const struct rs_frame *rs_syms_frame(const struct rs_syms *s, size_t index)
{
    return &s->frame[index];
}

long rs_syms_index(struct rs_syms *s, uint64_t addr)
{
    if (2 * (s->n + 1) > s->size && grow(s) != 0)
        return -1;
    if (s->n == s->fcap) {
        size_t cap = s->fcap ? 2 * s->fcap : 1024;
        struct rs_frame *f = realloc(s->frame, cap * sizeof *f);
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
        struct rs_frame *f = &s->frame[s->n];
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
