/* gomp_tasks.c: explicit tasks under the interposer (README.md). GOMP_task gives
 * task_create (the program's return address: the tool files the task by its creating
 * site) and hands libgomp a trampoline with the task's own block: a header (the task's
 * function, its data for the tool, the program's copy function) before the program's
 * arguments, copied with them wherever libgomp defers the task. The thread that runs it
 * gives task_schedule into it and back out (complete). taskwait and taskgroup's end
 * are sync regions around libgomp's wait. A task with detach (gcc's flag bit 9) runs
 * as it is, unseen. */
#include <alloca.h>
#include <stdint.h>
#include <string.h>

#include "gomp_abi.h"
#include "gomp_runtime.h"

#define GOMP_TASK_FLAG_DETACH (1u << 9)

struct gomp_task_head {
    gomp_outlined_fn fn;
    gomp_copy_fn cpyfn;
    void *src;   /* the program's data, which its copy function reads */
    long offset; /* the program's arguments from the block's start */
    ompt_data_t task_data;
};

static void run_task(void *arg)
{
    struct gomp_task_head *h = arg;
    struct gomp_thread *t = gomp_self();
    ompt_data_t *prior = t->current;
    GOMP_CALL(ompt_callback_task_schedule, ompt_callback_task_schedule_t, prior, 0, &h->task_data);
    t->current = &h->task_data;
    h->fn((char *)arg + h->offset);
    t->current = prior;
    GOMP_CALL(ompt_callback_task_schedule, ompt_callback_task_schedule_t, &h->task_data,
              ompt_task_complete, prior);
}

/* libgomp calls a copy function for every task (deferred: into its own block; undeferred:
 * into one on its stack): the header as it is, the arguments by the program's copy
 * function from the program's data (gcc's sender block, laid out apart from the task's). */
static void copy_task(void *to, void *from)
{
    struct gomp_task_head *h = from;
    memcpy(to, from, sizeof *h);
    h->cpyfn((char *)to + h->offset, h->src);
}

void GOMP_task(gomp_outlined_fn fn, void *data, gomp_copy_fn cpyfn, long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach)
{
    const void *ra = __builtin_return_address(0);
    if (!gomp_tool_on() || (flags & GOMP_TASK_FLAG_DETACH)) {
        GOMP_REAL(GOMP_task)
        (fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        return;
    }
    struct gomp_thread *t = gomp_self();
    long align = arg_align > (long)_Alignof(struct gomp_task_head)
                     ? arg_align
                     : (long)_Alignof(struct gomp_task_head);
    long offset = ((long)sizeof(struct gomp_task_head) + align - 1) / align * align;
    char *raw = alloca((size_t)(offset + arg_size + align));
    char *block = (char *)(((uintptr_t)raw + (uintptr_t)align - 1) & ~((uintptr_t)align - 1));
    struct gomp_task_head *h = (struct gomp_task_head *)block;
    *h = (struct gomp_task_head){.fn = fn, .cpyfn = cpyfn, .src = data, .offset = offset};
    if (arg_size > 0 && !cpyfn) /* else copy_task copies them */
        memcpy(block + offset, data, (size_t)arg_size);
    GOMP_CALL(ompt_callback_task_create, ompt_callback_task_create_t, t->current, NULL,
              &h->task_data, ompt_task_explicit, depend != NULL, ra);
    GOMP_REAL(GOMP_task)
    (run_task, block, cpyfn ? copy_task : NULL, offset + arg_size, align, if_clause, flags, depend,
     priority, detach);
}

GOMP_WAIT_ENTRY(GOMP_taskwait, ompt_sync_region_taskwait)
GOMP_WAIT_ENTRY(GOMP_taskgroup_end, ompt_sync_region_taskgroup)
