/* site_resolve.c: call sites and samples of this rank (an object file and an offset)
 * named by the one symbolizer (src-c/sampling/symbolizer.c, libdw): the object file is
 * opened alone at base 0, so a site's offset, the call instruction's file address, is its
 * address there; the line comes from the DWARF line table (separate debug files found by
 * build id), the DWARF scopes around the address name the inlined function and the
 * functions it is inlined into. Where no debug information exists, the ELF symbol table
 * still names the function and the note says why there is no file and line; the report
 * keeps object + offset. */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "site_resolve.h"
#include "symbolizer.h"

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

/* src into dst, cut to its size (the symbolizer's names are longer than the report's). */
static void copy(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* w from the symbolizer's answer: the innermost function, the ones it is inlined into. */
static void fill(const struct sym_where *sw, struct pmpi_where *w)
{
    if (sw->symbol[0]) {
        copy(w->function, sizeof w->function, sw->symbol);
        copy(w->symbol, sizeof w->symbol, sw->symbol);
    }
    if (!sw->file[0]) {
        w->note = "no debug information (line table) for this address: object and offset kept";
        return;
    }
    copy(w->file, sizeof w->file, sw->file);
    w->line = sw->line;
    if (sw->depth == 0)
        return;
    if (strcmp(sw->scope[0], "??") != 0)
        copy(w->function, sizeof w->function, sw->scope[0]);
    copy(w->linkage, sizeof w->linkage, sw->linkage);
    size_t used = 0;
    for (int i = 1; i < sw->depth && sw->inlined[i - 1] && used < sizeof w->inlined_into; i++) {
        copy(w->outermost, sizeof w->outermost, sw->scope[i]);
        used += (size_t)snprintf(w->inlined_into + used, sizeof w->inlined_into - used, "%s%s",
                                 used ? ", " : "", sw->scope[i]);
    }
}

void pmpi_resolve_object(const char *obj, const long long *offsets, struct pmpi_where *out,
                         size_t n)
{
    struct symbolizer *s = sym_open_object(obj);
    const char *how = sym_how(s);
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        snprintf(out[i].function, sizeof out[i].function, "??");
        snprintf(out[i].file, sizeof out[i].file, "??");
        struct sym_where sw;
        if (strcmp(how, "libdw") != 0)
            out[i].note = strcmp(how, "object file not readable") == 0
                              ? "object file not readable: object and offset kept"
                              : "libdw (libdw.so.1) not loaded: object and offset kept";
        else if (sym_lookup(s, (uintptr_t)offsets[i], &sw) == 0)
            fill(&sw, &out[i]);
        else
            out[i].note =
                "no debug information (line table) for this address: object and offset kept";
    }
    sym_close(s);
}
