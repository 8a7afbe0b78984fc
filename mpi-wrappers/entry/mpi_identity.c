/* mpi_identity.c: is the MPI the program runs the one this library was built for?
 * MPICH and Open MPI differ in their ABI (MPI_Comm is an int in one, a pointer in the
 * other), so a wrapper of one loaded into a program of the other would crash in its
 * first call, and even forwarding a call unchanged is unsafe (a pointer handle passed
 * through an int parameter loses its upper half). So nothing of this library may run
 * once the mismatch is known. At load time, before the program's main, the running MPI
 * names itself (PMPI_Get_library_version: callable before MPI_Init, and its (char *,
 * int *) arguments are the same in every ABI). When it is the other family, one line
 * names both and the wrapper to use instead, and the process runs itself again (same
 * pid, arguments and environment) with this library out of the way: the running MPI's
 * own libraries preloaded ahead of the program's LD_PRELOAD, so the program's MPI calls
 * bind to them ahead of this library (preloaded or linked), which stays loaded but is
 * never called. Staying loaded, it restores the environment in the rerun before main:
 * LD_PRELOAD as the user set it and no marker, for the program and its children.
 * The rerun checks that the MPI entry points indeed resolve elsewhere; when they do
 * not, or the program cannot be run again, nothing safe remains: a second line says
 * why and the process ends before main (exit status 1), never in a crash. */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "env.h"

#if defined(OMPI_MAJOR_VERSION)
#define BUILT_FOR    "Open MPI"
#define OTHER_FLAVOR "mpich"
#elif defined(MPICH_VERSION)
#define BUILT_FOR    "MPICH"
#define OTHER_FLAVOR "openmpi"
#else
#error "mpi_identity.c knows MPICH and Open MPI"
#endif

/* The running MPI writes up to its own MPI_MAX_LIBRARY_VERSION_STRING, which need not
 * be the one of the mpi.h this file is compiled with: MPICH's is 8192 (it writes about
 * 2 KB), Open MPI's 256. The buffer takes the largest known, whatever mpi.h says. */
#define VERSION_MAX 8192
#if MPI_MAX_LIBRARY_VERSION_STRING > VERSION_MAX
#define VERSION_LEN (MPI_MAX_LIBRARY_VERSION_STRING + 1)
#else
#define VERSION_LEN (VERSION_MAX + 1)
#endif

/* Set in the rerun: the original LD_PRELOAD ("=value", or "-" when it was unset). */
#define RERUN_VAR   "PAPI_MPI_WRONG_MPI_RERUN"
#define PRELOAD_LEN 16384

typedef int (*version_fn)(char *, int *);

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

static int same_object(const void *addr, const void *base)
{
    Dl_info i;
    return addr && dladdr(addr, &i) && i.dli_fbase == base;
}

/* Appends "entry" to a ':'-separated list; 0 when it does not fit. */
static int append(char *out, size_t len, const char *entry)
{
    size_t used = strlen(out);
    int n = snprintf(out + used, len - used, "%s%s", used ? ":" : "", entry);
    return n >= 0 && (size_t)n < len - used;
}

/* The running MPI's loaded objects: its library (the definition of `probe`) and every
 * other one reaching the same definition through its own dependencies (the MPI's
 * Fortran bindings, say), never this library. Appended to out; ok = 0 when one cannot
 * be preloaded (a name with ':' or ' ', or no room). */
struct mpi_objects {
    version_fn probe;
    const char *self_path;
    char *out;
    size_t len;
    int ok;
};

static int mpi_object_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct mpi_objects *m = arg;
    (void)size;
    const char *name = info->dlpi_name;
    if (!name || !name[0] || strcmp(name, m->self_path) == 0)
        return 0; /* the program itself, this library (a relative name stays valid: the
                   * rerun keeps the working directory) */
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    if ((version_fn)dlsym(h, "PMPI_Get_library_version") == m->probe &&
        (strpbrk(name, ": ") || !append(m->out, m->len, name)))
        m->ok = 0;
    dlclose(h);
    return 0;
}

/* The loaded MPI libraries (objects defining PMPI_Get_library_version themselves):
 * this library's own MPI is among them (a dependency), and a program of the other
 * MPI brings its own, which may come first or later in the lookup order (a Fortran
 * program reaches its MPI through its Fortran bindings, one level deeper). The first
 * of a known family other than BUILT_FOR is taken. */
struct other_mpi {
    version_fn get;
    char *version;
    size_t len;
};

static int other_mpi_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct other_mpi *o = arg;
    (void)size;
    const char *name = info->dlpi_name;
    if (o->get || !name || !name[0])
        return 0;
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    version_fn get = (version_fn)dlsym(h, "PMPI_Get_library_version");
    Dl_info where;
    int len = 0;
    if (get && dladdr((void *)get, &where) && strcmp(where.dli_fname, name) == 0 &&
        get(o->version, &len) == 0) {
        o->version[o->len - 1] = '\0';
        const char *f = family(o->version);
        if (f && strcmp(f, BUILT_FOR) != 0)
            o->get = get;
    }
    dlclose(h);
    return 0;
}

