/* site_resolve.c: call sites resolved in-process with elfutils' libdwfl: the object
 * file is reported at base 0 (so a site's offset, the call instruction's file address,
 * is its address there), the line comes from the DWARF line table (separate debug
 * files under /usr/lib/debug are found by build id), and the DWARF scopes around the
 * address name the inlined function and the functions it is inlined into. Where no
 * debug information exists, the ELF symbol table still names the function and the
 * note says why there is no file and line; the report keeps object + offset. */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "site_resolve.h"

struct find_obj {
    uintptr_t addr, bias;
    const char *name;
    int found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct find_obj *f = arg;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
            f->bias = info->dlpi_addr;
            f->name = info->dlpi_name;
            f->found = 1;
            return 1;
        }
    }
    return 0;
}

long long pmpi_locate(uintptr_t addr, char *obj, size_t objsz)
{
    struct find_obj f = {addr, 0, NULL, 0};
    dl_iterate_phdr(find_cb, &f);
    if (!f.found)
        snprintf(obj, objsz, "?");
    else if (f.name && f.name[0])
        snprintf(obj, objsz, "%s", f.name);
    else { /* the main program */
        ssize_t n = readlink("/proc/self/exe", obj, objsz - 1);
        obj[n > 0 ? n : 0] = '\0';
    }
    return (long long)(addr - f.bias);
}

#ifdef PAPI_MPI_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

static int is_function(Dwarf_Die *d)
{
    int tag = dwarf_tag(d);
    return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
}

/* A function's name; an inlined instance has it through its abstract origin. */
static const char *die_name(Dwarf_Die *d)
{
    Dwarf_Attribute a;
    const char *name = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
    return name ? name : dwarf_diename(d);
}

/* The name as the source reads it: DWARF's DW_AT_name lacks a C++ namespace and class or
 * a Fortran module (wait_here for ranks::wait_here(int)), so a linkage name the shared
 * demangler rewrites (demangle.c) wins, as in the sampling tables; C keeps DW_AT_name. */
static void display_name(Dwarf_Die *d, char *out, size_t len)
{
    Dwarf_Attribute a;
    const char *link = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_linkage_name, &a));
    if (link && papi_demangle(link, out, len))
        return;
    const char *name = die_name(d);
    snprintf(out, len, "%s", name ? name : "??");
}

/* Inlined frames: the innermost function is the site's function, the functions it is
 * inlined into (innermost first, up to the real one) its callers. dwarf_getscopes
 * continues an inlined instance with the scopes of its abstract definition, so each
 * caller is found in the concrete tree, from the instance (dwarf_getscopes_die). */
static void scopes(Dwfl_Module *mod, Dwarf_Addr addr, struct pmpi_where *w)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
    Dwarf_Die *sc = NULL, die;
    int n = cu ? dwarf_getscopes(cu, addr - bias, &sc) : 0, found = 0;
    for (int i = 0; i < n && !found; i++)
        if (is_function(&sc[i])) {
            die = sc[i];
            found = 1;
        }
    free(sc);
    if (!found)
        return;
    if (die_name(&die))
        display_name(&die, w->function, sizeof w->function);
    Dwarf_Attribute a;
    const char *link = dwarf_formstring(dwarf_attr_integrate(&die, DW_AT_linkage_name, &a));
    if (link)
        snprintf(w->linkage, sizeof w->linkage, "%s", link);
    size_t used = 0;
    while (dwarf_tag(&die) == DW_TAG_inlined_subroutine && used < sizeof w->inlined_into) {
        Dwarf_Die *outer = NULL;
        int k = dwarf_getscopes_die(&die, &outer); /* outer[0] is the instance itself */
        found = 0;
        for (int i = 1; i < k && !found; i++)
            if (is_function(&outer[i])) {
                die = outer[i];
                found = 1;
            }
        free(outer);
        if (!found)
            break;
        char name[sizeof w->outermost];
        display_name(&die, name, sizeof name);
        snprintf(w->outermost, sizeof w->outermost, "%s", name);
        used += (size_t)snprintf(w->inlined_into + used, sizeof w->inlined_into - used, "%s%s",
                                 used ? ", " : "", name);
    }
}

static void resolve_one(Dwfl_Module *mod, Dwarf_Addr addr, struct pmpi_where *w)
{
    const char *sym = dwfl_module_addrname(mod, addr);
    if (sym) {
        snprintf(w->function, sizeof w->function, "%s", sym);
        snprintf(w->symbol, sizeof w->symbol, "%s", sym);
    }
    Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
    int lineno = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (!file) {
        w->note = "no debug information (line table) for this address: object and offset kept";
        return;
    }
    snprintf(w->file, sizeof w->file, "%s", file);
    w->line = lineno;
    scopes(mod, addr, w);
}

void pmpi_resolve_object(const char *obj, const long long *offsets, struct pmpi_where *out,
                         size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        snprintf(out[i].function, sizeof out[i].function, "??");
        snprintf(out[i].file, sizeof out[i].file, "??");
    }
    Dwfl *dwfl = dwfl_begin(&callbacks);
    Dwfl_Module *mod = dwfl ? dwfl_report_elf(dwfl, obj, obj, -1, 0, false) : NULL;
    if (!mod) {
        for (size_t i = 0; i < n; i++)
            out[i].note = "object file not readable: object and offset kept";
        if (dwfl)
            dwfl_end(dwfl);
        return;
    }
    dwfl_report_end(dwfl, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        resolve_one(mod, (Dwarf_Addr)offsets[i], &out[i]);
    dwfl_end(dwfl);
}
#else
void pmpi_resolve_object(const char *obj, const long long *offsets, struct pmpi_where *out,
                         size_t n)
{
    (void)obj;
    (void)offsets;
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        snprintf(out[i].function, sizeof out[i].function, "??");
        snprintf(out[i].file, sizeof out[i].file, "??");
        out[i].note = "built without libdw (libdw-dev): object and offset kept";
    }
}
#endif
