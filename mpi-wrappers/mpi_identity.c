/* mpi_identity.c: is the MPI the program runs the one this library was built for?
 * MPICH and Open MPI differ in their ABI (MPI_Comm is an int in one, a pointer in the
 * other), so a wrapper of one loaded into a program of the other would crash in its
 * first call. At load time, before the program's main, the running MPI names itself
 * (PMPI_Get_library_version: callable before MPI_Init, and its (char *, int *)
 * arguments are the same in every ABI). When it is the other family and this library
 * came in through LD_PRELOAD, one line names both and the wrapper to use instead, and
 * the process runs itself again without this library (same pid, arguments and
 * environment): nothing is recorded and the program exits with its own status. */
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(OMPI_MAJOR_VERSION)
#define BUILT_FOR "Open MPI"
#define OTHER_FLAVOR "mpich"
#elif defined(MPICH_VERSION)
#define BUILT_FOR "MPICH"
#define OTHER_FLAVOR "openmpi"
#else
#error "mpi_identity.c knows MPICH and Open MPI"
#endif

/* The ABI family a library version string names, or NULL (then nothing is decided). */
static const char *family(const char *version)
{
    static const char *const mpich_like[] = {"MPICH", "MVAPICH", "Intel(R) MPI"};
    if (strstr(version, "Open MPI"))
        return "Open MPI";
    for (size_t i = 0; i < sizeof mpich_like / sizeof mpich_like[0]; i++)
        if (strstr(version, mpich_like[i]))
            return "MPICH";
    return NULL;
}

/* LD_PRELOAD without the entries naming this library (by file name); 1 if one did. */
static int preload_without(const char *self_name, char *out, size_t len)
{
    const char *pre = getenv("LD_PRELOAD");
    int found = 0;
    size_t used = 0;
    out[0] = '\0';
    if (!pre)
        return 0;
    char *copy = strdup(pre);
    for (char *save = NULL, *t = copy ? strtok_r(copy, " :", &save) : NULL; t;
         t = strtok_r(NULL, " :", &save)) {
        const char *base = strrchr(t, '/');
        if (strcmp(base ? base + 1 : t, self_name) == 0) {
            found = 1;
            continue;
        }
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
                                 used ? ":" : "", t);
    }
    free(copy);
    return found && used < len;
}

/* argv of this process from /proc/self/cmdline (NULL when it cannot be read). */
static char **own_argv(void)
{
    static char buf[1 << 16];
    static char *argv[1024];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0 || (size_t)n >= sizeof buf - 1)
        return NULL;
    buf[n] = '\0';
    int argc = 0;
    for (ssize_t i = 0; i < n && argc < 1023; i += (ssize_t)strlen(buf + i) + 1)
        argv[argc++] = buf + i;
    argv[argc] = NULL;
    return argv;
}

static int first_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v)
            return atoi(v) == 0;
    }
    return 1;
}

__attribute__((constructor)) static void check_mpi_identity(void)
{
    typedef int (*version_fn)(char *, int *);
    version_fn get = (version_fn)dlsym(RTLD_DEFAULT, "PMPI_Get_library_version");
    char version[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    int len = 0;
    Dl_info self;
    if (!get || get(version, &len) != 0 || !dladdr((void *)check_mpi_identity, &self))
        return;
    version[strcspn(version, "\n,")] = '\0'; /* "Open MPI v4.1.4, package: ..." */
    const char *running = family(version);
    if (!running || strcmp(running, BUILT_FOR) == 0)
        return;
    char path[4096], preload[8192];
    snprintf(path, sizeof path, "%s", self.dli_fname);
    const char *name = basename(path);
    int preloaded = preload_without(name, preload, sizeof preload);
    if (first_rank())
        fprintf(stderr, "papi_mpi: %s is built for %s but this program runs %s: nothing "
                        "recorded; use %s/libpapi_mpi_%s.so\n",
                name, BUILT_FOR, version, dirname(path), OTHER_FLAVOR);
    char **argv = preloaded ? own_argv() : NULL;
    if (!argv)
        return; /* linked in, not preloaded: the program must be relinked */
    if (preload[0])
        setenv("LD_PRELOAD", preload, 1);
    else
        unsetenv("LD_PRELOAD");
    fflush(NULL);
    execv("/proc/self/exe", argv);
    fprintf(stderr, "papi_mpi: could not run the program again without the wrapper\n");
}
