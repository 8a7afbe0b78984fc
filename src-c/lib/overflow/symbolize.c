/* symbolize.c: names of code addresses of this process, at exit (region sampling's
 * function x region table). libdw's dwfl reads every module's symbol table (static
 * functions and programs built without -rdynamic included); libdw is loaded with dlopen,
 * so libpapi (and libpapi.a, which needs only libpfm4 and the C library) does not link it.
 * Without libdw, dladdr names the dynamic symbols only. C++ and gfortran module
 * procedures' names are demangled (demangle.c, shared with the MPI wrapper). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "demangle.h"
#include "symbolize.h"

#if defined(__has_include)
#if __has_include(<elfutils/libdwfl.h>)
#include <elfutils/libdwfl.h>
#define HAVE_DWFL 1
#endif
#endif

struct symbolizer {
    const char *how;
#ifdef HAVE_DWFL
    void *lib;
    Dwfl *dwfl;
    Dwfl_Callbacks cb;
    char *debuginfo_path;
    __typeof__(dwfl_addrmodule) *addrmodule;
    __typeof__(dwfl_module_addrname) *addrname;
    __typeof__(dwfl_end) *end;
#endif
};

#ifdef HAVE_DWFL
/* libdw's functions by name: 0 when one is missing. */
static int open_dwfl(struct symbolizer *s)
{
    s->lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!s->lib)
        return 0;
    __typeof__(dwfl_begin) *begin = (__typeof__(begin))dlsym(s->lib, "dwfl_begin");
    __typeof__(dwfl_linux_proc_report) *report =
        (__typeof__(report))dlsym(s->lib, "dwfl_linux_proc_report");
    __typeof__(dwfl_report_end) *report_end =
        (__typeof__(report_end))dlsym(s->lib, "dwfl_report_end");
    s->addrmodule = (__typeof__(s->addrmodule))dlsym(s->lib, "dwfl_addrmodule");
    s->addrname = (__typeof__(s->addrname))dlsym(s->lib, "dwfl_module_addrname");
    s->end = (__typeof__(s->end))dlsym(s->lib, "dwfl_end");
    s->cb.find_elf = (__typeof__(s->cb.find_elf))dlsym(s->lib, "dwfl_linux_proc_find_elf");
    s->cb.find_debuginfo =
        (__typeof__(s->cb.find_debuginfo))dlsym(s->lib, "dwfl_standard_find_debuginfo");
    s->cb.debuginfo_path = &s->debuginfo_path;
    if (!begin || !report || !report_end || !s->addrmodule || !s->addrname || !s->end ||
        !s->cb.find_elf || !s->cb.find_debuginfo)
        goto fail;
    s->dwfl = begin(&s->cb);
    if (!s->dwfl)
        goto fail;
    if (report(s->dwfl, getpid()) != 0 || report_end(s->dwfl, NULL, NULL) != 0) {
        s->end(s->dwfl);
        s->dwfl = NULL;
        goto fail;
    }
    return 1;
fail:
    dlclose(s->lib);
    s->lib = NULL;
    return 0;
}
#endif

struct symbolizer *sym_open(void)
{
    struct symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->how = "dladdr (dynamic symbols only: libdw.so.1 could not be loaded)";
#ifdef HAVE_DWFL
    if (open_dwfl(s))
        s->how = "libdw";
#else
    s->how = "dladdr (dynamic symbols only: built without libdw's headers)";
#endif
    return s;
}

const char *sym_how(const struct symbolizer *s)
{
    return s ? s->how : "none";
}

void sym_name(struct symbolizer *s, uintptr_t pc, char *out, size_t len)
{
    const char *name = NULL;
#ifdef HAVE_DWFL
    if (s && s->dwfl) {
        Dwfl_Module *m = s->addrmodule(s->dwfl, (Dwarf_Addr)pc);
        name = m ? s->addrname(m, (Dwarf_Addr)pc) : NULL;
    }
#endif
    Dl_info info;
    if (!name && dladdr((void *)pc, &info) && info.dli_sname)
        name = info.dli_sname;
    if (name)
        papi_demangle(name, out, len);
    else
        snprintf(out, len, "0x%llx", (unsigned long long)pc); /* unnamed: the address */
}

void sym_close(struct symbolizer *s)
{
    if (!s)
        return;
#ifdef HAVE_DWFL
    if (s->dwfl)
        s->end(s->dwfl);
    if (s->lib)
        dlclose(s->lib);
#endif
    free(s);
}
