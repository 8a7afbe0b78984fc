/* str_append.h: the one bounded way the library and the tools build a message in a fixed
 * buffer piece by piece (lists of names, reasons with parts). Every piece is appended
 * with str_appendf: whatever fits is kept, the string stays terminated, and a cut string
 * ends with STR_CUT_MARK so a reader sees that it was cut. Never `p += snprintf(...)`:
 * snprintf returns what it would have written, and an offset past the end writes there. */
#ifndef PAPI_STR_APPEND_H
#define PAPI_STR_APPEND_H

#include <stdarg.h>
#include <stddef.h>

#define STR_CUT_MARK "..."

/* Append printf-style text to the string held in buf (size bytes; buf[0] = '\0' starts an
 * empty one). Returns 0 when the text fit whole, -1 when it was cut (or size is 0). */
__attribute__((visibility("hidden"), format(printf, 3, 4))) int str_appendf(char *buf, size_t size,
                                                                            const char *fmt, ...);

/* A message of any length on the heap: *dst = the formatted text, whole (the old one
 * freed); NULL when out of memory. */
__attribute__((visibility("hidden"), format(printf, 2, 3))) void str_setf(char **dst,
                                                                          const char *fmt, ...);
/* The same with the caller's arguments (a variadic wrapper that sets its own field). */
__attribute__((visibility("hidden"), format(printf, 2, 0))) void str_vsetf(char **dst,
                                                                           const char *fmt,
                                                                           va_list ap);

#endif
