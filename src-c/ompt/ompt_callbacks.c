/* ompt_callbacks.c: the tool's OMPT callbacks. Each touches only the calling thread's
 * slot (ompt_threads.h) and the region table's lock-free lookup at a fork: no lock, no
 * allocation past a thread's first event, two clock reads per task.
 *
 * parallel_data carries the instance from the master to its team: its region's index + 1
 * (bits 0-11, 0 when the region was dropped), whether it is outermost (bit 12, no
 * implicit task open in the forking thread) and its fork time (bits 13-63, ns since the
 * clock's origin: 2^51 ns, 26 days).
 *
 * The join barrier: a worker's implicit-task end and its join barrier's end come only
 * at the team's next fork (LLVM's libomp), so a worker's work ends where its join
 * barrier begins: the last implicit barrier before its task's end, in a team of more
 * than one thread. Its wait there is the region's time after that point, known from the
 * master's wall at the report (in_team_ns).
 *
 * Explicit tasks a thread runs while it waits in a barrier or taskwait are work: the
 * runtime reports them (task_schedule) inside the wait, and their time is moved from the
 * wait to the work. Implicit tasks' task_data is marked IMPLICIT_MARK to tell them apart.
 *
 * With a trace asked for (ompt_spans_on), each thread also logs its slices
 * (ompt_spans.h): the region it forks, its implicit tasks, its sync regions (the last
 * barrier before a task's end relabelled "join") and the explicit tasks it runs, each
 * with its instance (parallel_data's value), by which a worker's late end is cut at the
 * region's end when the trace is written (trace_openmp.c). */
#include <stddef.h>
#include <string.h>

#include "mono_clock.h"
#include "ompt_callbacks.h"
#include "ompt_construct_callbacks.h"
#include "ompt_contexts.h"
#include "ompt_counters.h"
#include "ompt_live_sums.h"
#include "ompt_share.h"
#include "ompt_threads.h"
#include "papi_region_context.h"
#include "trace_openmp.h"

#define FORK_SHIFT    13
#define OUTER_BIT     (1ULL << 12)
#define REGION_MASK   0xfffULL
#define IMPLICIT_MARK 0x1badc0deULL

static uint64_t clock_origin;
static int have_sync_region = 1, have_sync_wait = 1;

void ompt_clock_start(void)
{
    clock_origin = mono_clock_ns();
}

uint64_t ompt_clock_origin(void)
{
    return clock_origin;
}

static uint64_t now_ns(void)
{
    return mono_clock_ns() - clock_origin;
}

void ompt_callbacks_support(int sync_region, int sync_region_wait)
{
    have_sync_region = sync_region;
    have_sync_wait = sync_region_wait;
}

static struct ompt_frame *top_frame(struct ompt_thread *th)
{
    return ompt_thread_frame(th);
}

/* The context of a fork: the named and MPI_Pcontrol regions open now (libpapi's answer,
 * O(1)); the table is looked up only when they changed since the thread's last fork. */
static unsigned fork_context(struct ompt_thread *th)
{
    long named;
    int mpi;
    papi_region_context(&named, &mpi);
    if (named != th->ctx_named || mpi + 1 != th->ctx_mpi1) {
        th->ctx_named = named, th->ctx_mpi1 = mpi + 1;
        th->ctx = ompt_context_index(named, mpi);
    }
    if (th->ctx == OMPT_CONTEXT_DROPPED)
        th->context_drops++;
    return th->ctx;
}

