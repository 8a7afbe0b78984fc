/* ompt_construct_callbacks.c: the constructs' callbacks (ompt_construct_callbacks.h).
 * As the region callbacks, each touches only the calling thread's slot and the
 * constructs' lock-free table: a construct's (site, thread number) pair is found by a
 * hash in the slot, its times are two clock reads. A construct is filed under the
 * parallel region of the task that meets it and that task's thread number; outside any
 * parallel region under none and thread 0. A lock is filed under the site that
 * initialised it (lock_init), else, for a lock made before the tool started, under the
 * site that sets it, and under the region of the thread that sets it. */
#include <stdatomic.h>

#include "mono_clock.h"
#include "ompt_construct_callbacks.h"
#include "ompt_constructs.h"
#include "ompt_spans.h"

/* An explicit task's data: its creating site's construct index + 1 under TASK_TAG
 * (never the implicit tasks' mark, ompt_callbacks.c). */
#define TASK_TAG   0x7a5c000000000000ULL
#define TASK_MASK  0xffff000000000000ULL
#define TASK_INDEX 0xffffULL

static int have_dispatch;

void ompt_constructs_support(int dispatch)
{
    have_dispatch = dispatch;
}

int ompt_constructs_have_dispatch(void)
{
    return have_dispatch;
}

static struct ompt_construct_state *state_of(struct ompt_thread *th, struct ompt_frame *f)
{
    return f ? &f->cs : &th->serial_cs;
}

/* The pair of construct c for the calling thread: its task's thread number. */
static struct ompt_cacc *pair_of(struct ompt_thread *th, struct ompt_frame *f, int c)
{
    if (c < 0) {
        ompt_construct_count_drop();
        return NULL;
    }
    return ompt_thread_cacc(th, c, f ? f->acc->tnum : 0);
}

/* The pair of kind at codeptr in the task's region (none outside any). NULL for a
 * task nested too deep or whose region was not measured (its constructs neither). */
static struct ompt_cacc *pair(struct ompt_thread *th, struct ompt_frame *f, int kind,
                              const void *codeptr)
{
    if (th->depth > OMPT_DEPTH_MAX || (f && !f->acc))
        return NULL;
    return pair_of(th, f, ompt_construct_index(kind, codeptr, f ? f->acc->region - 1 : -1));
}

/* A construct's trace slice begun on th's log (-1: none: no trace, or a kind without). */
static int64_t slice_begin(struct ompt_thread *th, struct ompt_frame *f, const struct ompt_cacc *c)
{
    if (!ompt_spans_on || !c)
        return -1;
    uintptr_t address;
    int region;
    int kind = ompt_construct_trace_kind(ompt_construct_at(c->construct - 1, &address, &region));
    return kind < 0 ? -1 : ompt_span_begin(&th->spans, kind, c->construct - 1, f ? f->instance : 0);
}

static int work_kind(ompt_work_t type, unsigned *schedule)
{
    *schedule = 0;
    switch (type) {
    case ompt_work_loop:
        return OMPT_C_LOOP;
    case ompt_work_loop_static:
        *schedule = OMPT_SCHED_STATIC;
        return OMPT_C_LOOP;
    case ompt_work_loop_dynamic:
        *schedule = OMPT_SCHED_DYNAMIC;
        return OMPT_C_LOOP;
    case ompt_work_loop_guided:
        *schedule = OMPT_SCHED_GUIDED;
        return OMPT_C_LOOP;
    case ompt_work_loop_other:
        *schedule = OMPT_SCHED_OTHER;
        return OMPT_C_LOOP;
    case ompt_work_sections:
        return OMPT_C_SECTIONS;
    case ompt_work_single_executor:
    case ompt_work_single_other:
        return OMPT_C_SINGLE;
    case ompt_work_workshare:
        return OMPT_C_WORKSHARE;
    case ompt_work_distribute:
        return OMPT_C_DISTRIBUTE;
    case ompt_work_taskloop:
        return OMPT_C_TASKLOOP;
    case ompt_work_scope:
        return OMPT_C_SCOPE;
    default:
        return 0;
    }
}

