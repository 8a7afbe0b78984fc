/* profile_hist: a PC histogram with PAPI_profil. The whole text segment of the
 * program (PAPI_get_executable_info) is the profiled region, one 16-bit bucket per
 * two bytes of code (scale 0x10000, so bufsiz = text length). After the run every
 * non-empty bucket is mapped back to a function name with dladdr (the example is
 * linked with -rdynamic) and the totals are printed per function.
 *
 *   profile_hist [EVENT [THRESHOLD]]     default: perf::PAGE-FAULTS every 20
 * With no PMU, perf::TASK-CLOCK 1000000 profiles CPU time through the software timer
 * (the library falls back only when asked: add PAPI_PROFIL_FORCE_SW yourself if the
 * event cannot sample). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi.h"

__attribute__((noinline)) void first_touch(long pages)
{
    long page = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    madvise((void *)p, (size_t)(pages * page), MADV_NOHUGEPAGE); /* 4 KiB pages: a fault each */
    for (long i = 0; i < pages; i++)
        p[i * page] = 1;
    munmap((void *)p, (size_t)(pages * page));
}

__attribute__((noinline)) void copy_buffers(long pages)
{
    size_t n = (size_t)(pages * sysconf(_SC_PAGESIZE));
    char *a = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *b = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a != MAP_FAILED && b != MAP_FAILED) {
        memset(a, 7, n);
        memcpy(b, a, n);
    }
    if (a != MAP_FAILED)
        munmap(a, n);
    if (b != MAP_FAILED)
        munmap(b, n);
}

int main(int argc, char **argv)
{
    const char *event = argc > 1 ? argv[1] : "perf::PAGE-FAULTS";
    int threshold = argc > 2 ? atoi(argv[2]) : 20;
    int es = PAPI_NULL, code, ret;

    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    if (!exe) {
        fprintf(stderr, "no executable information\n");
        return 1;
    }
    uintptr_t start = (uintptr_t)exe->address_info.text_start;
    uintptr_t end = (uintptr_t)exe->address_info.text_end;
    unsigned bufsiz = (unsigned)(end - start); /* (end-start)*(2/2)*(0x10000/65536) */
    unsigned short *buf = calloc(1, bufsiz);
    if ((ret = PAPI_create_eventset(&es)) != PAPI_OK ||
        (ret = PAPI_event_name_to_code(event, &code)) != PAPI_OK ||
        (ret = PAPI_add_event(es, code)) != PAPI_OK ||
        (ret = PAPI_profil(buf, bufsiz, (vptr_t)start, 0x10000, es, code, threshold,
                           PAPI_PROFIL_POSIX | PAPI_PROFIL_BUCKET_16)) != PAPI_OK) {
        fprintf(stderr, "cannot profile %s: %s\n", event, PAPI_strerror(ret));
        return 1;
    }
    long long count;
    PAPI_start(es);
    first_touch(4000);
    copy_buffers(1000);
    PAPI_stop(es, &count);
    /* Threshold 0 turns profiling off and frees what the library allocated. */
    PAPI_profil(buf, bufsiz, (vptr_t)start, 0x10000, es, code, 0, 0);

    printf("%s: %lld events, profiled every %d, text %#lx-%#lx (%s)\n", event, count, threshold,
           (unsigned long)start, (unsigned long)end, exe->fullname);
    printf("%-24s %-18s %7s\n", "function", "first bucket addr", "samples");
    const char *current = NULL;
    unsigned long total = 0, all = 0;
    uintptr_t first = 0;
    for (unsigned i = 0; i <= bufsiz / 2; i++) {
        const char *name = NULL;
        if (i < bufsiz / 2 && buf[i]) {
            Dl_info info;
            name = dladdr((void *)(start + 2 * (uintptr_t)i), &info) && info.dli_sname
                       ? info.dli_sname : "(no symbol)";
        }
        if (current && (!name || strcmp(name, current) != 0)) {
            printf("%-24.24s %#-18lx %7lu\n", current, (unsigned long)first, total);
            current = NULL;
        }
        if (name && !current) {
            current = name;
            first = start + 2 * (uintptr_t)i;
            total = 0;
        }
        if (name) {
            total += buf[i];
            all += buf[i];
        }
    }
    printf("%lu samples in the program's text, about %lld elsewhere (shared libraries such "
           "as libc's memcpy are outside the profiled region)\n",
           all, count / threshold - (long long)all);
    free(buf);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    return all > 0 ? 0 : 1;
}
