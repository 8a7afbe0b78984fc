/* test_unload_cycle.c: a tool that dlopens libpapi (a kokkos-tools connector, a Caliper
 * service, Python bindings), counts with overflow and dlcloses it must get its process
 * back as it was: the same signal actions, no POSIX timer, no descriptor, no memory.
 *
 *   test_unload_cycle LIBPAPI.so [cycles]     (default 200 cycles)
 *
 * Each cycle dlopens the library, initialises it, starts a set on perf::PAGE-FAULTS
 * with overflow and dlcloses it, alternating the ways a tool leaves:
 *   0  PAPI_stop + PAPI_shutdown, then dlclose;
 *   1  hardware overflow (the kernel's sampling descriptor) still live at dlclose;
 *   2  software overflow on a PAPI_DEF_ITIMER timer (ITIMER_REAL, SIGALRM) still live;
 *   3  software overflow on the default timer (the overflow signal), PAPI_shutdown
 *      without PAPI_stop.
 * After every dlclose the pages touched afterwards (and 30 ms of CPU and wall time) would
 * raise any overflow or timer left armed, into unmapped code. Then it checks: the
 * library is unmapped, SIGRTMIN+2 and SIGALRM have the actions they had before, no timer
 * is listed in /proc/self/timers, the descriptors are those of before, and the heap in
 * use (mallinfo2, glibc's per-thread cache off: ctest sets GLIBC_TUNABLES) has not grown
 * past the first cycle's. Last, in a child: PAPI_shutdown,
 * dlclose, raise(SIGRTMIN+2) must end the child with that signal (the default action). */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "heap_visible.h"
#include "papi.h"

static int failures;
#define FAIL(...) (fprintf(stderr, "FAIL: " __VA_ARGS__), fputc('\n', stderr), failures++)

struct api {
    void *lib;
    int (*library_init)(int);
    int (*create_eventset)(int *);
    int (*add_named_event)(int, const char *);
    int (*overflow)(int, int, int, int, PAPI_overflow_handler_t);
    int (*start)(int);
    int (*stop)(int, long long *);
    int (*set_opt)(int, PAPI_option_t *);
    int (*event_name_to_code)(const char *, int *);
    void (*shutdown)(void);
};

static int load(const char *path, struct api *a)
{
    a->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!a->lib) {
        FAIL("dlopen %s: %s", path, dlerror());
        return -1;
    }
#define SYM(field, name) *(void **)&a->field = dlsym(a->lib, name)
    SYM(library_init, "PAPI_library_init");
    SYM(create_eventset, "PAPI_create_eventset");
    SYM(add_named_event, "PAPI_add_named_event");
    SYM(overflow, "PAPI_overflow");
    SYM(start, "PAPI_start");
    SYM(stop, "PAPI_stop");
    SYM(set_opt, "PAPI_set_opt");
    SYM(event_name_to_code, "PAPI_event_name_to_code");
    SYM(shutdown, "PAPI_shutdown");
#undef SYM
    if (!a->library_init || !a->shutdown || !a->overflow || !a->set_opt) {
        FAIL("%s lacks a PAPI entry point", path);
        return -1;
    }
    return 0;
}

static volatile long handler_calls; /* lives in this program, which stays mapped */
static void on_overflow(int es, void *pc, long long vec, void *ctx)
{
    (void)es, (void)pc, (void)vec, (void)ctx;
    handler_calls++;
}

static void touch_pages(int n)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE); /* one fault per page, whatever THP says */
    for (int i = 0; i < n; i++)
        p[(long)i * pg] = 1;
    munmap(p, (size_t)(n * pg));
}

static volatile unsigned long burn_sink; /* keeps the loop from being optimised away */

static void burn(long ms) /* CPU time and wall time both advance */
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int i = 0; i < 10000; i++)
            burn_sink += (unsigned long)i;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* 1 = skip (no software event here), 0 = ran, -1 = failed. */
static int one_cycle(const char *path, int mode)
{
    struct api a;
    if (load(path, &a) != 0)
        return -1;
    if (a.library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        FAIL("PAPI_library_init failed");
        return -1;
    }
    int es = PAPI_NULL, code = 0, ret;
    if (mode == 2) {
        PAPI_option_t opt;
        memset(&opt, 0, sizeof opt);
        opt.itimer.itimer_num = ITIMER_REAL;
        opt.itimer.itimer_sig = SIGALRM;
        opt.itimer.ns = 1000000;
        if ((ret = a.set_opt(PAPI_DEF_ITIMER, &opt)) != PAPI_OK)
            FAIL("PAPI_set_opt(PAPI_DEF_ITIMER) returned %d", ret);
    }
    a.create_eventset(&es);
    if (a.add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK) {
        a.shutdown();
        dlclose(a.lib);
        return 1;
    }
    a.event_name_to_code("perf::PAGE-FAULTS", &code);
    int flags = mode >= 2 ? PAPI_OVERFLOW_FORCE_SW : 0;
    if ((ret = a.overflow(es, code, 5, flags, on_overflow)) != PAPI_OK)
        FAIL("PAPI_overflow (mode %d) returned %d", mode, ret);
    if ((ret = a.start(es)) != PAPI_OK)
        FAIL("PAPI_start (mode %d) returned %d", mode, ret);
    touch_pages(64);
    burn(mode >= 2 ? 15 : 0);
    if (mode == 0) {
        long long v;
        a.stop(es, &v);
        a.shutdown();
    } else if (mode == 3) {
        a.shutdown();
    }
    if (dlclose(a.lib) != 0)
        FAIL("dlclose: %s", dlerror());
    /* Anything still armed fires now, into code that is no longer there. */
    touch_pages(64);
    burn(30);
    return 0;
}

