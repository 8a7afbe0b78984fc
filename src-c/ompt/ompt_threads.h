/* ompt_threads.h: what each thread accumulates, in a slot of its own (ompt_threads.c), so
 * the callbacks take no lock: a thread writes only its own slot; the report reads every
 * slot once, at finalize, after the runtime has stopped its threads.
 *
 * A slot holds the implicit tasks the thread runs now (a stack: nested regions above their
 * parent's) and its accumulators, one per (parallel region, OpenMP thread number) it has
 * run, in a fixed table; the thread number 0 of a region (its master) also keeps the
 * instances it forked: their wall time and team sizes. A slot is given back at its
 * thread's end and taken by the next thread that finds no fresh one: its accumulators
 * stay (sums, keyed by region and thread number, whichever OS thread adds to them), its
 * thread's own state (tasks open, event set, trace log) is started afresh. Everything
 * is bounded: threads past OMPT_THREADS_MAX alive at once, nesting past OMPT_DEPTH_MAX
 * and pairs past OMPT_ACC_MAX are counted as not measured, never filed elsewhere. */
#ifndef PAPI_OMPT_THREADS_H
#define PAPI_OMPT_THREADS_H

#include <stdatomic.h>
#include <stdint.h>

#include "ompt_regions.h"
#include "ompt_spans.h"

#define OMPT_THREADS_MAX 1024 /* slots, i.e. threads alive at once with one */
#define OMPT_DEPTH_MAX   8    /* implicit tasks nested in one thread */
#define OMPT_ACC_MAX     512  /* (region, thread number) pairs per thread, a power of two */
#define OMPT_SIZES       4    /* distinct team sizes kept per region and master thread */
#define OMPT_EVENTS_MAX  8    /* events each thread counts (ompt_counters.h) */
#define OMPT_CACC_MAX    256  /* (construct, thread number) pairs per thread, a power of two */
#define OMPT_HELD_MAX    8    /* mutexes one thread holds at once, measured */

/* The wait classes of sync regions: barriers (explicit, implicit, implementation's) and
 * task waits (taskwait, taskgroup). */
enum ompt_wait_class { OMPT_WAIT_NONE, OMPT_WAIT_BARRIER, OMPT_WAIT_TASKWAIT };

struct ompt_team_size {
    unsigned size;
    uint64_t instances, wall_ns;
};

/* One (region, OpenMP thread number) on one thread; region is the index + 1 (0: free). */
struct ompt_acc {
    int region;
    unsigned tnum;
    uint64_t tasks;       /* implicit tasks run */
    uint64_t work_ns;     /* implicit task time, up to the join barrier, less the waits */
    uint64_t barrier_ns;  /* waits at barriers inside the region (the join barrier apart) */
    uint64_t taskwait_ns; /* waits at taskwait and taskgroup */
    uint64_t in_team_ns;  /* from the instance's fork to this thread's join barrier */
    /* Thread number 0 (the master): the instances it forked and joined. */
    uint64_t instances, wall_ns, outer_instances, outer_wall_ns;
    struct ompt_team_size sizes[OMPT_SIZES];
    uint64_t other_size_instances, other_size_wall_ns; /* team sizes past OMPT_SIZES */
    uint64_t counted_tasks;                            /* implicit tasks whose events were read */
    uint64_t events[OMPT_EVENTS_MAX];                  /* their events, begin to the work's end */
};

/* One (construct, OpenMP thread number) on one thread (ompt_constructs.h); construct is
 * the index + 1 (0: free). Per kind: entries are the encounters (a mutex's acquisitions,
 * a task site's completed runs), time the time inside (a worksharing construct's from
 * its begin to its end, a mutex's held, a task's run), wait the time waiting (a mutex's
 * acquire, a worksharing construct's ending barrier, a taskwait's or barrier's wait). */
struct ompt_cacc {
    int construct;
    unsigned tnum;
    uint64_t entries, time_ns, wait_ns;
    uint64_t trip;       /* loops, sections: the iterations (sections) each encounter reported */
    uint64_t iterations; /* the iterations (sections, chunks' iterations) this thread ran,
                          * by dispatch; a single's executions */
    uint64_t created;    /* tasks: created by this thread at the site */
};

