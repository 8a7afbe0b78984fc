/* site_resolve.c: call sites resolved in-process with elfutils' libdwfl: the object
 * file is reported at base 0 (so a site's offset, the call instruction's file address,
 * is its address there), the line comes from the DWARF line table (separate debug
 * files under /usr/lib/debug are found by build id), and the DWARF scopes around the
 * address name the inlined function and the functions it is inlined into. Where no
 * debug information exists, the ELF symbol table still names the function and the
 * note says why there is no file and line; the report keeps object + offset. */
#include <stdio.h>
#include <string.h>

#include "site_resolve.h"

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

/* Inlined frames: the innermost name is the function, the others its callers. */
static void scopes(Dwfl_Module *mod, Dwarf_Addr addr, struct pmpi_where *w)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
    Dwarf_Die *sc = NULL;
    int n = cu ? dwarf_getscopes(cu, addr - bias, &sc) : 0;
    int named = 0;
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        int tag = dwarf_tag(&sc[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        const char *name = dwarf_diename(&sc[i]);
        if (!name)
            continue;
        if (!named++) {
            snprintf(w->function, sizeof w->function, "%s", name);
        } else if (used < sizeof w->inlined_into) {
            used += (size_t)snprintf(w->inlined_into + used, sizeof w->inlined_into - used,
                                     "%s%s", used ? ", " : "", name);
        }
        if (tag == DW_TAG_subprogram)
            break; /* the real function: its callers are not inlined */
    }
    free(sc);
}

static void resolve_one(Dwfl_Module *mod, Dwarf_Addr addr, struct pmpi_where *w)
{
    const char *sym = dwfl_module_addrname(mod, addr);
    if (sym)
        snprintf(w->function, sizeof w->function, "%s", sym);
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
