/* symbolizer.c: code addresses named with elfutils' libdw (symbolizer.h). libdw is loaded
 * with dlopen, once per process and never unloaded (its functions by name: libdw_fn), so
 * that nothing that links these objects links libdw: libpapi.a keeps to libpfm4 and libc, and a machine
 * without libdw still runs, its names said to be missing (sym_how). A process's modules
 * come from /proc/self/maps; an object opened alone is reported at base 0 (an MPI call
 * site's offset is its file address there). Separate debug files are found by build id.
 * libdw's own address-to-symbol lookup scans the whole symbol table for each address, far
 * too slow for 100,000 stacks: each module's functions are sorted once and searched. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "symbolizer.h"

#if defined(__has_include)
#if __has_include(<elfutils/libdwfl.h>)
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#define HAVE_DWFL 1
#endif
#endif

#ifdef HAVE_DWFL
/* Every libdw function used, looked up by name (the types from libdw's headers). */
#define LIBDW_FUNCTIONS(X)                                                                         \
    X(dwfl_begin)                                                                                  \
    X(dwfl_end)                                                                                    \
    X(dwfl_report_begin)                                                                           \
    X(dwfl_report_end)                                                                             \
    X(dwfl_report_elf)                                                                             \
    X(dwfl_linux_proc_report) X(dwfl_linux_proc_find_elf) X(dwfl_build_id_find_elf)                \
        X(dwfl_standard_find_debuginfo) X(dwfl_offline_section_address) X(dwfl_errmsg)             \
            X(dwfl_addrmodule) X(dwfl_module_info) X(dwfl_module_getsymtab)                        \
                X(dwfl_module_getsym_info) X(dwfl_module_getsrc) X(dwfl_lineinfo)                  \
                    X(dwfl_module_addrdie) X(dwarf_getscopes) X(dwarf_getscopes_die) X(dwarf_tag)  \
                        X(dwarf_attr_integrate) X(dwarf_formstring) X(dwarf_diename)               \
                            X(dwfl_module_getdwarf) X(dwarf_nextcu) X(dwarf_offdie) X(dwarf_haspc) \
                                X(dwarf_getsrc_die) X(dwarf_linesrc) X(dwarf_getaranges)           \
                                    X(dwarf_lineno)

/* Those that read an inlined call's site (sym_where's call_file, call_line) and a call
 * site's arguments (sym_call_address_argument). */
#define LIBDW_SITE_FUNCTIONS(X)                                                            \
    X(dwarf_attr)                                                                          \
    X(dwarf_formudata) X(dwarf_diecu) X(dwarf_getsrcfiles) X(dwarf_filesrc) X(dwarf_child) \
        X(dwarf_siblingof) X(dwarf_formaddr) X(dwarf_formblock)

struct libdw_fn {
#define FIELD(name) __typeof__(name) *name;
    LIBDW_FUNCTIONS(FIELD)
    LIBDW_SITE_FUNCTIONS(FIELD)
#undef FIELD
};

/* A module's functions sorted by address. */
struct fsym {
    GElf_Addr lo, hi;
    const char *name; /* libdw's, alive as long as the Dwfl */
};

struct modsyms {
    Dwfl_Module *m;
    struct fsym *sym;
    size_t n;
};
#endif

struct symbolizer {
    const char *how;
    char how_buf[160];
#ifdef HAVE_DWFL
    void *lib;
    struct libdw_fn f;
    Dwfl *dwfl;
    Dwfl_Callbacks cb;
    char *debuginfo_path;
    struct modsyms *mod;
    size_t nmod;
#endif
};

#ifdef HAVE_DWFL
/* libdw, loaded by the first symbolizer and kept: a symbolizer that unloaded it from one
 * thread (the MPI wrapper's checkpoint thread names call sites) while another walked the
 * loaded objects (dl_iterate_phdr) freed what that walk read (ThreadSanitizer's report in
 * the tsan lane), and each session loaded it anew. */
static pthread_once_t libdw_once = PTHREAD_ONCE_INIT;
static void *libdw_lib;

static void libdw_load_once(void)
{
    libdw_lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
}