static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism,
                              int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)encountering_task_frame, (void)flags;
    struct ompt_thread *th = ompt_thread_self();
    if (!th) { /* its instance not measured, said; its team's tasks not filed */
        ompt_threads_count_unmeasured();
        ompt_threads_count_instance();
        parallel_data->value = 0;
        return;
    }
    int region = ompt_region_index(codeptr_ra, fork_context(th));
    if (region < 0)
        th->region_drops++;
    if (ompt_counters_n && th->depth == 0)
        ompt_share_team(1); /* the share holds this team's counts once it is joined */
    th->last_team = requested_parallelism;
    uint64_t fork = now_ns();
    parallel_data->value =
        (uint64_t)(region + 1) | (th->depth == 0 ? OUTER_BIT : 0) | fork << FORK_SHIFT;
    if (ompt_live && th->depth == 0)
        ompt_live_fork(th->index, fork, requested_parallelism);
    if (ompt_spans_on && th->depth <= OMPT_DEPTH_MAX)
        th->span_region[th->depth] =
            ompt_span_begin(&th->spans, TRACE_OMP_PARALLEL, region, parallel_data->value);
}

static void add_team_size(struct ompt_acc *a, unsigned size, uint64_t wall)
{
    for (int i = 0; i < OMPT_SIZES; i++) {
        if (a->sizes[i].size == 0)
            a->sizes[i].size = size;
        if (a->sizes[i].size == size) {
            a->sizes[i].instances++;
            a->sizes[i].wall_ns += wall;
            return;
        }
    }
    a->other_size_instances++;
    a->other_size_wall_ns += wall;
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)flags, (void)codeptr_ra;
    struct ompt_thread *th = ompt_self;
    uint64_t v = parallel_data->value;
    if (!th || v == 0)
        return;
    if (ompt_spans_on && th->depth <= OMPT_DEPTH_MAX)
        ompt_span_end(th->spans, th->span_region[th->depth]);
    if (ompt_counters_n && (v & OUTER_BIT))
        ompt_share_team(-1);
    uint64_t join = now_ns(), wall = join - (v >> FORK_SHIFT);
    if (ompt_live && (v & OUTER_BIT))
        ompt_live_join(th->index, join);
    int region = (int)(v & REGION_MASK) - 1;
    struct ompt_acc *a = region >= 0 ? ompt_thread_acc(th, region, 0) : NULL;
    if (!a) {
        if (v & OUTER_BIT)
            th->outer_unnamed_ns += wall; /* still serial time's complement */
        return;
    }
    a->instances++;
    a->wall_ns += wall;
    if (v & OUTER_BIT) {
        a->outer_instances++;
        a->outer_wall_ns += wall;
    }
    add_team_size(a, th->last_team ? th->last_team : 1, wall);
}

static void task_begin(struct ompt_thread *th, const ompt_data_t *parallel_data, unsigned team,
                       unsigned index)
{
    if (++th->depth > OMPT_DEPTH_MAX) {
        th->deep_tasks++;
        return;
    }
    struct ompt_frame *f = &th->frames[th->depth - 1];
    uint64_t v = parallel_data ? parallel_data->value : 0;
    int region = (int)(v & REGION_MASK) - 1;
    *f = (struct ompt_frame){.team = team, .fork_ns = v >> FORK_SHIFT, .begin_ns = now_ns()};
    f->instance = v, f->span_task = f->span_sync = f->span_xtask = -1;
    if (ompt_spans_on)
        f->span_task = ompt_span_begin(&th->spans, TRACE_OMP_IMPLICIT, -1, v);
    f->acc = region >= 0 ? ompt_thread_acc(th, region, index) : NULL;
    if (region >= 0 && !f->acc)
        th->pair_drops++;
    f->live = ompt_live && f->acc && th->depth == 1 && (v & OUTER_BIT);
    if (f->live)
        ompt_live_work_begin(th->index, f->begin_ns);
    if (ompt_counters_n && f->acc) /* last: the task's count starts after the tool's work */
        f->counted = ompt_counters_read(th, f->begin_counts) == 0;
    if (ompt_counters_n && th->depth == 1 && index != 0) { /* a worker's outermost task */
        f->share = f->counted;
        if (f->counted)
            memcpy(f->share_counts, f->begin_counts, sizeof f->share_counts);
        else
            ompt_share_missed();
    }
}

/* A worker's counts since its last barrier (or its task's begin) into the share, at a
 * barrier's begin (read there into sync_counts). */
