/* site_resolve.h: a call site's (object file, offset) to function, file and line,
 * inside the process with elfutils' libdw (site_resolve.c): no program on PATH. */
#ifndef PAPI_MPI_SITE_RESOLVE_H
#define PAPI_MPI_SITE_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

struct pmpi_where {
    char function[128];     /* innermost function (an inlined one included), or "??" */
    char inlined_into[256]; /* the functions it is inlined into, innermost first, or "" */
    char outermost[128];    /* the last of them (the concrete function), or "" */
    char file[256];         /* source file, or "??" */
    int line;               /* 0 when unknown */
    const char *note;       /* why file and line are missing, or NULL */
    /* The names as the object writes them, for demangling (C++, Fortran modules): the
     * ELF symbol holding the address (the concrete function) and the innermost
     * function's DWARF linkage name; "" when there is none. */
    char symbol[128];
    char linkage[128];
};

/* Resolves n offsets (file addresses of call instructions) in one object file. */
void pmpi_resolve_object(const char *obj, const long long *offsets, struct pmpi_where *out,
                         size_t n);

/* The loaded object holding addr: its path in obj (the main program's through
 * /proc/self/exe, "?" when no object holds it); returns addr's offset in it. */
long long pmpi_locate(uintptr_t addr, char *obj, size_t objsz);

#endif
