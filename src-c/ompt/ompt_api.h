/* ompt_api.h: the few OMPT declarations the project's tool uses, written from the OpenMP
 * 5.x specification's tool interface chapter (OpenMP API 5.1, section 4 "OMPT
 * Interface" and 19.5 "OMPT Interface Type Definitions"): the start-up protocol
 * (ompt_start_tool, initialize, finalize), set_callback and its answers, and the
 * signatures of the callbacks registered (ompt_register.c). The values are the
 * specification's; nothing here comes from a runtime's omp-tools.h, so the tool builds
 * without an OpenMP runtime's headers and runs under any runtime that implements OMPT. */
#ifndef PAPI_OMPT_API_H
#define PAPI_OMPT_API_H

#include <stdint.h>

typedef union ompt_data_t {
    uint64_t value;
    void *ptr;
} ompt_data_t;

typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *interface_function_name);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num,
                                 ompt_data_t *tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t *tool_data);

typedef struct ompt_start_tool_result_t {
    ompt_initialize_t initialize;
    ompt_finalize_t finalize;
    ompt_data_t tool_data;
} ompt_start_tool_result_t;

/* The callbacks this tool registers (the specification's numbers). */
typedef enum ompt_callbacks_t {
    ompt_callback_thread_begin = 1,
    ompt_callback_thread_end = 2,
    ompt_callback_parallel_begin = 3,
    ompt_callback_parallel_end = 4,
    ompt_callback_task_create = 5,
    ompt_callback_task_schedule = 6,
    ompt_callback_implicit_task = 7,
    ompt_callback_target = 8,
    ompt_callback_sync_region_wait = 16,
    ompt_callback_mutex_released = 17,
    ompt_callback_work = 20,
    ompt_callback_masked = 21,
    ompt_callback_sync_region = 23,
    ompt_callback_lock_init = 24,
    ompt_callback_mutex_acquire = 26,
    ompt_callback_mutex_acquired = 27,
    ompt_callback_reduction = 31,
    ompt_callback_dispatch = 32,
} ompt_callbacks_t;

typedef void (*ompt_callback_t)(void);

/* set_callback's answer: error or never means the callback will not be called. */
typedef enum ompt_set_result_t {
    ompt_set_error = 0,
    ompt_set_never = 1,
    ompt_set_impossible = 2,
    ompt_set_sometimes = 3,
    ompt_set_sometimes_paired = 4,
    ompt_set_always = 5,
} ompt_set_result_t;

typedef ompt_set_result_t (*ompt_set_callback_t)(ompt_callbacks_t event, ompt_callback_t callback);

typedef enum ompt_thread_t {
    ompt_thread_initial = 1,
    ompt_thread_worker = 2,
    ompt_thread_other = 3,
    ompt_thread_unknown = 4,
} ompt_thread_t;

typedef enum ompt_scope_endpoint_t {
    ompt_scope_begin = 1,
    ompt_scope_end = 2,
    ompt_scope_beginend = 3,
} ompt_scope_endpoint_t;

/* parallel_begin's flags: who invoked the region's outlined code. */
enum { ompt_parallel_invoker_program = 0x1, ompt_parallel_invoker_runtime = 0x2 };

/* implicit_task's flags: the initial task of a thread is not a parallel region's. */
enum { ompt_task_initial = 0x1, ompt_task_implicit = 0x2 };

typedef enum ompt_sync_region_t {
    ompt_sync_region_barrier = 1,          /* deprecated in 5.1 */
    ompt_sync_region_barrier_implicit = 2, /* deprecated in 5.1 */
    ompt_sync_region_barrier_explicit = 3,
    ompt_sync_region_barrier_implementation = 4,
    ompt_sync_region_taskwait = 5,
    ompt_sync_region_taskgroup = 6,
    ompt_sync_region_reduction = 7,
    ompt_sync_region_barrier_implicit_workshare = 8,
    ompt_sync_region_barrier_implicit_parallel = 9,
    ompt_sync_region_barrier_teams = 10,
} ompt_sync_region_t;

typedef struct ompt_frame_t {
    ompt_data_t exit_frame;
    ompt_data_t enter_frame;
    int exit_frame_flags;
    int enter_frame_flags;
} ompt_frame_t;

typedef void (*ompt_callback_thread_begin_t)(ompt_thread_t thread_type, ompt_data_t *thread_data);
typedef void (*ompt_callback_thread_end_t)(ompt_data_t *thread_data);
typedef void (*ompt_callback_parallel_begin_t)(ompt_data_t *encountering_task_data,
                                               const ompt_frame_t *encountering_task_frame,
                                               ompt_data_t *parallel_data,
                                               unsigned int requested_parallelism, int flags,
                                               const void *codeptr_ra);
