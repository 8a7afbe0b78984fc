/* gomp_runtime.c: the interposer's runtime side (gomp_runtime.h): the tool's start and
 * end, its callbacks, each thread's state and first sight, libgomp's real entry points. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env.h"
#include "gomp_runtime.h"
#include "user_dlopen.h"

ompt_callback_t gomp_cb[GOMP_CALLBACKS];
atomic_int gomp_state; /* 0 not started, 1 on, 2 off */

static ompt_start_tool_result_t *tool;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;
static _Thread_local struct gomp_thread self;
static pid_t start_pid; /* the process that started the tool */

void *gomp_real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) { /* the program called it, so libgomp has it: this is not libgomp's program */
        fprintf(stderr, "papi_gomp: %s: not found after the interposer (%s)\n", name, dlerror());
        abort();
    }
    return f;
}

/* The callbacks the interposer drives; the others are declined (never called). */
static int driven(ompt_callbacks_t event)
{
    switch (event) {
    case ompt_callback_target:
    case ompt_callback_reduction:
    case ompt_callback_masked:
        return 0; /* gcc inlines reductions and masked; no target device here */
    default:
        return event > 0 && event < GOMP_CALLBACKS;
    }
}

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t callback)
{
    if (!driven(event))
        return ompt_set_never;
    gomp_cb[event] = callback;
    return event == ompt_callback_thread_end ? ompt_set_sometimes : ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *name)
{
    if (strcmp(name, "ompt_set_callback") == 0)
        return (ompt_interface_fn_t)set_callback;
    return NULL;
}

static void finish(void)
{
    static ompt_data_t tool_data;
    if (atomic_load(&gomp_state) != 1)
        return;
    /* Not in a child forked after OpenMP started: its libgomp has no pool threads (and no
     * late worker), and a fork of its own there would wait for them forever. */
    if (getpid() == start_pid)
        gomp_parallel_end_late_workers();
    atomic_store(&gomp_state, 2);
    tool->finalize(&tool_data);
}

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned, const char *);

/* As a runtime with OMPT: the program's own ompt_start_tool first, then each library
 * OMP_TOOL_LIBRARIES names (':'-separated) until one accepts; OMP_TOOL=disabled: none. */
static ompt_start_tool_result_t *find_tool(void)
{
    const char *disabled = env_get("OMP_TOOL");
    if (disabled && strcmp(disabled, "disabled") == 0)
        return NULL;
    start_tool_fn own = (start_tool_fn)dlsym(RTLD_DEFAULT, "ompt_start_tool");
    ompt_start_tool_result_t *r = own ? own(201811, GOMP_RUNTIME_NAME) : NULL;
    const char *list = env_get("OMP_TOOL_LIBRARIES");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    char *save = NULL;
    for (char *p = strtok_r(buf, ":", &save); p && !r; p = strtok_r(NULL, ":", &save)) {
        char why[256];
        void *lib = user_dlopen(p, RTLD_NOW | RTLD_LOCAL, why, sizeof why);
        start_tool_fn start = lib ? (start_tool_fn)dlsym(lib, "ompt_start_tool") : NULL;
        r = start ? start(201811, GOMP_RUNTIME_NAME) : NULL;
        if (lib && !r)
            dlclose(lib);
    }
    return r;
}

static void thread_gone(void *arg)
{
    (void)arg;
    if (atomic_load(&gomp_state) != 1)
        return;
    gomp_parallel_end_late(&self);
    GOMP_CALL(ompt_callback_thread_end, ompt_callback_thread_end_t, &self.thread_data);
}

static void start(void)
{
    static ompt_data_t tool_data;
    tool = find_tool();
    if (!tool) {
        atomic_store(&gomp_state, 2);
        return;
    }
    start_pid = getpid();
    pthread_key_create(&thread_key, thread_gone);
    atexit(finish); /* before the tool's own exit handler, which then runs first */
    if (!tool->initialize(lookup, 0, &tool_data)) {
        atomic_store(&gomp_state, 2);
        return;
    }
    atomic_store_explicit(&gomp_state, 1, memory_order_release);
}

int gomp_tool_start(void)
{
    pthread_once(&start_once, start);
    return atomic_load_explicit(&gomp_state, memory_order_acquire) == 1;
}

struct gomp_thread *gomp_self(void)
{
    struct gomp_thread *t = &self;
    if (!t->seen) {
        t->seen = 1;
        t->current = &t->task[0];
        pthread_setspecific(thread_key, t); /* thread_end when the thread ends before exit */
        int initial = syscall(SYS_gettid) == getpid();
        GOMP_CALL(ompt_callback_thread_begin, ompt_callback_thread_begin_t,
                  initial ? ompt_thread_initial : ompt_thread_worker, &t->thread_data);
    }
    return t;
}

void gomp_sync_begin(struct gomp_thread *t, ompt_sync_region_t kind, const void *codeptr)
{
    GOMP_CALL(ompt_callback_sync_region, ompt_callback_sync_region_t, kind, ompt_scope_begin, NULL,
              t->current, codeptr);
    GOMP_CALL(ompt_callback_sync_region_wait, ompt_callback_sync_region_t, kind, ompt_scope_begin,
              NULL, t->current, codeptr);
}

void gomp_sync_end(struct gomp_thread *t, ompt_sync_region_t kind, const void *codeptr)
{
    GOMP_CALL(ompt_callback_sync_region_wait, ompt_callback_sync_region_t, kind, ompt_scope_end,
              NULL, t->current, codeptr);
    GOMP_CALL(ompt_callback_sync_region, ompt_callback_sync_region_t, kind, ompt_scope_end, NULL,
              t->current, codeptr);
}
