/* ompt_fake_runtime.c TOOL [no-set-callback]: an OpenMP runtime of its own for the OMPT
 * tool (check_ompt.py, case fake_runtime): it loads the tool as a runtime does
 * (ompt_start_tool, initialize, finalize) and declines sync_region_wait and thread_end
 * (set_callback answers never), then plays one parallel region of 2 threads in the order
 * LLVM's libomp reports it: thread 0 works 1 unit, thread 1 works 2, both reach the join
 * barrier, the master ends the region; the worker's barrier end and task end come only
 * at the "next fork", after a serial unit. Then a region of one thread whose code address
 * the runtime does not give (codeptr_ra NULL), working one unit. With no-set-callback, its lookup knows no
 * ompt_set_callback: the tool must decline (initialize returns 0) and write nothing. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ompt_api.h"
#include "ompt_sleep.h"

/* The program's own clock around each span the tool measures: under load a sleep or a
 * thread's start runs late, and the checker compares the tool with these, not with the
 * units alone. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double work_ms[2], join_ms[2], anon_ms;

static ompt_callback_t callbacks[32];
static int no_set_callback;

static ompt_set_result_t fake_set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    if (event == ompt_callback_sync_region_wait || event == ompt_callback_thread_end)
        return ompt_set_never;
    callbacks[event] = cb;
    return ompt_set_always;
}

static ompt_interface_fn_t fake_lookup(const char *name)
{
    if (!no_set_callback && strcmp(name, "ompt_set_callback") == 0)
        return (ompt_interface_fn_t)fake_set_callback;
    return NULL;
}

/* The region's code address: inside this function (the tool names address - 1). */
static void fake_site(void) {}

static ompt_data_t parallel_data;
static pthread_barrier_t joined, next_fork;

static void task(ompt_scope_endpoint_t ep, unsigned index, ompt_data_t *task_data)
{
    ((ompt_callback_implicit_task_t)callbacks[ompt_callback_implicit_task])(
        ep, ep == ompt_scope_begin ? &parallel_data : NULL, task_data, 2, index,
        ompt_task_implicit);
}

static void join_barrier(ompt_scope_endpoint_t ep, ompt_data_t *task_data)
{
    ((ompt_callback_sync_region_t)callbacks[ompt_callback_sync_region])(
        ompt_sync_region_barrier_implicit, ep, ep == ompt_scope_begin ? &parallel_data : NULL,
        task_data, NULL);
}

static void *worker(void *arg)
{
    (void)arg;
    ompt_data_t thread_data = {0}, task_data = {0};
    ((ompt_callback_thread_begin_t)callbacks[ompt_callback_thread_begin])(ompt_thread_worker,
                                                                          &thread_data);
    task(ompt_scope_begin, 1, &task_data);
    double t = now_ms();
    sleep_ms(2 * UNIT_MS);
    double b = now_ms();
    work_ms[1] = b - t;
    join_barrier(ompt_scope_begin, &task_data);
    pthread_barrier_wait(&joined);
    join_ms[1] = now_ms() - b;
    pthread_barrier_wait(&next_fork); /* libomp: the worker's ends at the next fork */
    join_barrier(ompt_scope_end, &task_data);
    task(ompt_scope_end, 1, &task_data);
    return NULL;
}

static void play_region(void)
{
    ompt_data_t thread_data = {0}, task_data = {0};
    pthread_t w;
    ((ompt_callback_thread_begin_t)callbacks[ompt_callback_thread_begin])(ompt_thread_initial,
                                                                          &thread_data);
    ((ompt_callback_parallel_begin_t)callbacks[ompt_callback_parallel_begin])(
        NULL, NULL, &parallel_data, 2, ompt_parallel_invoker_program, (char *)fake_site + 1);
    pthread_barrier_init(&joined, NULL, 2);
    pthread_barrier_init(&next_fork, NULL, 2);
    pthread_create(&w, NULL, worker, NULL);
    task(ompt_scope_begin, 0, &task_data);
    double t = now_ms();
    sleep_ms(UNIT_MS);
    double b = now_ms();
    work_ms[0] = b - t;
    join_barrier(ompt_scope_begin, &task_data);
    pthread_barrier_wait(&joined);
    join_ms[0] = now_ms() - b;
    join_barrier(ompt_scope_end, &task_data);
    task(ompt_scope_end, 0, &task_data);
    ((ompt_callback_parallel_end_t)callbacks[ompt_callback_parallel_end])(
        &parallel_data, NULL, ompt_parallel_invoker_program, (char *)fake_site + 1);
    sleep_ms(UNIT_MS); /* serial */
    pthread_barrier_wait(&next_fork);
    pthread_join(w, NULL);
}

/* A team of one, without a code address: no join barrier, named for what is missing. */
static void play_anonymous_region(void)
{
    ompt_data_t data = {0}, task_data = {0};
    ((ompt_callback_parallel_begin_t)callbacks[ompt_callback_parallel_begin])(
        NULL, NULL, &data, 1, ompt_parallel_invoker_program, NULL);
    ((ompt_callback_implicit_task_t)callbacks[ompt_callback_implicit_task])(
        ompt_scope_begin, &data, &task_data, 1, 0, ompt_task_implicit);
    double t = now_ms();
    sleep_ms(UNIT_MS);
    anon_ms = now_ms() - t;
    ((ompt_callback_implicit_task_t)callbacks[ompt_callback_implicit_task])(
        ompt_scope_end, NULL, &task_data, 1, 0, ompt_task_implicit);
    ((ompt_callback_parallel_end_t)callbacks[ompt_callback_parallel_end])(
        &data, NULL, ompt_parallel_invoker_program, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ompt_fake_runtime TOOL [no-set-callback]\n");
        return 2;
    }
    no_set_callback = argc > 2 && strcmp(argv[2], "no-set-callback") == 0;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    ompt_start_tool_result_t *(*start)(unsigned, const char *) =
        lib ? (ompt_start_tool_result_t * (*)(unsigned, const char *)) dlsym(lib, "ompt_start_tool")
            : NULL;
    if (!start) {
        fprintf(stderr, "ompt_fake_runtime: %s: no ompt_start_tool (%s)\n", argv[1], dlerror());
        return 1;
    }
    ompt_start_tool_result_t *tool = start(201811, "fake runtime 1.0");
    ompt_data_t tool_data = {0};
    if (!tool || !tool->initialize(fake_lookup, 0, &tool_data)) {
        printf("{\"initialized\": false, \"unit_ms\": %d}\n", UNIT_MS);
        return 0;
    }
    play_region();
    play_anonymous_region();
    tool->finalize(&tool_data);
    printf("{\"initialized\": true, \"unit_ms\": %d, \"work_ms\": [%.3f, %.3f], "
           "\"join_wait_ms\": [%.3f, %.3f], \"anonymous_ms\": %.3f}\n",
           UNIT_MS, work_ms[0], work_ms[1], join_ms[0], join_ms[1], anon_ms);
    return 0;
}