static void share_at_barrier(struct ompt_frame *f)
{
    if (!f->counted) {
        f->share = 0;
        ompt_share_missed();
        return;
    }
    ompt_share_add(f->share_counts, f->sync_counts);
    memcpy(f->share_counts, f->sync_counts, sizeof f->share_counts);
}

/* The task's events from its begin to its work's end: the join barrier's begin (read
 * there), else now. */
static void add_events(struct ompt_thread *th, struct ompt_frame *f, struct ompt_acc *a,
                       int at_join)
{
    uint64_t now[OMPT_EVENTS_MAX];
    const uint64_t *end = at_join ? f->pending_counts : now;
    if (!f->counted || (!at_join && ompt_counters_read(th, now) != 0))
        return;
    for (int i = 0; i < ompt_counters_n; i++)
        a->events[i] += end[i] - f->begin_counts[i];
    a->counted_tasks++;
}

/* A pending sync region (one that ended) is a wait inside the region after all, and
 * the wait of its construct (ompt_constructs_sync_begin), if any. */
static void commit_pending(struct ompt_frame *f)
{
    if (f->pending_class == OMPT_WAIT_BARRIER)
        f->barrier_ns += f->pending_wait_ns;
    else if (f->pending_class == OMPT_WAIT_TASKWAIT)
        f->taskwait_ns += f->pending_wait_ns;
    if (f->pending_class != OMPT_WAIT_NONE && f->pending_cacc)
        f->pending_cacc->wait_ns += f->pending_wait_ns;
    f->pending_class = OMPT_WAIT_NONE;
    f->pending_cacc = NULL;
}

/* A task's times into a: its work from its begin to stop less its waits, plus
 * join_tasks (explicit tasks run in the join barrier), and its time in the team. */
static void add_task(struct ompt_acc *a, const struct ompt_frame *f, uint64_t stop,
                     uint64_t join_tasks)
{
    uint64_t waits = f->barrier_ns + f->taskwait_ns;
    uint64_t span = stop > f->begin_ns ? stop - f->begin_ns : 0;
    a->tasks++;
    a->work_ns += (span > waits ? span - waits : 0) + join_tasks;
    a->barrier_ns += f->barrier_ns;
    a->taskwait_ns += f->taskwait_ns;
    a->in_team_ns += (stop > f->fork_ns ? stop - f->fork_ns : 0) + join_tasks;
}

/* The task's slices ended: a barrier still open, or the last one if nothing came after
 * it, is its join. */
static void end_task_spans(struct ompt_thread *th, struct ompt_frame *f)
{
    int open = f->sync_depth > 0;
    if ((open && f->sync_join) ||
        (!open && f->pending_class == OMPT_WAIT_BARRIER && f->pending_join))
        ompt_span_relabel(th->spans, f->span_sync, TRACE_OMP_JOIN);
    if (open)
        ompt_span_end(th->spans, f->span_sync);
    if (f->xtask_depth > 0)
        ompt_span_end(th->spans, f->span_xtask);
    ompt_span_end(th->spans, f->span_task);
}

static void task_end(struct ompt_thread *th)
{
    struct ompt_frame *f = top_frame(th);
    th->depth--;
    if (!f)
        return;
    if (ompt_spans_on)
        end_task_spans(th, f);
    uint64_t end = now_ns();
    th->last_team = f->team;
    struct ompt_acc *a = f->acc;
    if (!a)
        return;
    /* Still inside a barrier (a runtime that ends it after the task): it is the join. */
    if (f->sync_depth > 0 && f->sync_join) {
        f->pending_class = OMPT_WAIT_BARRIER, f->pending_join = 1, f->pending_cacc = NULL;
        f->pending_begin_ns = f->sync_begin_ns, f->pending_wait_ns = 0;
        f->pending_task_ns = f->task_in_sync_ns;
        if (f->counted)
            memcpy(f->pending_counts, f->sync_counts, sizeof f->sync_counts);
    }
    uint64_t stop = end, join_tasks = 0;
    int at_join = f->team > 1 && f->pending_class == OMPT_WAIT_BARRIER && f->pending_join;
    if (f->share && !at_join)
        ompt_share_missed(); /* its counts since its last barrier were not added */
    if (ompt_counters_n)
        add_events(th, f, a, at_join);
    if (f->live) /* a join reported late: its work ended at the barrier's begin */
        ompt_live_work_end(th->index, end, !at_join);
    if (at_join) {
        stop = f->pending_begin_ns;      /* its wait: the master's wall past in_team_ns */
        join_tasks = f->pending_task_ns; /* explicit tasks run in the join barrier */
        f->pending_class = OMPT_WAIT_NONE;
    }
    commit_pending(f);
    add_task(a, f, stop, join_tasks);
}

