/* symbolizer.h: the one symbolizer of code addresses (symbolizer.c), for the region API's
 * sampling, the MPI wrapper's call sites and samples, and papi_run's stacks. elfutils'
 * libdw, loaded with dlopen (libpapi.a needs only libpfm4 and libc): the ELF function
 * holding an address (each module's functions sorted once), its source file and line, and
 * the DWARF functions at it, inlined ones first, named as the source reads them (C++ and
 * gfortran's module::procedure demangled, demangle.c). Not signal-safe: at exit or report
 * time only. */
#ifndef PAPI_SYMBOLIZER_H
#define PAPI_SYMBOLIZER_H

#include <stddef.h>
#include <stdint.h>

#define SYM_HIDDEN    __attribute__((visibility("hidden")))
#define SYM_NAME_LEN  256
#define SYM_MAX_DEPTH 8 /* DWARF functions kept at one address (inlined levels + 1) */

struct symbolizer;

/* One address named. Strings are "" and numbers 0 where unknown. */
struct sym_where {
    const char *module;        /* the module's path (alive until sym_close), or NULL */
    uintptr_t module_start;    /* its lowest address (0 for an object opened alone) */
    size_t module_functions;   /* its ELF functions: 0 for a stripped module */
    char symbol[SYM_NAME_LEN]; /* the ELF function holding the address, as written */
    char file[SYM_NAME_LEN];
    int line;
    /* The DWARF functions at the address (line table present), innermost first: the
     * inlined instances, then the concrete function; display names, and whether each is
     * an inlined instance. linkage: the innermost one's linkage name as written. */
    int depth;
    char scope[SYM_MAX_DEPTH][SYM_NAME_LEN];
    int inlined[SYM_MAX_DEPTH];
    char linkage[SYM_NAME_LEN];
    /* Where each inlined instance among scope[] was called (in scope[i + 1]): the call's
     * file and line (DWARF's DW_AT_call_file, DW_AT_call_line); "" and 0 where scope[i]
     * is not inlined or DWARF does not say. */
    char call_file[SYM_MAX_DEPTH][SYM_NAME_LEN];
    int call_line[SYM_MAX_DEPTH];
};

/* This process's modules as mapped now; NULL only when out of memory. */
SYM_HIDDEN struct symbolizer *sym_open_process(void);
/* One object file at base 0: addresses are its file addresses; NULL when out of memory. */
SYM_HIDDEN struct symbolizer *sym_open_object(const char *path);
/* "libdw", or why not: libdw not loaded (every lookup then returns -1), the process's
 * maps or the object not read whole (lookups find what was read). */
SYM_HIDDEN const char *sym_how(const struct symbolizer *s);
/* Fills w for addr: 0, or -1 when no module holds it (w then empty). */
SYM_HIDDEN int sym_lookup(struct symbolizer *s, uintptr_t addr, struct sym_where *w);
/* The same without DWARF (file, line, scopes stay empty): the module and its ELF function
 * only, far cheaper where the function's name is all that is wanted. */
SYM_HIDDEN int sym_function(struct symbolizer *s, uintptr_t addr, struct sym_where *w);
/* The entry addresses of the functions of addr's module whose ELF names begin with prefix
 * (gcc's outlined parallel regions of function f: "f._omp_fn."), at most max into out;
 * how many there are (0 without a module or libdw). */
SYM_HIDDEN int sym_functions_prefixed(struct symbolizer *s, uintptr_t addr, const char *prefix,
                                      uintptr_t *out, int max);
/* The first constant address a call passes, as DWARF's call site at its return address
 * ret says it (gcc -O2 -g: DW_TAG_call_site, a parameter's DW_AT_call_value DW_OP_addr;
 * GOMP_parallel's outlined function): 0 with *value, or -1 (no call site there: -O0). */
SYM_HIDDEN int sym_call_address_argument(struct symbolizer *s, uintptr_t ret, uintptr_t *value);
SYM_HIDDEN void sym_close(struct symbolizer *s);

/* Where addr lies now, kept by a caller to name it once its object is unloaded (dlclose):
 * the object's path (the program's own through /proc/self/exe) and addr as an address of
 * that file (less the object's load bias: sym_open_object(path) names it). Asks the loader
 * (its lock): ordinary code, not a signal handler. 0, or -1 when no object holds addr. */
SYM_HIDDEN int sym_object_of(uintptr_t addr, char *path, size_t len, uintptr_t *file_addr);

#endif
