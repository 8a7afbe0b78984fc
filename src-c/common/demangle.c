/* demangle.c: symbols named as their source reads them. gfortran writes a module
 * procedure proc of module mod as __mod_MOD_proc; flang-new writes _QMmodPproc (module
 * mod, procedure proc; F a host procedure, P a procedure, _QQmain the main program,
 * names lowercased); C++ names (_Z...) are demangled by the
 * C++ runtime's __cxa_demangle, found with dlsym: the program's own when it is C++, else
 * libstdc++ opened for it. So neither libpapi nor the MPI wrapper links libstdc++, and a C
 * program loads it only if a C++ name shows up (a C++ library it uses). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

typedef char *(*cxa_fn)(const char *, char *, size_t *, int *);

/* 0: not looked for yet; 1: none to be had; else the function. Two threads looking at
 * once both find the same one (dlopen counts references): no lock needed. */
static _Atomic uintptr_t cxa_cached;

static cxa_fn cxa_demangle(void)
{
    uintptr_t f = atomic_load(&cxa_cached);
    if (f == 0) {
        void *p = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!p) { /* kept open: the function is used until the process ends */
            void *lib = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
            p = lib ? dlsym(lib, "__cxa_demangle") : NULL;
        }
        f = p ? (uintptr_t)p : 1;
        atomic_store(&cxa_cached, f);
    }
    return f == 1 ? NULL : (cxa_fn)f;
}

/* flang-new's _Q names: _QQmain, and M (module), F (host) and P (procedure) parts, each
 * tag an upper-case letter and its name lower case; 1 when rewritten, 0 when not one. */
static int flang_name(const char *sym, char *out, size_t len)
{
    if (strcmp(sym, "_QQmain") == 0) {
        snprintf(out, len, "main");
        return 1;
    }
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = sym + 2; *p;) {
        size_t k = strcspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ.");
        if (!strchr("MFP", *p) || k == 0 || (p[1 + k] && !strchr("FP", p[1 + k])))
            return 0; /* another tag (compiler-made names): copied as it is */
        n += (size_t)snprintf(out + (n < len ? n : len - 1), n < len ? len - n : 1, "%s%.*s",
                              n ? "::" : "", (int)k, p + 1);
        p += 1 + k;
    }
    return n > 0;
}

int papi_demangle(const char *sym, char *out, size_t len)
{
    if (!len)
        return 0;
    if (strncmp(sym, "_Q", 2) == 0 && flang_name(sym, out, len))
        return 1;
    const char *mod = strncmp(sym, "__", 2) == 0 ? strstr(sym + 2, "_MOD_") : NULL;
    if (mod && mod > sym + 2 && mod[5]) { /* gfortran: __mod_MOD_proc */
        snprintf(out, len, "%.*s::%s", (int)(mod - sym - 2), sym + 2, mod + 5);
        return 1;
    }
    cxa_fn cxa = strncmp(sym, "_Z", 2) == 0 ? cxa_demangle() : NULL;
    if (cxa) {
        int status = -1;
        char *d = cxa(sym, NULL, NULL, &status);
        if (d && status == 0) {
            snprintf(out, len, "%s", d);
            free(d);
            return 1;
        }
        free(d);
    }
    snprintf(out, len, "%s", sym);
    return 0;
}