/* In the rerun: do the program's MPI entry points now reach something else? The C
 * ones always; a Fortran one when a Fortran binding after this library defines it. */
static int out_of_the_way(const void *self_base)
{
    static const char *const c_names[] = {"MPI_Init", "MPI_Init_thread", "MPI_Finalize"};
    static const char *const f_names[] = {"mpi_init_", "mpi_init_thread_", "mpi_init_f08_",
                                          "mpi_finalize_", "mpi_send_"};
    for (size_t i = 0; i < sizeof c_names / sizeof c_names[0]; i++)
        if (same_object(dlsym(RTLD_DEFAULT, c_names[i]), self_base))
            return 0;
    for (size_t i = 0; i < sizeof f_names / sizeof f_names[0]; i++)
        if (same_object(dlsym(RTLD_DEFAULT, f_names[i]), self_base) && dlsym(RTLD_NEXT, f_names[i]))
            return 0;
    return 1;
}

static int first_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = env_get(vars[i]);
        if (v)
            return atoi(v) == 0;
    }
    return 1;
}

static void give_up(const char *name, const char *why)
{
    if (first_rank())
        fprintf(stderr,
                "papi_mpi: %s: %s; the program is stopped before it starts (exit "
                "status 1) rather than run into the wrong MPI's wrappers\n",
                name, why);
    fflush(NULL);
    _exit(1);
}

/* The rerun, before main: LD_PRELOAD as the user set it and no marker (the program and
 * its children see no change), and this library never reached. */
static void rerun_check(const char *marker, const char *name, const void *self_base)
{
    if (marker[0] == '=')
        setenv("LD_PRELOAD", marker + 1, 1);
    else
        unsetenv("LD_PRELOAD");
    unsetenv(RERUN_VAR);
    if (!out_of_the_way(self_base))
        give_up(name, "run again with the running MPI's libraries preloaded, its MPI calls "
                      "still reach this library");
}

/* Runs the program again with the running MPI's objects preloaded first (this library,
 * preloaded or linked, then loses to them), then the program's own LD_PRELOAD entries,
 * this library among them when it was preloaded: it stays loaded to hand the
 * environment back in the rerun (rerun_check). Returns only through give_up. */
static void run_again(version_fn get, const char *name, const char *self_path, char **argv)
{
    static char preload[PRELOAD_LEN], saved[PRELOAD_LEN + 1];
    /* A privileged program (setuid, file capabilities) ignores LD_PRELOAD paths and
     * reads no marker: it would run itself again without end. */
    if (getauxval(AT_SECURE))
        give_up(name, "a privileged program (AT_SECURE) is not run again");
    const char *pre = env_get("LD_PRELOAD");
    struct mpi_objects m = {get, self_path, preload, sizeof preload, 1};
    dl_iterate_phdr(mpi_object_cb, &m);
    if (!m.ok || !preload[0])
        give_up(name, "the running MPI's libraries cannot be named in LD_PRELOAD");
    if (pre && (strlen(pre) >= PRELOAD_LEN || (*pre && !append(preload, sizeof preload, pre))))
        give_up(name, "LD_PRELOAD too long to run the program again");
    snprintf(saved, sizeof saved, "%s%s", pre ? "=" : "-", pre ? pre : "");
    if (setenv(RERUN_VAR, saved, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0)
        give_up(name, "the environment of the rerun cannot be set");
    fflush(NULL);
    execv("/proc/self/exe", argv);
    int err = errno;
    const char *execfn = (const char *)getauxval(AT_EXECFN); /* no /proc: the path run */
    if (execfn)
        execv(execfn, argv);
    char why[256];
    snprintf(why, sizeof why, "cannot run the program again (execv: %s)", strerror(err));
    give_up(name, why);
}

/* glibc passes (argc, argv, envp) to the constructors of every object it loads. */
__attribute__((constructor)) static void check_mpi_identity(int argc, char **argv, char **envp)
{
    static char version[VERSION_LEN];
    Dl_info self;
    (void)argc;
    (void)envp;
    if (!dladdr((void *)check_mpi_identity, &self))
        return;
    struct other_mpi o = {NULL, version, sizeof version};
    dl_iterate_phdr(other_mpi_cb, &o);
    if (!o.get)
        return; /* only this library's own MPI (or none we know) */
    version[strcspn(version, "\n,")] = '\0'; /* "Open MPI v4.1.4, package: ..." */
    for (char *c = version; *c; c++)
        if (*c == '\t') /* "MPICH Version:\t4.0.2" */
            *c = ' ';
    char path[4096];
    snprintf(path, sizeof path, "%s", self.dli_fname);
    char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *marker = env_get(RERUN_VAR);
    if (marker) {
        rerun_check(marker, name, self.dli_fbase);
        return;
    }
    if (first_rank())
        fprintf(stderr,
                "papi_mpi: %s is built for %s but this program runs %s: nothing "
                "recorded; use %.*s/libpapi_mpi_%s.so\n",
                name, BUILT_FOR, version, slash ? (int)(slash - path) : 1, slash ? path : ".",
                OTHER_FLAVOR);
    run_again(o.get, name, self.dli_fname, argv);
}
