/* ompt_construct_callbacks.h: the callbacks that see the constructs (ompt_constructs.h)
 * and the hooks the region callbacks (ompt_callbacks.c) call where a construct's time
 * passes through theirs: a sync region that is a construct's wait, an explicit task
 * switched in or out. */
#ifndef PAPI_OMPT_CONSTRUCT_CALLBACKS_H
#define PAPI_OMPT_CONSTRUCT_CALLBACKS_H

#include "ompt_api.h"
#include "ompt_threads.h"

/* Told by the tool after registering: whether the runtime reports dispatch (without it
 * the iterations each thread ran are not known). */
OMPT_HIDDEN void ompt_constructs_support(int dispatch);
OMPT_HIDDEN int ompt_constructs_have_dispatch(void);
/* A sync region of kind at codeptr begins in f: the construct whose wait it is (a
 * taskwait, taskgroup or explicit barrier by its site, or the implicit barrier that ends
 * the worksharing construct that ended last) into f->sync_cacc. */
OMPT_HIDDEN void ompt_constructs_sync_begin(struct ompt_thread *th, struct ompt_frame *f,
                                            ompt_sync_region_t kind, const void *codeptr);
/* task_schedule: the explicit task switched out (its run time to its creating site;
 * completed: one more run) and the one switched in. */
OMPT_HIDDEN void ompt_constructs_task_switch(struct ompt_thread *th, const ompt_data_t *prior,
                                             int completed, const ompt_data_t *next);
/* The callbacks, by number, for the tool's table (ompt_callbacks.c). */
OMPT_HIDDEN void ompt_on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                              ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                              const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data,
                                  ompt_dispatch_t kind, ompt_data_t instance);
OMPT_HIDDEN void ompt_on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                       ompt_wait_id_t wait_id, const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                        const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                        const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                   ompt_wait_id_t wait_id, const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_task_create(ompt_data_t *encountering_task_data,
                                     const ompt_frame_t *encountering_task_frame,
                                     ompt_data_t *new_task_data, int flags, int has_dependences,
                                     const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                   ompt_data_t *parallel_data, ompt_data_t *task_data,
                                   const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                ompt_data_t *task_data, const void *codeptr_ra);
OMPT_HIDDEN void ompt_on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                                ompt_data_t *task_data, ompt_id_t target_id,
                                const void *codeptr_ra);

#endif
