/* no_pty_shim: preloaded into mpirun, makes openpty fail, so Open MPI gives its ranks
 * pipes for stdout, as on a machine without pseudo-terminals (a container without
 * /dev/pts: stop 54's CI). check_banner_lines.py runs Open MPI's job so: a terminal
 * passes any write on in parts, even another rank's one-write line, so whole lines
 * can be promised only through a pipe. */
#include <errno.h>
#include <pty.h>

int openpty(int *amaster, int *aslave, char *name, const struct termios *termp,
            const struct winsize *winp)
{
    (void)amaster;
    (void)aslave;
    (void)name;
    (void)termp;
    (void)winp;
    errno = ENOENT;
    return -1;
}
