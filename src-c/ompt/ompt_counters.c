/* ompt_counters.c: each OpenMP thread's events over its implicit tasks (ompt_counters.h),
 * through libpapi: the tool's one use of it, only when events are named. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env.h"
#include "mono_clock.h"
#include "ompt_counters.h"
#include "papi.h"

int ompt_counters_n;
static char names[OMPT_EVENTS_MAX][PAPI_2MAX_STR_LEN];
static const char *source = "";
static char reason[OMPT_EVENTS_MAX * (PAPI_2MAX_STR_LEN + 64)];
static atomic_ullong threads_counted, threads_not_counted;
static uint64_t read_ns; /* one read's cost, measured at the start (counters.read_ns) */

static void add_reason(const char *what, const char *why)
{
    size_t n = strlen(reason);
    snprintf(reason + n, sizeof reason - n, "%s%s: %s", n ? "; " : "", what, why);
}

/* A set of the calling thread's own, attached to it, with the events that can be added
 * (all of them, or with check set: keeps the names that can, says the others). */
static int make_set(int check)
{
    int set = PAPI_NULL;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (PAPI_create_eventset(&set) != PAPI_OK)
        return PAPI_NULL;
    if (PAPI_assign_eventset_component(set, 0) != PAPI_OK ||
        PAPI_attach(set, (unsigned long)tid) != PAPI_OK) {
        PAPI_destroy_eventset(&set);
        return PAPI_NULL;
    }
    int kept = 0;
    for (int i = 0; i < ompt_counters_n; i++) {
        int ret = PAPI_add_named_event(set, names[i]);
        if (ret != PAPI_OK && !check) {
            PAPI_cleanup_eventset(set);
            PAPI_destroy_eventset(&set);
            return PAPI_NULL;
        }
        if (ret != PAPI_OK) {
            fprintf(stderr, "papi_ompt: %s (%s): %s: not counted per thread\n", names[i], source,
                    PAPI_strerror(ret));
            add_reason(names[i], PAPI_strerror(ret));
        } else if (kept++ != i) {
            memcpy(names[kept - 1], names[i], sizeof names[i]);
        }
    }
    if (check) /* the initial thread's check, before the workers start: they only read it */
        ompt_counters_n = kept;
    return set;
}

static void parse(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
        if (ompt_counters_n == OMPT_EVENTS_MAX) {
            fprintf(stderr,
                    "papi_ompt: %s names more than %d events: %s and those after it "
                    "are not counted per thread\n",
                    source, OMPT_EVENTS_MAX, t);
            add_reason(t, "past the events counted per thread (8)");
            break;
        }
        snprintf(names[ompt_counters_n++], sizeof names[0], "%s", t);
    }
    free(copy);
}

/* What one read of a thread's set costs (the table's counters.read_ns, the banner's cost
 * line): the initial thread's probe, a set like each worker's, read 32 times after 4 that
 * warm it up. */
static void measure_read(int set)
{
    long long v[OMPT_EVENTS_MAX];
    if (ompt_counters_n == 0 || PAPI_start(set) != PAPI_OK)
        return;
    for (int i = 0; i < 4; i++)
        PAPI_read(set, v);
    uint64_t t0 = mono_clock_ns();
    for (int i = 0; i < 32; i++)
        PAPI_read(set, v);
    read_ns = (mono_clock_ns() - t0 + 16) / 32;
    PAPI_stop(set, v);
}

int ompt_counters_start(void)
{
    const char *list = env_get("PAPI_OMPT_EVENTS");
    source = "PAPI_OMPT_EVENTS";
    if (!list || !*list) {
        list = env_get("PAPI_EVENTS");
        source = "PAPI_EVENTS";
    }
    if (!list || !*list) {
        source = "";
        return 0;
    }
    parse(list);
    /* The tool's start, not the program's (its PAPI_is_initialized), and no
     * PAPI_thread_init: the thread id function is the program's (PAPI_thread_id, its
     * region file's thread numbers); each set counts its thread without one. */
    int ret = PAPI_tool_init(PAPI_VER_CURRENT);
    if (ret != PAPI_VER_CURRENT) {
        fprintf(stderr, "papi_ompt: the library cannot start (%s): no counters per thread\n",
                PAPI_strerror(ret < 0 ? ret : PAPI_EINVAL));
        add_reason("the library cannot start", PAPI_strerror(ret < 0 ? ret : PAPI_EINVAL));
        ompt_counters_n = 0;
        return 0;
    }
    int probe = make_set(1); /* the initial thread's check of every event */
    if (probe == PAPI_NULL) {
        fprintf(stderr, "papi_ompt: no event set can be attached to a thread here: no counters "
                        "per thread\n");
        add_reason("event sets", "none can be attached to a thread here");
        ompt_counters_n = 0;
        return 0;
    }
    measure_read(probe);
    PAPI_cleanup_eventset(probe);
    PAPI_destroy_eventset(&probe);
    return ompt_counters_n;
}

void ompt_counters_thread(struct ompt_thread *th)
{
    if (ompt_counters_n == 0 || th->counters != 0)
        return;
    th->eventset = make_set(0);
    th->counters = th->eventset != PAPI_NULL && PAPI_start(th->eventset) == PAPI_OK ? 1 : -1;
    atomic_fetch_add(th->counters == 1 ? &threads_counted : &threads_not_counted, 1);
}

/* Twice per region and thread: the counting thread's test first, so that the read is all
 * it costs (the set made at the thread's first read only where thread_begin did not). */
int ompt_counters_read(struct ompt_thread *th, uint64_t *v)
{
    if (__builtin_expect(th->counters != 1, 0)) {
        ompt_counters_thread(th);
        if (th->counters != 1)
            return -1;
    }
    return PAPI_read(th->eventset, (long long *)v) == PAPI_OK ? 0 : -1;
}

void ompt_counters_release(struct ompt_thread *th)
{
    if (th->counters == 1) {
        long long ignored[OMPT_EVENTS_MAX];
        PAPI_stop(th->eventset, ignored);
        PAPI_cleanup_eventset(th->eventset);
        PAPI_destroy_eventset(&th->eventset);
    }
    th->counters = 0;
}

void ompt_counters_describe(struct ompt_counters_info *info)
{
    info->source = source;
    info->nevents = ompt_counters_n;
    for (int i = 0; i < ompt_counters_n; i++)
        info->names[i] = names[i];
    info->reason = reason;
    info->threads_counted = atomic_load(&threads_counted);
    info->threads_not_counted = atomic_load(&threads_not_counted);
    info->read_ns = read_ns;
}
