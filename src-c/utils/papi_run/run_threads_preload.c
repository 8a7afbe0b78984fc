/* run_threads_preload.c: libpapi_run_threads.so, which papi_run --per-thread preloads
 * into the program. Every thread (the main thread from the constructor, the others from
 * pthread_create, the main thread of a forked child from the fork handler) counts
 * PAPI_RUN_EVENTS with an event set of its own; at its end (thread exit, process exit)
 * it appends its block to the hand-over file PAPI_RUN_THREADS_FILE names, with one
 * O_APPEND write (form: run_threads_block.h). Threads still running at exit are read by
 * the exiting one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "mono_clock.h"
#include "papi.h"
#include "run_thread_hook.h"
#include "run_threads_block.h"

#define MAX_EVENTS 32
#define MAX_LIVE   1024

struct counted {
    int eventset;
    pid_t tid;
    long long start_ns;
    int live;
};

static char events[MAX_EVENTS][PAPI_2MAX_STR_LEN];
static const char *event_names[MAX_EVENTS]; /* events[k], for the blocks' name lines */
static int nevents, ready;
static const char *out_path;
static pthread_key_t key;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct counted *live[MAX_LIVE];

static long long now_ns(void)
{
    return (long long)mono_clock_ns();
}

static void remember(struct counted *c, int add)
{
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == (add ? NULL : c)) {
            live[i] = add ? c : NULL;
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

/* Thread c's block (run_threads_block.h), its counts read (and the set stopped when it is
 * the caller's). */
static void report(struct counted *c, int own)
{
    long long v[MAX_EVENTS] = {0};
    int ret = own ? PAPI_stop(c->eventset, v) : PAPI_read(c->eventset, v);
    if (ret != PAPI_OK)
        return;
    long long real_ns = now_ns() - c->start_ns;
    int fd = handover_open(AT_FDCWD, out_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd >= 0) {
        (void)run_threads_block_save(fd, (long)getpid(), (long)c->tid, real_ns, v, nevents,
                                     event_names);
        close(fd);
    }
}

static void thread_done(void *p)
{
    struct counted *c = p;
    remember(c, 0);
    if (__atomic_exchange_n(&c->live, 0, __ATOMIC_ACQ_REL))
        report(c, 1);
    PAPI_cleanup_eventset(c->eventset);
    PAPI_destroy_eventset(&c->eventset);
    free(c);
}

static void count_this_thread(void)
{
    struct counted *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->eventset = PAPI_NULL;
    c->tid = (pid_t)syscall(SYS_gettid);
    /* Attached to the thread itself: such a set leaves the program's own event sets and
     * regions free to run in the thread (PAPI allows one unattached running set). */
    if (PAPI_create_eventset(&c->eventset) != PAPI_OK) {
        free(c);
        return;
    }
    if (PAPI_assign_eventset_component(c->eventset, 0) != PAPI_OK ||
        PAPI_attach(c->eventset, (unsigned long)c->tid) != PAPI_OK) {
        PAPI_destroy_eventset(&c->eventset);
        free(c);
        return;
    }
    for (int i = 0; i < nevents; i++)
        PAPI_add_named_event(c->eventset, events[i]);
    c->start_ns = now_ns();
    c->live = 1;
    if (PAPI_start(c->eventset) != PAPI_OK) {
        PAPI_destroy_eventset(&c->eventset);
        free(c);
        return;
    }
    remember(c, 1);
    pthread_setspecific(key, c);
}

static void thread_starts(void)
{
    if (ready)
        count_this_thread();
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    static run_create_fn real;
    if (!real)
        real = run_next_create();
    return run_thread_create(real, t, attr, fn, arg, ready ? thread_starts : NULL);
}

static int start_library(void)
{
    /* The tool's start, unseen by the program's PAPI_is_initialized; no PAPI_thread_init:
     * the thread id function stays the program's. */
    return PAPI_tool_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT ? 0 : -1;
}

/* In a forked child: the library dropped the parent's sets; count this process anew. */
static void after_fork(void)
{
    memset(live, 0, sizeof live);
    pthread_setspecific(key, NULL);
    if (ready && start_library() == 0)
        count_this_thread();
}

static void parse_events(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && nevents < MAX_EVENTS;
         t = strtok_r(NULL, ",", &save)) {
        snprintf(events[nevents], sizeof events[0], "%s", t);
        event_names[nevents] = events[nevents];
        nevents++;
    }
    free(copy);
}

__attribute__((constructor)) static void run_threads_start(void)
{
    const char *list = env_get("PAPI_RUN_EVENTS");
    out_path = env_get("PAPI_RUN_THREADS_FILE");
    if (!list || !out_path || pthread_key_create(&key, thread_done) != 0)
        return;
    parse_events(list);
    if (nevents == 0 || start_library() != 0)
        return;
    pthread_atfork(NULL, NULL, after_fork);
    ready = 1;
    count_this_thread();
}

/* At exit: the caller's own set, then every thread still running. */
__attribute__((destructor)) static void run_threads_end(void)
{
    if (!ready)
        return;
    struct counted *own = pthread_getspecific(key);
    if (own && __atomic_exchange_n(&own->live, 0, __ATOMIC_ACQ_REL))
        report(own, 1);
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] && live[i] != own && __atomic_exchange_n(&live[i]->live, 0, __ATOMIC_ACQ_REL))
            report(live[i], 0);
    pthread_mutex_unlock(&live_lock);
    ready = 0;
}

/* _exit skips the destructors (a forked child's usual end): report first. */
_Noreturn void _exit(int status)
{
    run_threads_end();
    syscall(SYS_exit_group, status);
    for (;;)
        ;
}

_Noreturn void _Exit(int status)
{
    _exit(status);
}
