/* libpfm_pic_streams.c: part of the libpfm.a this project installs (cmake/libpfm_pic.cmake).
 * Debian's libpfm.a is compiled as position-independent executable code: it reads the C
 * library's stderr and stdout PC-relative, as if they were copied into the program, which
 * a shared object cannot do. Its references are renamed to these two pointers, which live
 * inside the archive's one object and are set from the C library's before main (before any
 * constructor that could call pfm_initialize, whose messages go to stderr). */
#include <stdio.h>

FILE *papi_pfm_stderr;
FILE *papi_pfm_stdout;

__attribute__((constructor(101))) static void papi_pfm_streams(void)
{
    papi_pfm_stderr = stderr;
    papi_pfm_stdout = stdout;
}
