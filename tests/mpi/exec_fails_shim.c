/* exec_fails_shim: preloaded ahead of a wrapper library, makes execv fail (EACCES) so
 * check_wrong_mpi.py can see what the wrong-MPI check does when the program cannot be
 * run again. */
#include <errno.h>
#include <unistd.h>

int execv(const char *path, char *const argv[])
{
    (void)path;
    (void)argv;
    errno = EACCES;
    return -1;
}