int ompt_parked_task(const struct ompt_thread *th, struct ompt_acc *add)
{
    const struct ompt_frame *f =
        th->depth > 0 && th->depth <= OMPT_DEPTH_MAX ? &th->frames[th->depth - 1] : NULL;
    if (!f || !f->acc || f->team < 2 || f->sync_depth == 0 || !f->sync_join)
        return -1;
    *add = (struct ompt_acc){.region = f->acc->region, .tnum = f->acc->tnum};
    add_task(add, f, f->sync_begin_ns, f->task_in_sync_ns);
    if (f->counted) {
        add->counted_tasks = 1;
        for (int i = 0; i < ompt_counters_n; i++)
            add->events[i] = f->sync_counts[i] - f->begin_counts[i];
    }
    return 0;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism,
                             unsigned int index, int flags)
{
    /* task_schedule tells explicit tasks apart. Relaxed atomic: libomp hands a task's
     * data from thread to thread through its own allocator and barriers, which
     * ThreadSanitizer cannot see (the runtime is not instrumented: ompt_mix_c, CI). */
    if (task_data && endpoint == ompt_scope_begin)
        __atomic_store_n(&task_data->value, IMPLICIT_MARK, __ATOMIC_RELAXED);
    if (flags & ompt_task_initial)
        return; /* a thread's initial task: no parallel region */
    struct ompt_thread *th = ompt_thread_self();
    if (!th) {
        ompt_threads_count_unmeasured();
        if (endpoint == ompt_scope_begin) /* said in its region's row */
            ompt_threads_count_task(parallel_data ? (int)(parallel_data->value & REGION_MASK) - 1
                                                  : -1);
        return;
    }
    if (endpoint == ompt_scope_begin)
        task_begin(th, parallel_data, actual_parallelism, index);
    else if (endpoint == ompt_scope_end && th->depth > 0)
        task_end(th);
    ompt_thread_publish(th);
}

static int wait_class(ompt_sync_region_t kind)
{
    switch (kind) {
    case ompt_sync_region_taskwait:
    case ompt_sync_region_taskgroup:
        return OMPT_WAIT_TASKWAIT;
    case ompt_sync_region_reduction:
        return OMPT_WAIT_NONE;
    default:
        return OMPT_WAIT_BARRIER;
    }
}

/* The kinds a join barrier is reported as: the implicit barrier (before OpenMP 5.1) and
 * the parallel region's implicit barrier (5.1). */
static int may_be_join(ompt_sync_region_t kind)
{
    return kind == ompt_sync_region_barrier_implicit ||
           kind == ompt_sync_region_barrier_implicit_parallel || kind == ompt_sync_region_barrier;
}

