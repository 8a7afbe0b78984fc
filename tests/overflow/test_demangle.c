/* test_demangle: src-c/common/demangle.c, white box. gfortran's module procedures read
 * mod::proc, flang-new's _QM...P... too; C++ names demangle through the C++ runtime loaded with dlopen (this C program
 * does not link libstdc++: without it on the machine, they are copied and the test says
 * SKIPPED for them); other names, look-alikes and short buffers are handled. */
#include <dlfcn.h>
#include <string.h>

#include "demangle.h"
#include "papi_test.h"

static void expect(const char *sym, const char *want, int rewritten)
{
    char out[128];
    int r = papi_demangle(sym, out, sizeof out);
    CHECK(r == rewritten && strcmp(out, want) == 0, "%s: '%s' (%d), expected '%s' (%d)", sym, out,
          r, want, rewritten);
}

int main(void)
{
    expect("__ranked_MOD_crunch", "ranked::crunch", 1);
    expect("__a_b_MOD_c_d", "a_b::c_d", 1); /* underscores inside either name */
    expect("__MOD_x", "__MOD_x", 0);        /* no module name */
    expect("__m_MOD_", "__m_MOD_", 0);      /* no procedure */
    expect("main", "main", 0);
    expect("heavy.constprop.0", "heavy.constprop.0", 0);
    expect("_Z", "_Z", 0); /* not a valid mangling: copied */
    /* flang-new's names. */
    expect("_QQmain", "main", 1);
    expect("_QPsolve_it", "solve_it", 1);
    expect("_QMgridPstep2", "grid::step2", 1);
    expect("_QMgridFstepPinner", "grid::step::inner", 1);
    expect("_QFhostPinner", "host::inner", 1);
    expect("_QQcl.48656C6C6F", "_QQcl.48656C6C6F", 0); /* a compiler-made literal: copied */
    expect("_QMgrid", "grid", 1);                      /* a module's own name */
    expect("_QXfoo", "_QXfoo", 0);                     /* an unknown tag: copied */
    void *cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (cxx || dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)) {
        expect("_ZN6shapes6Crunch3runEd", "shapes::Crunch::run(double)", 1);
        expect("_ZN5ranks9wait_hereEi", "ranks::wait_here(int)", 1);
    } else {
        printf("SKIPPED the C++ names: no libstdc++.so.6 here\n");
    }
    /* A short buffer: cut and terminated. */
    char small[8];
    memset(small, 'z', sizeof small);
    papi_demangle("__ranked_MOD_crunch", small, sizeof small);
    CHECK(strcmp(small, "ranked:") == 0, "short buffer: '%.8s'", small);
    CHECK(papi_demangle("main", small, 0) == 0 && small[0] == 'r', "size 0 wrote");
    return test_done("test_demangle");
}
