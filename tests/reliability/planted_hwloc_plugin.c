/* planted_hwloc_plugin.c: what a local user could plant for a privileged program: a file
 * named like an hwloc plugin (hwloc_planted.so) whose constructor runs as soon as hwloc
 * dlopens it, and leaves a mark (the file PLANTED_MARKER names) saying it ran.
 * check_secure_hwloc.sh expects the mark from an ordinary process and none from a
 * setcap'd one; check_secure_sde.sh plants it for papi_native_avail -sde the same way. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void planted(void)
{
    const char *mark = getenv("PLANTED_MARKER");
    if (!mark)
        return;
    int fd = open(mark, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0) {
        (void)!write(fd, "ran\n", 4);
        close(fd);
    }
}
