/* symbolize.h: names of this process's code addresses (symbolize.c). Not installed; not
 * signal-safe (reads the modules' files): at exit or report time only. */
#ifndef PAPI_SYMBOLIZE_H
#define PAPI_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "papi_sdk.h"

struct symbolizer;

/* The process's modules as mapped now (NULL: no memory). */
PAPI_INTERNAL struct symbolizer *sym_open(void);
/* How names are found: "libdw", or dladdr and why not libdw. */
PAPI_INTERNAL const char *sym_how(const struct symbolizer *s);
/* The function containing pc, or its address in hex when no symbol covers it. */
PAPI_INTERNAL void sym_name(struct symbolizer *s, uintptr_t pc, char *out, size_t len);
PAPI_INTERNAL void sym_close(struct symbolizer *s);

#endif
