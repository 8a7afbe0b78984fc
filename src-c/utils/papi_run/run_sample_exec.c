/* run_sample_exec.c: the exec family wrapped in libpapi_run_sample.so (run_sample.h). An
 * exec replaces the process image without running its destructors, so the samples its
 * drain thread had not yet written would be lost: each wrapper first has the image's
 * profile written (rs_before_exec), then calls libc's own function; the new image loads
 * the library again and starts a profile of its own. Should the exec fail, sampling goes
 * on (rs_exec_failed). libc's execvp and execl reach execve inside libc, past these
 * wrappers: each is wrapped itself, and the list forms are turned into arrays here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "run_sample.h"
#include "run_sample_preload.h"

#define RS_EXEC_ARGS 4096 /* arguments of execl, execlp and execle taken at most */

typedef int (*exec_path_fn)(const char *, char *const[]);
typedef int (*exec_env_fn)(const char *, char *const[], char *const[]);

static void *next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* After libc's function returned (the exec failed): sampling on, errno kept. */
static int failed(int sampled, int ret)
{
    int err = errno;
    if (sampled)
        rs_exec_failed();
    errno = err;
    return ret;
}

static int call_path(const char *name, const char *file, char *const argv[])
{
    exec_path_fn real = (exec_path_fn)next(name);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    int sampled = rs_before_exec();
    return failed(sampled, real(file, argv));
}

static int call_env(const char *name, const char *file, char *const argv[], char *const envp[])
{
    exec_env_fn real = (exec_env_fn)next(name);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    int sampled = rs_before_exec();
    return failed(sampled, real(file, argv, envp));
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    return call_env("execve", path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
    return call_path("execv", path, argv);
}

int execvp(const char *file, char *const argv[])
{
    return call_path("execvp", file, argv);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return call_env("execvpe", file, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
    int (*real)(int, char *const[], char *const[]) =
        (int (*)(int, char *const[], char *const[]))next("fexecve");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    int sampled = rs_before_exec();
    return failed(sampled, real(fd, argv, envp));
}

/* The list after arg0, up to its NULL, into argv (with arg0 first); envp: execle's
 * environment after the NULL. -1 (E2BIG) past RS_EXEC_ARGS. */
static int gather(const char *arg0, va_list ap, char **argv, char ***envp)
{
    int n = 0;
    argv[n++] = (char *)arg0;
    while (arg0 && (argv[n] = va_arg(ap, char *)) != NULL)
        if (++n == RS_EXEC_ARGS) {
            errno = E2BIG;
            return -1;
        }
    argv[n] = NULL;
    if (envp)
        *envp = va_arg(ap, char **);
    return 0;
}

int execl(const char *path, const char *arg0, ...)
{
    char *argv[RS_EXEC_ARGS + 1];
    va_list ap;
    va_start(ap, arg0);
    int ok = gather(arg0, ap, argv, NULL);
    va_end(ap);
    return ok == 0 ? call_path("execv", path, argv) : -1;
}

int execlp(const char *file, const char *arg0, ...)
{
    char *argv[RS_EXEC_ARGS + 1];
    va_list ap;
    va_start(ap, arg0);
    int ok = gather(arg0, ap, argv, NULL);
    va_end(ap);
    return ok == 0 ? call_path("execvp", file, argv) : -1;
}

int execle(const char *path, const char *arg0, ...)
{
    char *argv[RS_EXEC_ARGS + 1], **envp = environ;
    va_list ap;
    va_start(ap, arg0);
    int ok = gather(arg0, ap, argv, &envp);
    va_end(ap);
    return ok == 0 ? call_env("execve", path, argv, envp) : -1;
}
