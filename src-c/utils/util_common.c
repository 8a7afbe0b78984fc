/* util_common.c: start-up, help detection, error details and text wrapping. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_SET, pthread_attr_setaffinity_np */
#endif
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"

/* The hardware description (hwloc reading sysfs: a large part of a short utility's run
 * time) can load on a second thread while the main one resolves events; the header
 * joins it. Only utilities with work to overlap ask for it, and none that measures. */
static pthread_t hw_thread;
static int hw_thread_running;

static void *load_hardware_info(void *unused)
{
    (void)unused;
    PAPI_get_hardware_info();
    return NULL;
}

static void join_hardware_info(void)
{
    if (hw_thread_running) {
        pthread_join(hw_thread, NULL);
        hw_thread_running = 0;
    }
}

/* On another CPU than this thread's: left to the scheduler, the new thread often starts
 * on this CPU and the two take turns instead of running side by side. Only on machines
 * of BACKGROUND_MIN_CPUS or more, where hwloc has many CPUs' files to read: with a
 * second thread alive every copy-on-write fault of the start-up (libpfm4 initialising
 * its tables) costs a TLB shootdown, and on 2 CPUs papi_avail took 0.66 ms longer with
 * the thread than without (median of 150 alternated runs). */
#define BACKGROUND_MIN_CPUS 8
void util_load_hardware_info_in_background(void)
{
    if (hw_thread_running)
        return;
    cpu_set_t allowed, other;
    int here = sched_getcpu();
    if (here < 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
        CPU_COUNT(&allowed) < BACKGROUND_MIN_CPUS)
        return;
    CPU_CLR(here, &allowed);
    CPU_ZERO(&other);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed)) {
            CPU_SET(c, &other);
            break;
        }
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setaffinity_np(&attr, sizeof other, &other);
    hw_thread_running = pthread_create(&hw_thread, &attr, load_hardware_info, NULL) == 0;
    pthread_attr_destroy(&attr);
    /* Joined before exit, so the process never ends in the middle of hwloc. */
    if (hw_thread_running)
        atexit(join_hardware_info);
}

const PAPI_hw_info_t *util_hardware_info(void)
{
    join_hardware_info();
    return PAPI_get_hardware_info();
}

const PAPI_hw_info_t *util_require_hardware_info(const char *prog)
{
    const PAPI_hw_info_t *hw = util_hardware_info();
    if (!hw)
        fprintf(stderr, "%s: PAPI_get_hardware_info returned no hardware description\n", prog);
    return hw;
}

int util_start_json_only(int argc, char **argv, const char *prog, const char *usage, int *json)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    *json = 0;
    util_options(prog, usage);
    while ((c = util_getopt(argc, argv, "", longopts)) != -1)
        *json |= c == UTIL_OPT_JSON;
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
    return util_init(prog) ? -1 : 1;
}

int util_hardware_main(int argc, char **argv, const char *prog, const char *usage,
                       void (*text)(const PAPI_hw_info_t *), void (*json)(const PAPI_hw_info_t *))
{
    int as_json;
    int status = util_start_json_only(argc, argv, prog, usage, &as_json);
    if (status >= 0)
        return status;
    const PAPI_hw_info_t *hw = util_require_hardware_info(prog);
    if (!hw)
        return 1;
    (as_json ? json : text)(hw);
    return 0;
}

int util_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int util_init(const char *prog)
{
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    if (r == PAPI_VER_CURRENT)
        return 1;
    char why[PAPI_HUGE_STR_LEN];
    util_error_detail(r, why, sizeof why);
    fprintf(stderr, "%s: PAPI_library_init failed: %s\n", prog, why);
    return 0;
}

char *util_error_detail_dup(int code)
{
    /* The library's reason for this thread's last failure, whole (PAPI_strerror_detail). */
    const char *why = PAPI_strerror_detail();
    if (why && why[0])
        return strdup(why);
    const char *s = PAPI_strerror(code);
    return strdup(s ? s : "unknown error");
}

void util_error_detail(int code, char *buf, size_t len)
{
    char *text = util_error_detail_dup(code);
    snprintf(buf, len, "%s", text ? text : "unknown error (no memory for the detail)");
    free(text);
}

void util_print_hanging(FILE *f, const char *first, const char *rest, const char *text, int width)
{
    const char *indent = first;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int avail = width - (int)strlen(indent);
        if (avail < 20)
            avail = 20;
        int take = (int)strlen(p);
        if (take > avail) {
            take = avail;
            while (take > 0 && p[take] != ' ')
                take--;
            if (take == 0)
                take = avail; /* one word longer than the line */
        }
        fprintf(f, "%s%.*s\n", indent, take, p);
        p += take;
        indent = rest;
    }
}

void util_print_wrapped(FILE *f, const char *indent, const char *text, int width)
{
    util_print_hanging(f, indent, indent, text, width);
}

void util_version_string(char *buf, size_t len)
{
    int v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
    snprintf(buf, len, "%d.%d.%d.%d", PAPI_VERSION_MAJOR(v), PAPI_VERSION_MINOR(v),
             PAPI_VERSION_REVISION(v), PAPI_VERSION_INCREMENT(v));
}
