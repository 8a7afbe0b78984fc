/* run_small_pages: run a program with transparent huge pages off for it (and its
 * children). The doc examples count page faults of memory their language's allocator
 * gives them (Fortran's allocate: no madvise there); where the kernel maps huge pages
 * "always" (Debian's default), one fault would map 2 MB and the counts the pages show
 * would not hold. Usage: run_small_pages PROGRAM [ARG...] */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: run_small_pages PROGRAM [ARG...]\n");
        return 2;
    }
    if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
        perror("run_small_pages: prctl(PR_SET_THP_DISABLE)"); /* Linux < 3.15: run anyway */
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    return 127;
}
