/* warn_once.c: warnings said once per process (warn_once.h). */
#include "warn_once.h"

#include <stdarg.h>
#include <stdio.h>

void warn_once(atomic_int *said, const char *fmt, ...)
{
    if (atomic_exchange(said, 1))
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "PAPI Warning: %s\n", line);
}