void ompt_on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                  ompt_data_t *task_data, uint64_t count, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data;
    struct ompt_thread *th = ompt_thread_self();
    if (!th)
        return;
    struct ompt_frame *f = ompt_thread_frame(th);
    struct ompt_construct_state *s = state_of(th, f);
    uint64_t now = mono_clock_ns();
    if (endpoint == ompt_scope_begin) {
        unsigned schedule;
        int kind = work_kind(work_type, &schedule);
        s->after_work = NULL;
        s->work = kind ? pair(th, f, kind, codeptr_ra) : NULL;
        if (s->work) {
            s->work->entries++;
            if (kind != OMPT_C_SINGLE) /* a loop's (sections') count at its begin */
                s->work->trip += count;
            else if (work_type == ompt_work_single_executor)
                s->work->iterations++;
            if (schedule)
                ompt_construct_add_schedule(s->work->construct - 1, schedule);
            s->work_begin_ns = now;
            s->work_span = slice_begin(th, f, s->work);
        }
    } else if (endpoint == ompt_scope_end && s->work) {
        s->work->time_ns += now - s->work_begin_ns;
        if (ompt_spans_on)
            ompt_span_end(th->spans, s->work_span);
        s->after_work = s->work; /* the barrier that follows, if any, is its wait */
        s->work = NULL;
    }
    ompt_thread_publish(th);
}

void ompt_on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data, ompt_dispatch_t kind,
                      ompt_data_t instance)
{
    (void)parallel_data, (void)task_data;
    struct ompt_thread *th = ompt_self;
    if (!th)
        return;
    struct ompt_construct_state *s = state_of(th, ompt_thread_frame(th));
    if (!s->work)
        return;
    if (kind == ompt_dispatch_iteration || kind == ompt_dispatch_section)
        s->work->iterations++;
    else if (instance.ptr) /* a chunk: 5.2's loop, taskloop and distribute chunks */
        s->work->iterations += ((const ompt_dispatch_chunk_t *)instance.ptr)->iterations;
    ompt_thread_publish(th);
}

static int mutex_kind(ompt_mutex_t kind)
{
    switch (kind) {
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
        return OMPT_C_LOCK;
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock:
        return OMPT_C_NEST_LOCK;
    case ompt_mutex_critical:
        return OMPT_C_CRITICAL;
    case ompt_mutex_atomic:
        return OMPT_C_ATOMIC;
    case ompt_mutex_ordered:
        return OMPT_C_ORDERED;
    default:
        return 0;
    }
}

void ompt_on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                       ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint, (void)impl;
    int k = mutex_kind(kind);
    if (k == OMPT_C_LOCK || k == OMPT_C_NEST_LOCK)
        ompt_lock_site_set(wait_id, codeptr_ra);
}

void ompt_on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                           ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint, (void)impl;
    struct ompt_thread *th = ompt_thread_self();
    if (!th)
        return;
    int k = mutex_kind(kind);
    const void *site = codeptr_ra;
    if (k == OMPT_C_LOCK || k == OMPT_C_NEST_LOCK) { /* by its init site where known */
        const void *init = ompt_lock_site(wait_id);
        site = init ? init : codeptr_ra;
    }
    struct ompt_frame *f = ompt_thread_frame(th);
    th->acquiring = k ? pair(th, f, k, site) : NULL;
    /* The slice of a test, and of a nest lock, begins where it took the lock: a test that
     * fails, and a nest lock its owner sets again (nest_lock, not acquired), report no
     * more. */
    int later = kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock ||
                kind == ompt_mutex_nest_lock;
    th->acquire_span = later ? -1 : slice_begin(th, f, th->acquiring);
    th->acquire_begin_ns = mono_clock_ns();
    ompt_thread_publish(th);
}

void ompt_on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)kind, (void)codeptr_ra;
    struct ompt_thread *th = ompt_self;
    if (!th || !th->acquiring)
        return;
    uint64_t now = mono_clock_ns();
    struct ompt_cacc *c = th->acquiring;
    th->acquiring = NULL;
    c->entries++;
    c->wait_ns += now - th->acquire_begin_ns;
    if (th->held_n < OMPT_HELD_MAX) {
        th->held[th->held_n].wait_id = wait_id;
        th->held[th->held_n].c = c;
        th->held[th->held_n].span =
            th->acquire_span >= 0 ? th->acquire_span : slice_begin(th, ompt_thread_frame(th), c);
        th->held[th->held_n++].since_ns = now;
    } else if (ompt_spans_on) {
        ompt_span_end(th->spans, th->acquire_span); /* held past the bound: no release seen */
    }
    ompt_thread_publish(th);
}

void ompt_on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)kind, (void)codeptr_ra;
    struct ompt_thread *th = ompt_self;
    if (!th)
        return;
    for (int i = th->held_n - 1; i >= 0; i--) {
        if (th->held[i].wait_id != wait_id)
            continue;
        th->held[i].c->time_ns += mono_clock_ns() - th->held[i].since_ns;
        if (ompt_spans_on)
            ompt_span_end(th->spans, th->held[i].span);
        th->held[i] = th->held[--th->held_n]; /* order does not matter: found by id */
        break;
    }
    ompt_thread_publish(th);
}