static int load_libdw(struct symbolizer *s)
{
    pthread_once(&libdw_once, libdw_load_once);
    s->lib = libdw_lib;
    if (!s->lib) {
        s->how = "libdw.so.1 could not be loaded";
        return -1;
    }
#define LOOKUP(name)                                                           \
    if (!(s->f.name = (__typeof__(s->f.name))dlsym(s->lib, #name))) {          \
        snprintf(s->how_buf, sizeof s->how_buf, "libdw.so.1 lacks %s", #name); \
        s->how = s->how_buf;                                                   \
        return -1;                                                             \
    }
    LIBDW_FUNCTIONS(LOOKUP)
    LIBDW_SITE_FUNCTIONS(LOOKUP)
#undef LOOKUP
    s->cb.find_debuginfo = s->f.dwfl_standard_find_debuginfo;
    s->cb.debuginfo_path = &s->debuginfo_path;
    return 0;
}

/* libdw loaded and a session begun with the callbacks fin_elf (and section for objects). */
static struct symbolizer *begin(int process)
{
    struct symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (load_libdw(s) != 0)
        return s;
    s->cb.find_elf = process ? s->f.dwfl_linux_proc_find_elf : s->f.dwfl_build_id_find_elf;
    if (!process)
        s->cb.section_address = s->f.dwfl_offline_section_address;
    s->dwfl = s->f.dwfl_begin(&s->cb);
    s->how = s->dwfl ? "libdw" : "libdw could not begin a session";
    if (s->dwfl)
        s->f.dwfl_report_begin(s->dwfl);
    return s;
}

struct symbolizer *sym_open_process(void)
{
    struct symbolizer *s = begin(1);
    if (s && s->dwfl) {
        if (s->f.dwfl_linux_proc_report(s->dwfl, getpid()) != 0) {
            snprintf(s->how_buf, sizeof s->how_buf, "the process's maps could not be read: %s",
                     s->f.dwfl_errmsg(-1));
            s->how = s->how_buf;
        }
        s->f.dwfl_report_end(s->dwfl, NULL, NULL);
    }
    return s;
}

struct symbolizer *sym_open_object(const char *path)
{
    struct symbolizer *s = begin(0);
    if (s && s->dwfl) {
        if (!s->f.dwfl_report_elf(s->dwfl, path, path, -1, 0, false))
            s->how = "object file not readable";
        s->f.dwfl_report_end(s->dwfl, NULL, NULL);
    }
    return s;
}
#else
struct symbolizer *sym_open_process(void)
{
    struct symbolizer *s = calloc(1, sizeof *s);
    if (s)
        s->how = "built without libdw's headers";
    return s;
}

struct symbolizer *sym_open_object(const char *path)
{
    (void)path;
    return sym_open_process();
}
#endif

const char *sym_how(const struct symbolizer *s)
{
    return s ? s->how : "out of memory";
}

void sym_close(struct symbolizer *s)
{
    if (!s)
        return;
#ifdef HAVE_DWFL
    if (s->dwfl)
        s->f.dwfl_end(s->dwfl);
    for (size_t i = 0; i < s->nmod; i++)
        free(s->mod[i].sym);
    free(s->mod);
#endif
    free(s);
}

#ifdef HAVE_DWFL
static int by_lo(const void *a, const void *b)
{
    GElf_Addr x = ((const struct fsym *)a)->lo, y = ((const struct fsym *)b)->lo;
    return x < y ? -1 : x > y;
}

/* m's functions, sorted (read on m's first address); NULL when out of memory. */
static struct modsyms *functions_of(struct symbolizer *s, Dwfl_Module *m)
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
    int n = s->f.dwfl_module_getsymtab(m);
    ms->sym = n > 0 ? malloc((size_t)n * sizeof *ms->sym) : NULL;
    for (int i = 1; ms->sym && i < n; i++) {
        GElf_Sym es;
        GElf_Addr a;
        const char *name = s->f.dwfl_module_getsym_info(m, i, &es, &a, NULL, NULL, NULL);
        int type = GELF_ST_TYPE(es.st_info);
        if (name && *name && a && es.st_shndx != SHN_UNDEF &&
            (type == STT_FUNC || type == STT_GNU_IFUNC))
            ms->sym[ms->n++] = (struct fsym){a, a + (es.st_size ? es.st_size : 1), name};
    }
    qsort(ms->sym, ms->n, sizeof *ms->sym, by_lo);
    return ms;
}

/* The function holding addr in ms, or NULL. */
static const char *function_at(const struct modsyms *ms, GElf_Addr addr)
{
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

static int is_function(const struct symbolizer *s, Dwarf_Die *d)
{
    int tag = s->f.dwarf_tag(d);
    return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
}

/* A function's name as the source reads it: DWARF's DW_AT_name lacks a C++ namespace and
 * class or a Fortran module, so a linkage name the demangler rewrites wins; an inlined
 * instance has its names through its abstract origin. */
static void display_name(const struct symbolizer *s, Dwarf_Die *d, char *out, size_t len)
{
    Dwarf_Attribute a;
    const char *link = s->f.dwarf_formstring(s->f.dwarf_attr_integrate(d, DW_AT_linkage_name, &a));
    if (link && papi_demangle(link, out, len))
        return;
    const char *name = s->f.dwarf_formstring(s->f.dwarf_attr_integrate(d, DW_AT_name, &a));
    name = name ? name : s->f.dwarf_diename(d);
    snprintf(out, len, "%s", name ? name : "??");
}

/* The first function among scopes[0..n), or 0. */
static int first_function(const struct symbolizer *s, Dwarf_Die *sc, int n, Dwarf_Die *out)
{
    for (int i = 0; i < n; i++)
        if (is_function(s, &sc[i])) {
            *out = sc[i];
            return 1;
        }
    return 0;
}

/* An inlined instance's call site: its DW_AT_call_line, and DW_AT_call_file named
 * through its unit's file table. */
static void call_site(const struct symbolizer *s, Dwarf_Die *d, char *file, size_t len, int *line)
{
    Dwarf_Attribute a;
    Dwarf_Word v;
    if (s->f.dwarf_formudata(s->f.dwarf_attr(d, DW_AT_call_line, &a), &v) == 0)
        *line = (int)v;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t n;
    const char *name = NULL;
    if (s->f.dwarf_formudata(s->f.dwarf_attr(d, DW_AT_call_file, &a), &v) == 0 &&
        s->f.dwarf_diecu(d, &cu, NULL, NULL) && s->f.dwarf_getsrcfiles(&cu, &files, &n) == 0 &&
        v < n)
        name = s->f.dwarf_filesrc(files, v, NULL, NULL);
    snprintf(file, len, "%s", name ? name : "");
}

static void add_scope(const struct symbolizer *s, Dwarf_Die *d, struct sym_where *w)
{
    display_name(s, d, w->scope[w->depth], sizeof w->scope[0]);
    w->inlined[w->depth] = s->f.dwarf_tag(d) == DW_TAG_inlined_subroutine;
    if (w->inlined[w->depth])
        call_site(s, d, w->call_file[w->depth], sizeof w->call_file[0], &w->call_line[w->depth]);
    w->depth++;
}

/* The CU holding addr found by scanning every CU's address ranges, into *die: for a
 * module without .debug_aranges (clang 14 writes none), where libdw 0.188's lookup finds
 * only the first CU. O(CUs) per address, and only in a module without aranges (where
 * they are, an address they miss is in no unit: a PLT stub, start-up code). */
static Dwarf_Die *cu_scan(const struct symbolizer *s, Dwfl_Module *m, Dwarf_Addr addr,
                          Dwarf_Addr *bias, Dwarf_Die *die)
{
    Dwarf *dw = s->f.dwfl_module_getdwarf(m, bias);
    Dwarf_Aranges *ar;
    size_t nar = 0;
    if (!dw || (s->f.dwarf_getaranges(dw, &ar, &nar) == 0 && nar > 0))
        return NULL; /* its .debug_aranges holds no such address: no unit has it */
    Dwarf_Off off = 0, next;
    size_t header;
    while (s->f.dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
        if (s->f.dwarf_offdie(dw, off + header, die) && s->f.dwarf_haspc(die, addr - *bias) > 0)
            return die;
        off = next;
    }
    return NULL;
}

/* The CU holding addr: libdw's lookup, else the scan. */
static Dwarf_Die *cu_of(const struct symbolizer *s, Dwfl_Module *m, Dwarf_Addr addr,
                        Dwarf_Addr *bias, Dwarf_Die *die)
{
    Dwarf_Die *cu = s->f.dwfl_module_addrdie(m, addr, bias);
    if (cu && s->f.dwarf_haspc(cu, addr - *bias) > 0)
        return cu;
    return cu_scan(s, m, addr, bias, die);
}

/* The DWARF functions at addr, innermost first. dwarf_getscopes continues an inlined
 * instance with the scopes of its abstract definition, so the callers are found in the
 * concrete tree: one dwarf_getscopes_die from the instance gives its whole path to the
 * CU (each call walks the CU from its root: one per address, not one per caller). */
static void scopes(const struct symbolizer *s, Dwfl_Module *m, Dwarf_Addr addr, struct sym_where *w)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cubuf, *cu = cu_of(s, m, addr, &bias, &cubuf), *sc = NULL, die;
    int n = cu ? s->f.dwarf_getscopes(cu, addr - bias, &sc) : 0;
    int found = n > 0 && first_function(s, sc, n, &die);
    free(sc);
    if (!found)
        return;
    Dwarf_Attribute a;
    const char *link =
        s->f.dwarf_formstring(s->f.dwarf_attr_integrate(&die, DW_AT_linkage_name, &a));
    snprintf(w->linkage, sizeof w->linkage, "%s", link ? link : "");
    add_scope(s, &die, w);
    if (!w->inlined[0])
        return;
    Dwarf_Die *outer = NULL; /* outer[0] is the instance itself */
    int k = s->f.dwarf_getscopes_die(&die, &outer);
    for (int i = 1; i < k && w->inlined[w->depth - 1] && w->depth < SYM_MAX_DEPTH; i++)
        if (is_function(s, &outer[i]))
            add_scope(s, &outer[i], w);
    free(outer);
}
#endif

#ifdef HAVE_DWFL
/* The line of addr through the CU scan (libdw's lookup found none): its file, or NULL. */
static const char *line_by_scan(const struct symbolizer *s, Dwfl_Module *m, Dwarf_Addr addr,
                                int *line)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die die, *cu = cu_scan(s, m, addr, &bias, &die);
    Dwarf_Line *l = cu ? s->f.dwarf_getsrc_die(cu, addr - bias) : NULL;
    return l && s->f.dwarf_lineno(l, line) == 0 ? s->f.dwarf_linesrc(l, NULL, NULL) : NULL;
}

/* The module holding addr and its ELF function into w; the module, or NULL. */
static Dwfl_Module *function_of(struct symbolizer *s, uintptr_t addr, struct sym_where *w)
{
    memset(w, 0, sizeof *w);
    Dwfl_Module *m = s && s->dwfl ? s->f.dwfl_addrmodule(s->dwfl, (Dwarf_Addr)addr) : NULL;
    if (!m)
        return NULL;
    Dwarf_Addr start = 0;
    w->module = s->f.dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
    w->module_start = (uintptr_t)start;
    struct modsyms *ms = functions_of(s, m);
    w->module_functions = ms ? ms->n : 0;
    const char *sym = function_at(ms, (GElf_Addr)addr);
    snprintf(w->symbol, sizeof w->symbol, "%s", sym ? sym : "");
    return m;
}
#endif

int sym_function(struct symbolizer *s, uintptr_t addr, struct sym_where *w)
{
#ifdef HAVE_DWFL
    return function_of(s, addr, w) ? 0 : -1;
#else
    (void)s, (void)addr;
    memset(w, 0, sizeof *w);
    return -1;
#endif
}

int sym_functions_prefixed(struct symbolizer *s, uintptr_t addr, const char *prefix, uintptr_t *out,
                           int max)
{
    int n = 0;
#ifdef HAVE_DWFL
    Dwfl_Module *m = s && s->dwfl ? s->f.dwfl_addrmodule(s->dwfl, (Dwarf_Addr)addr) : NULL;
    const struct modsyms *ms = m ? functions_of(s, m) : NULL;
    size_t len = strlen(prefix);
    for (size_t i = 0; ms && i < ms->n; i++)
        if (strncmp(ms->sym[i].name, prefix, len) == 0 && n++ < max)
            out[n - 1] = (uintptr_t)ms->sym[i].lo;
#else
    (void)s, (void)addr, (void)prefix, (void)out, (void)max;
#endif
    return n;
}

#ifdef HAVE_DWFL
/* The first of call site c's parameters whose value is one DW_OP_addr, into *value. */
static int address_argument(const struct symbolizer *s, Dwarf_Die *c, Dwarf_Addr bias,
                            uintptr_t *value)
{
    Dwarf_Die p;
    if (s->f.dwarf_child(c, &p) != 0)
        return -1;
    do {
        int tag = s->f.dwarf_tag(&p);
        Dwarf_Attribute a;
        Dwarf_Block b;
        if (tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter)
            continue;
        Dwarf_Attribute *v = s->f.dwarf_attr(&p, DW_AT_call_value, &a);
        v = v ? v : s->f.dwarf_attr(&p, DW_AT_GNU_call_site_value, &a);
        if (s->f.dwarf_formblock(v, &b) != 0 || b.length != 1 + sizeof(uint64_t) ||
            b.data[0] != DW_OP_addr)
            continue;
        uint64_t x;
        memcpy(&x, b.data + 1, sizeof x); /* the target's order: the process's own */
        *value = (uintptr_t)(x + bias);
        return 0;
    } while (s->f.dwarf_siblingof(&p, &p) == 0);
    return -1;
}
#endif

int sym_call_address_argument(struct symbolizer *s, uintptr_t ret, uintptr_t *value)
{
    int found = -1;
#ifdef HAVE_DWFL
    Dwfl_Module *m = s && s->dwfl ? s->f.dwfl_addrmodule(s->dwfl, (Dwarf_Addr)ret - 1) : NULL;
    Dwarf_Addr bias = 0;
    Dwarf_Die cubuf, *cu = m ? cu_of(s, m, (Dwarf_Addr)ret - 1, &bias, &cubuf) : NULL, *sc = NULL;
    int n = cu ? s->f.dwarf_getscopes(cu, (Dwarf_Addr)ret - 1 - bias, &sc) : 0;
    for (int i = 0; i < n && found < 0; i++) { /* the call site is a child of a scope */
        Dwarf_Die c;
        if (s->f.dwarf_child(&sc[i], &c) != 0)
            continue;
        do {
            int tag = s->f.dwarf_tag(&c);
            Dwarf_Attribute a;
            Dwarf_Addr pc;
            if ((tag == DW_TAG_call_site &&
                 s->f.dwarf_formaddr(s->f.dwarf_attr(&c, DW_AT_call_return_pc, &a), &pc) == 0) ||
                (tag == DW_TAG_GNU_call_site &&
                 s->f.dwarf_formaddr(s->f.dwarf_attr(&c, DW_AT_low_pc, &a), &pc) == 0)) {
                if (pc + bias == (Dwarf_Addr)ret) {
                    found = address_argument(s, &c, bias, value);
                    break;
                }
            }
        } while (s->f.dwarf_siblingof(&c, &c) == 0);
    }
    free(sc);
#else
    (void)s, (void)ret, (void)value;
#endif
    return found;
}

int sym_lookup(struct symbolizer *s, uintptr_t addr, struct sym_where *w)
{
#ifdef HAVE_DWFL
    Dwfl_Module *m = function_of(s, addr, w);
    if (!m)
        return -1;
    Dwfl_Line *l = s->f.dwfl_module_getsrc(m, (Dwarf_Addr)addr);
    const char *src = l ? s->f.dwfl_lineinfo(l, NULL, &w->line, NULL, NULL, NULL) : NULL;
    if (!src)
        src = line_by_scan(s, m, (Dwarf_Addr)addr, &w->line);
    if (!src)
        return 0;
    snprintf(w->file, sizeof w->file, "%s", src);
    scopes(s, m, (Dwarf_Addr)addr, w);
    return 0;
#else
    return sym_function(s, addr, w);
#endif
}

/* A region's or a sample's code in a library the program unloads before the report
 * (issue 69: named by its address): the caller keeps this while the library is there. */
int sym_object_of(uintptr_t addr, char *path, size_t len, uintptr_t *file_addr)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (!len || !dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
        return -1;
    *file_addr = addr - (uintptr_t)map->l_addr;
    if (map->l_name && map->l_name[0]) {
        snprintf(path, len, "%s", map->l_name);
        return 0;
    }
    ssize_t n = readlink("/proc/self/exe", path, len - 1); /* the program: l_name "" */
    path[n > 0 ? n : 0] = '\0';
    return n > 0 ? 0 : -1;
}