/* The constructs open in a task (or, outside any parallel region, in the thread). */
struct ompt_construct_state {
    struct ompt_cacc *work; /* the worksharing construct running, its begin, its slice */
    uint64_t work_begin_ns;
    int64_t work_span;
    struct ompt_cacc *after_work; /* the one that ended last: the barrier next is its wait */
    struct ompt_cacc *timed[3];   /* a reduction, masked or target region open, its begin */
    uint64_t timed_begin_ns[3];
    int64_t timed_span[3];
};

/* An implicit task the thread runs now, and the sync region it is in. The last sync
 * region that ended is kept pending: when the task's end follows it at once it was the
 * join barrier (whose end some runtimes report only at the next fork). */
struct ompt_frame {
    struct ompt_acc *acc; /* NULL: not measured (its region or pair was dropped) */
    unsigned team;
    uint64_t fork_ns, begin_ns, barrier_ns, taskwait_ns;
    int sync_depth, sync_class, sync_join;
    uint64_t sync_begin_ns, wait_begin_ns, wait_in_sync_ns;
    /* Explicit tasks the thread runs inside the sync region: work, not wait. */
    int task_depth;
    uint64_t task_begin_ns, task_in_sync_ns, task_at_wait_begin_ns;
    int pending_class, pending_join;
    uint64_t pending_begin_ns, pending_wait_ns, pending_task_ns;
    /* The events at the task's begin, at the sync region's begin (a join barrier's
     * begin is the work's end) and at the pending one's; counted: begin was read. */
    int counted;
    uint64_t begin_counts[OMPT_EVENTS_MAX], sync_counts[OMPT_EVENTS_MAX];
    /* A worker's outermost task: its counts up to the last barrier's begin, added to the
     * process's share (ompt_share.h) there; share 0: not a worker's or not counted. */
    int share;
    uint64_t share_counts[OMPT_EVENTS_MAX];
    /* An outermost measured task whose work the live sums follow (ompt_live_sums.h). */
    int live;
    uint64_t pending_counts[OMPT_EVENTS_MAX];
    /* Its trace slices (ompt_spans.h; -1: none): the task's, its sync region's (the last
     * one's after its end: the join, if the task ends next) and the explicit task it runs
     * (xtask_depth: explicit tasks nested in the thread's switches). */
    uint64_t instance;
    int64_t span_task, span_sync, span_xtask;
    int xtask_depth;
    /* Its constructs, and the one whose wait its (pending) sync region is. */
    struct ompt_construct_state cs;
    struct ompt_cacc *sync_cacc, *pending_cacc;
};

struct ompt_thread {
    int index; /* its place in the slots, given back at its thread's end */
    int type;  /* ompt_thread_t, from thread_begin (0: not told) */
    int depth; /* implicit tasks open; those past OMPT_DEPTH_MAX have no frame */
    unsigned last_team;
    int counters; /* 0: no event set yet, 1: counting, -1: it cannot (ompt_counters.c) */
    int eventset;
    struct ompt_frame frames[OMPT_DEPTH_MAX];
    uint64_t deep_tasks;       /* implicit tasks nested past OMPT_DEPTH_MAX: not measured */
    uint64_t pair_drops;       /* implicit tasks whose pair found no room: not measured */
    uint64_t region_drops;     /* instances of regions past OMPT_REGIONS_MAX */
    uint64_t outer_unnamed_ns; /* outermost instances' wall in dropped regions */
    /* The last fork's context (ompt_contexts.h): its named region id, MPI_Pcontrol
     * region + 1 (all 0: none) and index, so a fork in the same regions looks up nothing. */
    long ctx_named;
    int ctx_mpi1;
    unsigned ctx;
    uint64_t context_drops; /* forks whose context found no room (OMPT_CONTEXT_DROPPED) */
    /* Its trace slices (ompt_spans.h): the log, and the parallel region it forked at
     * each depth of its implicit tasks (-1: none). */
    struct ompt_span_log *spans;
    int64_t span_region[OMPT_DEPTH_MAX + 1];
    /* The thread's callbacks so far, stored with release at each one's end and loaded
     * with acquire by the report (ompt_thread_slot): the runtime's joins order a
     * report after the threads' writes, but a runtime built without ThreadSanitizer
     * does so unseen; this orders them for TSan too, at the cost of one store. */
    unsigned seq;
    atomic_uint published;
    struct ompt_acc acc[OMPT_ACC_MAX];
    /* Constructs (ompt_construct_callbacks.c): those outside any parallel region, the
     * mutex being acquired and those held, the explicit task running, and the pairs. */
    struct ompt_construct_state serial_cs;
    struct ompt_cacc *acquiring;
    uint64_t acquire_begin_ns;
    int64_t acquire_span; /* its slice: from the acquire to the release */
    int held_n;
    struct {
        uint64_t wait_id;
        struct ompt_cacc *c;
        uint64_t since_ns;
        int64_t span;
    } held[OMPT_HELD_MAX];
    struct ompt_cacc *xtask;
    uint64_t xtask_begin_ns;
    uint64_t construct_drops; /* encounters whose pair found no room */
    struct ompt_cacc cacc[OMPT_CACC_MAX];
};