static int mapped(const char *path)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, base))
            found = 1;
    if (f)
        fclose(f);
    return found;
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1; /* the directory's own descriptor */
}

static int count_timers(void) /* -1: the kernel does not list them */
{
    FILE *f = fopen("/proc/self/timers", "r");
    if (!f)
        return -1;
    int n = 0;
    char line[256];
    while (fgets(line, sizeof line, f))
        n += strncmp(line, "ID:", 3) == 0;
    fclose(f);
    return n;
}

static int same_action(int sig, const struct sigaction *before)
{
    struct sigaction now;
    sigaction(sig, NULL, &now);
    return now.sa_handler == before->sa_handler && (now.sa_flags & SA_SIGINFO) ==
                                                       (before->sa_flags & SA_SIGINFO);
}

static void user_alarm(int sig) { (void)sig; }

static int default_action_in_child(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct api a;
        if (load(path, &a) != 0 || a.library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
            _exit(3);
        int es = PAPI_NULL, code = 0;
        a.create_eventset(&es);
        a.add_named_event(es, "perf::PAGE-FAULTS");
        a.event_name_to_code("perf::PAGE-FAULTS", &code);
        a.overflow(es, code, 5, 0, on_overflow);
        a.start(es);
        touch_pages(16);
        a.shutdown();
        dlclose(a.lib);
        raise(SIGRTMIN + 2);
        _exit(0); /* the signal was caught or ignored: wrong */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGRTMIN + 2) {
        FAIL("after PAPI_shutdown and dlclose, raise(SIGRTMIN+2) did not take the default "
             "action (child status 0x%x)", st);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBPAPI.so [cycles]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    int cycles = argc > 2 ? atoi(argv[2]) : 200;
    /* The program's own SIGALRM handler: PAPI_DEF_ITIMER borrows the signal, and must give
     * it back. SIGRTMIN+2 stays at its default. */
    signal(SIGALRM, user_alarm);
    struct sigaction rt_before, alrm_before;
    sigaction(SIGRTMIN + 2, NULL, &rt_before);
    sigaction(SIGALRM, NULL, &alrm_before);
    int fds_before = count_fds(), timers_before = count_timers();
    size_t heap_after_first = 0;
    int heap_ok = heap_visible("the heap over the cycles");
    for (int c = 0; c < cycles && failures == 0; c++) {
        int r = one_cycle(path, c % 4);
        if (r == 1) {
            printf("SKIPPED: perf::PAGE-FAULTS cannot be opened here (perf_event_open refused)\n");
            return 77;
        }
        if (mapped(path))
            FAIL("cycle %d: %s is still mapped after dlclose", c, path);
        if (!same_action(SIGRTMIN + 2, &rt_before))
            FAIL("cycle %d (mode %d): SIGRTMIN+2 still has the library's action", c, c % 4);
        if (!same_action(SIGALRM, &alrm_before))
            FAIL("cycle %d (mode %d): SIGALRM did not get the program's handler back", c, c % 4);
        int t = count_timers();
        if (t != timers_before)
            FAIL("cycle %d (mode %d): %d POSIX timers, %d before", c, c % 4, t, timers_before);
        int f = count_fds();
        if (f != fds_before)
            FAIL("cycle %d (mode %d): %d descriptors open, %d before", c, c % 4, f, fds_before);
        size_t heap = mallinfo2().uordblks;
        if (c == 3)
            heap_after_first = heap; /* every mode once: one-time allocations of libc/ld.so */
        else if (c > 3 && heap_ok && heap > heap_after_first + 16384)
            FAIL("cycle %d: heap in use %zu bytes, %zu after the first four cycles", c, heap,
                 heap_after_first);
    }
    if (handler_calls == 0)
        FAIL("no overflow was delivered while the sets ran: the cycles tested nothing");
    default_action_in_child(path);
    printf("%d dlopen/init/overflow/dlclose cycles; %ld overflow calls; %d descriptors, %d "
           "timers; heap %zu bytes after 4 cycles, %zu at the end\n",
           cycles, handler_calls, count_fds(), count_timers(), heap_after_first,
           mallinfo2().uordblks);
    if (failures) {
        printf("test_unload_cycle: FAILED (%d)\n", failures);
        return 1;
    }
    printf("test_unload_cycle: PASSED\n");
    return 0;
}
