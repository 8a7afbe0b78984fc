/* test_symbolizer: src-c/sampling/symbolizer.c, white box, on this program (built -O2 -g):
 * the address of a call inside an always-inlined function is named by its ELF function,
 * its file and line, and its DWARF functions innermost first (the inlined one, then the
 * concrete one); the same offset in the program file opened alone (the MPI wrapper's way)
 * gives the same answer; sym_function names the function alone. Without libdw.so.1 on the machine: SKIPPED. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "papi_test.h"
#include "symbolizer.h"

static uintptr_t site;
static int site_line;

__attribute__((noinline)) static void probe(int line)
{
    site = (uintptr_t)__builtin_return_address(0) - 1; /* the call instruction */
    site_line = line;
    __asm__ volatile("" ::: "memory");
}

static inline __attribute__((always_inline)) void sym_test_inner(int k)
{
    if (k >= 0)
        probe(__LINE__);
}

__attribute__((noinline)) void sym_test_outer(int k)
{
    sym_test_inner(k);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

static void expect_site(const char *how, struct symbolizer *s, uintptr_t addr, const char *module)
{
    struct sym_where w;
    CHECK(sym_lookup(s, addr, &w) == 0, "%s: no module holds 0x%llx", how,
          (unsigned long long)addr);
    CHECK(strcmp(w.symbol, "sym_test_outer") == 0, "%s: symbol '%s'", how, w.symbol);
    const char *base = strrchr(w.file, '/');
    CHECK(base && strcmp(base, "/test_symbolizer.c") == 0 && w.line == site_line,
          "%s: %s:%d, expected test_symbolizer.c:%d", how, w.file, w.line, site_line);
    CHECK(w.depth == 2, "%s: %d DWARF functions, expected 2", how, w.depth);
    if (w.depth == 2)
        CHECK(strcmp(w.scope[0], "sym_test_inner") == 0 && w.inlined[0] &&
                  strcmp(w.scope[1], "sym_test_outer") == 0 && !w.inlined[1],
              "%s: scopes %s (%d), %s (%d)", how, w.scope[0], w.inlined[0], w.scope[1],
              w.inlined[1]);
    CHECK(w.module_functions > 0 && w.module && strstr(w.module, module),
          "%s: module %s with %zu functions", how, w.module ? w.module : "(none)",
          w.module_functions);
}

int main(void)
{
    sym_test_outer(1);
    struct symbolizer *s = sym_open_process();
    CHECK(s != NULL, "no symbolizer");
    if (s && strcmp(sym_how(s), "libdw.so.1 could not be loaded") == 0) {
        printf("SKIPPED: %s\n", sym_how(s));
        sym_close(s);
        return TEST_SKIP_CODE;
    }
    CHECK(strcmp(sym_how(s), "libdw") == 0, "the process: %s", sym_how(s));
    expect_site("process", s, site, "test_symbolizer");
    struct sym_where w; /* the ELF function alone: no DWARF read */
    CHECK(sym_function(s, site, &w) == 0 && strcmp(w.symbol, "sym_test_outer") == 0 &&
              w.file[0] == 0 && w.depth == 0,
          "sym_function: '%s', '%s', depth %d", w.symbol, w.file, w.depth);
    CHECK(sym_lookup(s, 0, &w) == -1 && w.symbol[0] == 0, "address 0 named '%s'", w.symbol);
    sym_close(s);

    Dl_info info; /* the program's file and the call's offset in it */
    CHECK(dladdr((void *)site, &info) != 0, "dladdr found no object");
    s = sym_open_object("/proc/self/exe");
    CHECK(strcmp(sym_how(s), "libdw") == 0, "the object: %s", sym_how(s));
    expect_site("object", s, site - (uintptr_t)info.dli_fbase, "/proc/self/exe");
    sym_close(s);
    s = sym_open_object("/nonexistent/program");
    CHECK(strcmp(sym_how(s), "object file not readable") == 0 && sym_lookup(s, 16, &w) == -1,
          "a missing object: %s", sym_how(s));
    sym_close(s);
    return test_done("test_symbolizer");
}
