/* warn_once.h: one warning line on stderr, said once per process for each flag, for what
 * the library and the tools decline to do on their own (a variable ignored in a
 * privileged process, a recorded machine's file that is not read) and would otherwise
 * leave unexplained. The line reads as the library's other warnings ("PAPI Warning: "). */
#ifndef PAPI_WARN_ONCE_H
#define PAPI_WARN_ONCE_H

#include <stdatomic.h>

/* Print the line unless *said was already set (set it). */
__attribute__((visibility("hidden"), format(printf, 2, 3))) void warn_once(atomic_int *said,
                                                                           const char *fmt, ...);

#endif