void ompt_on_task_create(ompt_data_t *encountering_task_data,
                         const ompt_frame_t *encountering_task_frame, ompt_data_t *new_task_data,
                         int flags, int has_dependences, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)encountering_task_frame, (void)has_dependences;
    if (!(flags & ompt_task_explicit) || !new_task_data)
        return;
    struct ompt_thread *th = ompt_thread_self();
    if (!th)
        return;
    struct ompt_cacc *c = pair(th, ompt_thread_frame(th), OMPT_C_TASK, codeptr_ra);
    if (c) {
        c->created++;
        /* Relaxed atomic, as the implicit tasks' mark: the runtime hands the task's data
         * to the thread that runs it through its own queues. */
        __atomic_store_n(&new_task_data->value, TASK_TAG | (uint64_t)c->construct,
                         __ATOMIC_RELAXED);
    }
    ompt_thread_publish(th);
}

static int task_construct(const ompt_data_t *task_data)
{
    uint64_t v = task_data ? __atomic_load_n(&task_data->value, __ATOMIC_RELAXED) : 0;
    return (v & TASK_MASK) == TASK_TAG ? (int)(v & TASK_INDEX) - 1 : -1;
}

void ompt_constructs_task_switch(struct ompt_thread *th, const ompt_data_t *prior, int completed,
                                 const ompt_data_t *next)
{
    uint64_t now = mono_clock_ns();
    if (th->xtask && task_construct(prior) >= 0) {
        th->xtask->time_ns += now - th->xtask_begin_ns;
        th->xtask->entries += completed != 0;
    }
    th->xtask = NULL;
    int c = task_construct(next);
    struct ompt_frame *f = ompt_thread_frame(th);
    if (c >= 0 && th->depth <= OMPT_DEPTH_MAX && !(f && !f->acc)) {
        th->xtask = ompt_thread_cacc(th, c, f ? f->acc->tnum : 0);
        th->xtask_begin_ns = now;
    }
}

void ompt_constructs_sync_begin(struct ompt_thread *th, struct ompt_frame *f,
                                ompt_sync_region_t kind, const void *codeptr)
{
    int k = kind == ompt_sync_region_taskwait           ? OMPT_C_TASKWAIT
            : kind == ompt_sync_region_taskgroup        ? OMPT_C_TASKGROUP
            : kind == ompt_sync_region_barrier_explicit ? OMPT_C_BARRIER
                                                        : 0;
    f->sync_cacc = NULL;
    if (k) {
        f->sync_cacc = pair(th, f, k, codeptr);
        if (f->sync_cacc)
            f->sync_cacc->entries++;
    } else if (kind != ompt_sync_region_barrier_implicit_parallel) {
        f->sync_cacc = f->cs.after_work; /* the implicit barrier ending a worksharing one */
    }
    f->cs.after_work = NULL;
}

/* Reductions, masked and target regions (which: 0, 1, 2): their time from begin to end. */
static void timed(int kind, ompt_scope_endpoint_t endpoint, const void *codeptr, int which)
{
    struct ompt_thread *th = ompt_thread_self();
    if (!th)
        return;
    struct ompt_frame *f = ompt_thread_frame(th);
    struct ompt_construct_state *s = state_of(th, f);
    struct ompt_cacc **open = &s->timed[which];
    uint64_t *begin = &s->timed_begin_ns[which];
    uint64_t now = mono_clock_ns();
    if (endpoint == ompt_scope_begin) {
        *open = pair(th, f, kind, codeptr);
        if (*open)
            (*open)->entries++;
        *begin = now;
        s->timed_span[which] = slice_begin(th, f, *open);
    } else if (endpoint == ompt_scope_end && *open) {
        (*open)->time_ns += now - *begin;
        if (ompt_spans_on)
            ompt_span_end(th->spans, s->timed_span[which]);
        *open = NULL;
    }
    ompt_thread_publish(th);
}

void ompt_on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                       ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)kind, (void)parallel_data, (void)task_data;
    timed(OMPT_C_REDUCTION, endpoint, codeptr_ra, 0);
}

void ompt_on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                    ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data;
    timed(OMPT_C_MASKED, endpoint, codeptr_ra, 1);
}

void ompt_on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                    ompt_data_t *task_data, ompt_id_t target_id, const void *codeptr_ra)
{
    (void)device_num, (void)task_data, (void)target_id;
    if (kind == 1) /* ompt_target: the region itself, not enter/exit data or update */
        timed(OMPT_C_TARGET, endpoint, codeptr_ra, 2);
}
