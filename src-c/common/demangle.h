/* demangle.h: a symbol's name as its source reads it (demangle.c), shared by the
 * library's region sampling, the MPI wrapper's sampling and the tools. Not installed. */
#ifndef PAPI_DEMANGLE_H
#define PAPI_DEMANGLE_H

#include <stddef.h>

/* sym as a person reads it into out (len bytes, always terminated): gfortran's module
 * procedure __mod_MOD_proc as mod::proc, flang-new's _QMmodPproc as mod::proc (_QPproc
 * as proc, _QQmain as main), a C++ name (_Z...) through the C++ runtime's
 * __cxa_demangle when one can be loaded; anything else copied. Returns 1 when the name was
 * rewritten, 0 when copied as it is. Not signal-safe (may load libstdc++ once). */
__attribute__((visibility("hidden"))) int papi_demangle(const char *sym, char *out, size_t len);

#endif