/* A sync region's slice kind (the join is told at the task's end, or by 5.1's kind). */
static int span_kind(ompt_sync_region_t kind)
{
    return kind == ompt_sync_region_taskwait                    ? TRACE_OMP_TASKWAIT
           : kind == ompt_sync_region_taskgroup                 ? TRACE_OMP_TASKGROUP
           : kind == ompt_sync_region_barrier_implicit_parallel ? TRACE_OMP_JOIN
                                                                : TRACE_OMP_BARRIER;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data;
    struct ompt_frame *f = top_frame(ompt_self);
    int cls = wait_class(kind);
    if (!f || cls == OMPT_WAIT_NONE)
        return;
    /* A task waiting inside a barrier (depth past 1): the outer wait counts. */
    int first_begin = endpoint == ompt_scope_begin && f->sync_depth++ == 0;
    /* First, before the clock: a join barrier's begin is the end of the work's events, and
     * nothing between the task's begin read and this one may vary from one instance to
     * the next (the clock's read retries when the kernel updates its data meanwhile). */
    if (first_begin && f->counted && may_be_join(kind) &&
        ompt_counters_read(ompt_self, f->sync_counts) != 0)
        f->counted = 0;
    uint64_t t = now_ns();
    if (f->live && first_begin)
        ompt_live_work_end(ompt_self->index, t, 1);
    if (first_begin) {
        if (f->share && may_be_join(kind))
            share_at_barrier(f);
        commit_pending(f);
        ompt_constructs_sync_begin(ompt_self, f, kind, codeptr_ra);
        f->sync_class = cls, f->sync_join = may_be_join(kind);
        f->sync_begin_ns = t, f->wait_in_sync_ns = 0, f->task_in_sync_ns = 0;
        if (ompt_spans_on)
            f->span_sync = ompt_span_begin(&ompt_self->spans, span_kind(kind), -1, f->instance);
    } else if (endpoint == ompt_scope_end && f->sync_depth > 0 && --f->sync_depth == 0) {
        if (f->live)
            ompt_live_work_begin(ompt_self->index, t);
        if (ompt_spans_on)
            ompt_span_end(ompt_self->spans, f->span_sync);
        f->pending_class = f->sync_class, f->pending_join = f->sync_join;
        f->pending_cacc = f->sync_cacc;
        f->pending_begin_ns = f->sync_begin_ns;
        if (f->counted && f->sync_join)
            memcpy(f->pending_counts, f->sync_counts, sizeof f->sync_counts);
        f->pending_task_ns = f->task_in_sync_ns;
        uint64_t region = t - f->sync_begin_ns;
        f->pending_wait_ns = have_sync_wait                ? f->wait_in_sync_ns
                             : region > f->task_in_sync_ns ? region - f->task_in_sync_ns
                                                           : 0;
    }
    ompt_thread_publish(ompt_self); /* a worker's last callback before it parks */
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra)
{
    (void)kind, (void)parallel_data, (void)task_data, (void)codeptr_ra;
    struct ompt_frame *f = top_frame(ompt_self);
    if (!f || f->sync_depth != 1)
        return;
    if (endpoint == ompt_scope_begin) {
        f->wait_begin_ns = now_ns();
        f->task_at_wait_begin_ns = f->task_in_sync_ns;
    } else if (endpoint == ompt_scope_end && f->wait_begin_ns) {
        uint64_t waited = now_ns() - f->wait_begin_ns;
        uint64_t tasks = f->task_in_sync_ns - f->task_at_wait_begin_ns;
        f->wait_in_sync_ns += waited > tasks ? waited - tasks : 0;
        f->wait_begin_ns = 0;
    }
    ompt_thread_publish(ompt_self);
}

static int is_implicit(const ompt_data_t *task_data)
{
    return task_data && __atomic_load_n(&task_data->value, __ATOMIC_RELAXED) == IMPLICIT_MARK;
}

/* Into an explicit task from the implicit one, or back, inside a sync region: the time
 * between is work done while waiting. Task to task switches keep the clock running. */