/* The calling thread's slot, claimed at its first use (a fresh one, else one an ended
 * thread gave back: a scan, not the hot path); NULL when OMPT_THREADS_MAX threads hold
 * one or without memory (the thread is then counted in ompt_threads_unmeasured, once
 * until its end, and so are its events). */
OMPT_HIDDEN struct ompt_thread *ompt_thread_claim(void);
extern __thread struct ompt_thread *ompt_self OMPT_HIDDEN;
static inline struct ompt_thread *ompt_thread_self(void)
{
    return ompt_self ? ompt_self : ompt_thread_claim();
}
/* The end of a callback that wrote th: its writes published to the report. */
static inline void ompt_thread_publish(struct ompt_thread *th)
{
    if (th)
        atomic_store_explicit(&th->published, ++th->seq, memory_order_release);
}
/* The implicit task th runs now (NULL: none, or nested past OMPT_DEPTH_MAX). */
static inline struct ompt_frame *ompt_thread_frame(struct ompt_thread *th)
{
    return th && th->depth > 0 && th->depth <= OMPT_DEPTH_MAX ? &th->frames[th->depth - 1] : NULL;
}
/* The accumulator of (construct, tnum) in th, made at its first use; NULL when full
 * (counted in th->construct_drops). */
OMPT_HIDDEN struct ompt_cacc *ompt_thread_cacc(struct ompt_thread *th, int construct,
                                               unsigned tnum);
/* The accumulator of (region, tnum) in th, made at its first use; NULL when full. */
OMPT_HIDDEN struct ompt_acc *ompt_thread_acc(struct ompt_thread *th, int region, unsigned tnum);
/* The calling thread's end (thread_end, its event set closed first): its slot (if any)
 * given back for the next thread, its trace log kept for the report
 * (ompt_spans_retire); a thread that found none may look again if it comes back. */
OMPT_HIDDEN void ompt_thread_release(void);
/* Slots made, and slot i with the writes its threads published (for the report). */
OMPT_HIDDEN int ompt_thread_count(void);
OMPT_HIDDEN struct ompt_thread *ompt_thread_slot(int i);

/* What threads without a slot did, counted (relaxed atomics): their callbacks, and the
 * implicit tasks they ran per region (region -1: an instance not measured) and the
 * instances they forked, neither in any slot. */
struct ompt_unmeasured {
    uint64_t threads_seen, threads_ended;       /* threads that had a slot, and ended */
    uint64_t threads, events, tasks, instances; /* threads without one, and theirs */
};
OMPT_HIDDEN void ompt_threads_unmeasured(struct ompt_unmeasured *u);
OMPT_HIDDEN uint64_t ompt_threads_unmeasured_tasks(int region);
OMPT_HIDDEN void ompt_threads_count_unmeasured(void);
OMPT_HIDDEN void ompt_threads_count_task(int region);
OMPT_HIDDEN void ompt_threads_count_instance(void);

#endif
