/* tls_align.c: every library built with src-c/common (libpapi, the OMPT tool, the MPI
 * wrapper) gets thread-local storage aligned to 64 bytes, so that LeakSanitizer's exit
 * check does not crash where the library is loaded by dlopen (the OMPT tool and its
 * libpapi, named by OMP_TOOL_LIBRARIES).
 *
 * Why: glibc gives a dlopen'd library's thread-local block to each thread from malloc
 * (ASan's, under a sanitizer) when its alignment is at most 16. The sanitizer runtime of
 * gcc 12 and clang 14 (Debian 12) guesses a block's extent from its address: one that
 * starts 16 bytes into a page is taken for glibc 2.19's layout and its "size" read from
 * the 16 bytes before it, which are ASan's chunk header. The leak check then scans
 * nothing that exists ("DTLS 5 at 0x00010000003f-0x001100001141", "Tracer caught signal
 * 11") and ends the program with status 1 before the libraries' destructors run: the
 * tool's report is lost. ASan's chunks put 16 bytes of header before the memory they give,
 * so a chunk that starts on a page gives exactly such a block (seen in libomp's worker
 * threads for libpapi's block). With an alignment above 16 glibc aligns the block itself
 * (a multiple of 64: never 16 into a page); the sanitizer then takes it as a block of
 * unknown size and skips it. */
#include <stdalign.h>

/* used: kept though nothing reads it (it only raises the TLS segment's alignment). */
__attribute__((used)) static _Thread_local alignas(64) char tls_align_64;