static void on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data)
{
    if (ompt_self) /* the explicit tasks' run time by creating site, in a region or not */
        ompt_constructs_task_switch(ompt_self, prior_task_data,
                                    prior_task_status == ompt_task_complete, next_task_data);
    struct ompt_frame *f = top_frame(ompt_self);
    if (!f) {
        ompt_thread_publish(ompt_self);
        return;
    }
    int into = is_implicit(prior_task_data) && !is_implicit(next_task_data);
    int back = !is_implicit(prior_task_data) && is_implicit(next_task_data);
    if (ompt_spans_on) { /* the explicit task's slice, inside a wait or not */
        if (into && f->xtask_depth++ == 0)
            f->span_xtask = ompt_span_begin(&ompt_self->spans, TRACE_OMP_EXPLICIT, -1, f->instance);
        else if (back && f->xtask_depth > 0 && --f->xtask_depth == 0)
            ompt_span_end(ompt_self->spans, f->span_xtask);
    }
    if (f->sync_depth == 0) {
        ompt_thread_publish(ompt_self); /* the explicit task's run time, written above */
        return;
    }
    if (into && f->task_depth++ == 0) {
        f->task_begin_ns = now_ns();
        if (f->live) /* an explicit task run while waiting is work */
            ompt_live_work_begin(ompt_self->index, f->task_begin_ns);
    } else if (back && f->task_depth > 0 && --f->task_depth == 0) {
        uint64_t t = now_ns();
        f->task_in_sync_ns += t - f->task_begin_ns;
        if (f->live)
            ompt_live_work_end(ompt_self->index, t, 1);
    }
    ompt_thread_publish(ompt_self);
}

static void on_thread_begin(ompt_thread_t thread_type, ompt_data_t *thread_data)
{
    (void)thread_data;
    struct ompt_thread *th = ompt_thread_self();
    if (th) {
        th->type = (int)thread_type;
        ompt_counters_thread(th);
        ompt_thread_publish(th);
    } else
        ompt_threads_count_unmeasured();
    if (thread_type != ompt_thread_initial)
        ompt_share_thread(1); /* counted with or without a slot: the share's thread check */
}

static void on_thread_end(ompt_data_t *thread_data)
{
    (void)thread_data;
    if (!ompt_self || ompt_self->type != ompt_thread_initial)
        ompt_share_thread(0);
    if (ompt_self && ompt_counters_n)
        ompt_counters_release(ompt_self);
    ompt_thread_release(); /* its slot for the next thread, its sums kept */
}

const struct ompt_callback_entry ompt_callback_table[] = {
    {ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin, "thread_begin", 0},
    {ompt_callback_thread_end, (ompt_callback_t)on_thread_end, "thread_end", 0},
    {ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin, "parallel_begin", 0},
    {ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end, "parallel_end", 0},
    {ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task, "implicit_task", 0},
    {ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule, "task_schedule", 0},
    {ompt_callback_sync_region, (ompt_callback_t)on_sync_region, "sync_region", 0},
    {ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait, "sync_region_wait", 0},
    /* The constructs (ompt_construct_callbacks.c). */
    {ompt_callback_work, (ompt_callback_t)ompt_on_work, "work", 1},
    {ompt_callback_dispatch, (ompt_callback_t)ompt_on_dispatch, "dispatch", 1},
    {ompt_callback_mutex_acquire, (ompt_callback_t)ompt_on_mutex_acquire, "mutex_acquire", 1},
    {ompt_callback_mutex_acquired, (ompt_callback_t)ompt_on_mutex_acquired, "mutex_acquired", 1},
    {ompt_callback_mutex_released, (ompt_callback_t)ompt_on_mutex_released, "mutex_released", 1},
    {ompt_callback_lock_init, (ompt_callback_t)ompt_on_lock_init, "lock_init", 1},
    {ompt_callback_task_create, (ompt_callback_t)ompt_on_task_create, "task_create", 1},
    {ompt_callback_reduction, (ompt_callback_t)ompt_on_reduction, "reduction", 1},
    {ompt_callback_masked, (ompt_callback_t)ompt_on_masked, "masked", 1},
    {ompt_callback_target, (ompt_callback_t)ompt_on_target, "target", 1},
};
const int ompt_callback_count = sizeof ompt_callback_table / sizeof ompt_callback_table[0];