typedef void (*ompt_callback_parallel_end_t)(ompt_data_t *parallel_data,
                                             ompt_data_t *encountering_task_data, int flags,
                                             const void *codeptr_ra);
typedef void (*ompt_callback_implicit_task_t)(ompt_scope_endpoint_t endpoint,
                                              ompt_data_t *parallel_data, ompt_data_t *task_data,
                                              unsigned int actual_parallelism, unsigned int index,
                                              int flags);
/* task_schedule's prior_task_status (the ones this tool tells apart need no names). */
typedef int ompt_task_status_t;
typedef void (*ompt_callback_task_schedule_t)(ompt_data_t *prior_task_data,
                                              ompt_task_status_t prior_task_status,
                                              ompt_data_t *next_task_data);
/* sync_region and sync_region_wait share this signature. */
typedef void (*ompt_callback_sync_region_t)(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                            ompt_data_t *parallel_data, ompt_data_t *task_data,
                                            const void *codeptr_ra);

/* The constructs (ompt_constructs.h): worksharing, with 5.2's loop schedules. */
typedef enum ompt_work_t {
    ompt_work_loop = 1,
    ompt_work_sections = 2,
    ompt_work_single_executor = 3,
    ompt_work_single_other = 4,
    ompt_work_workshare = 5,
    ompt_work_distribute = 6,
    ompt_work_taskloop = 7,
    ompt_work_scope = 8,
    ompt_work_loop_static = 10,
    ompt_work_loop_dynamic = 11,
    ompt_work_loop_guided = 12,
    ompt_work_loop_other = 13,
} ompt_work_t;

/* Mutual exclusion: what a mutex callback is about. */
typedef enum ompt_mutex_t {
    ompt_mutex_lock = 1,
    ompt_mutex_test_lock = 2,
    ompt_mutex_nest_lock = 3,
    ompt_mutex_test_nest_lock = 4,
    ompt_mutex_critical = 5,
    ompt_mutex_atomic = 6,
    ompt_mutex_ordered = 7,
} ompt_mutex_t;

typedef uint64_t ompt_wait_id_t;

/* dispatch's kinds (5.1: iteration and section; 5.2 adds the chunks, whose instance
 * points at an ompt_dispatch_chunk_t). */
typedef enum ompt_dispatch_t {
    ompt_dispatch_iteration = 1,
    ompt_dispatch_section = 2,
    ompt_dispatch_ws_loop_chunk = 3,
    ompt_dispatch_taskloop_chunk = 4,
    ompt_dispatch_distribute_chunk = 5,
} ompt_dispatch_t;

typedef struct ompt_dispatch_chunk_t {
    uint64_t start;
    uint64_t iterations;
} ompt_dispatch_chunk_t;

/* task_create's flags (the kind in the low bits) and task_schedule's statuses. */
enum { ompt_task_explicit = 0x4, ompt_task_target = 0x8, ompt_task_taskwait = 0x10 };
enum { ompt_task_complete = 1 };

typedef uint64_t ompt_id_t;
typedef int ompt_target_t; /* target, enter data, exit data, update (1-4) */

typedef void (*ompt_callback_work_t)(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                                     ompt_data_t *parallel_data, ompt_data_t *task_data,
                                     uint64_t count, const void *codeptr_ra);
typedef void (*ompt_callback_dispatch_t)(ompt_data_t *parallel_data, ompt_data_t *task_data,
                                         ompt_dispatch_t kind, ompt_data_t instance);
/* mutex_acquire and lock_init share this signature, mutex_acquired and _released the next. */
typedef void (*ompt_callback_mutex_acquire_t)(ompt_mutex_t kind, unsigned int hint,
                                              unsigned int impl, ompt_wait_id_t wait_id,
                                              const void *codeptr_ra);
typedef void (*ompt_callback_mutex_t)(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                      const void *codeptr_ra);
typedef void (*ompt_callback_task_create_t)(ompt_data_t *encountering_task_data,
                                            const ompt_frame_t *encountering_task_frame,
                                            ompt_data_t *new_task_data, int flags,
                                            int has_dependences, const void *codeptr_ra);
typedef void (*ompt_callback_masked_t)(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                       ompt_data_t *task_data, const void *codeptr_ra);
typedef void (*ompt_callback_target_t)(ompt_target_t kind, ompt_scope_endpoint_t endpoint,
                                       int device_num, ompt_data_t *task_data, ompt_id_t target_id,
                                       const void *codeptr_ra);

/* The entry point a runtime looks up, ompt_start_tool(unsigned int omp_version, const
 * char *runtime_version) returning an ompt_start_tool_result_t * (NULL declines), is
 * defined (and exported) by ompt_tool.c only. */

#endif
