/* ompt_merge.c: the threads' accumulators summed per region and thread number
 * (ompt_merge.h). Runs once, at finalize, when the runtime's threads no longer run
 * callbacks; every bound (team sizes, thread numbers) is the data's own. */
#include <stdlib.h>
#include <string.h>

#include "ompt_callbacks.h"
#include "ompt_merge.h"

static void add_size(struct ompt_region_row *r, const struct ompt_team_size *s)
{
    for (int i = 0; i < r->nsizes; i++) {
        if (r->sizes[i].size == s->size) {
            r->sizes[i].instances += s->instances;
            r->sizes[i].wall_ns += s->wall_ns;
            return;
        }
    }
    if (r->nsizes < OMPT_REGION_SIZES) {
        r->sizes[r->nsizes++] = *s;
    } else {
        r->other_size_instances += s->instances;
        r->other_size_wall_ns += s->wall_ns;
    }
}

/* The master's part of an accumulator: instances, wall, team sizes. */
static void add_master(struct ompt_region_row *r, const struct ompt_acc *a)
{
    r->instances += a->instances;
    r->wall_ns += a->wall_ns;
    r->outer_instances += a->outer_instances;
    r->outer_wall_ns += a->outer_wall_ns;
    for (int i = 0; i < OMPT_SIZES && a->sizes[i].size; i++)
        add_size(r, &a->sizes[i]);
    r->other_size_instances += a->other_size_instances;
    r->other_size_wall_ns += a->other_size_wall_ns;
}

/* Pass 1: the masters' parts and each row's largest thread number (tmax[index]). */
static void add_masters(struct ompt_region_row *byindex, unsigned *tmax)
{
    int n = ompt_thread_count();
    for (int s = 0; s < n; s++) {
        const struct ompt_thread *th = ompt_thread_slot(s);
        for (int k = 0; th && k < OMPT_ACC_MAX; k++) {
            const struct ompt_acc *a = &th->acc[k];
            if (a->region == 0)
                continue;
            add_master(&byindex[a->region - 1], a);
            if (a->tnum + 1 > tmax[a->region - 1])
                tmax[a->region - 1] = a->tnum + 1;
        }
    }
}

static void add_acc(struct ompt_region_row *byindex, const struct ompt_acc *a)
{
    struct ompt_region_thread *t = &byindex[a->region - 1].threads[a->tnum];
    t->tasks += a->tasks, t->work_ns += a->work_ns, t->barrier_ns += a->barrier_ns;
    t->taskwait_ns += a->taskwait_ns, t->in_team_ns += a->in_team_ns;
    t->counted_tasks += a->counted_tasks;
    for (int e = 0; e < OMPT_EVENTS_MAX; e++)
        t->events[e] += a->events[e];
}

/* Pass 2: each thread number's sums, into rows sized by pass 1; with parked, the tasks
 * of threads parked at a join barrier whose end is still to come. */
static void add_threads(struct ompt_region_row *byindex, int parked)
{
    int n = ompt_thread_count();
    struct ompt_acc open;
    for (int s = 0; s < n; s++) {
        const struct ompt_thread *th = ompt_thread_slot(s);
        for (int k = 0; th && k < OMPT_ACC_MAX; k++)
            if (th->acc[k].region != 0)
                add_acc(byindex, &th->acc[k]);
        if (th && parked && ompt_parked_task(th, &open) == 0 &&
            open.tnum < byindex[open.region - 1].nthreads)
            add_acc(byindex, &open);
    }
}

/* A row's team sizes, thread rows and each thread number's share of the wall time. */
static int size_row(struct ompt_region_row *r, unsigned tmax)
{
    for (int i = 0; i < r->nsizes; i++)
        if (r->sizes[i].size > r->team_max)
            r->team_max = r->sizes[i].size;
    r->nthreads = tmax > r->team_max ? tmax : r->team_max;
    r->threads = calloc(r->nthreads ? r->nthreads : 1, sizeof *r->threads);
    if (!r->threads)
        return -1;
    for (unsigned t = 0; t < r->nthreads; t++)
        for (int i = 0; i < r->nsizes; i++)
            if (r->sizes[i].size > t)
                r->threads[t].wall_ns += r->sizes[i].wall_ns;
    return 0;
}

static int by_wall(const void *a, const void *b)
{
    const struct ompt_region_row *x = a, *y = b;
    return x->wall_ns < y->wall_ns ? 1 : x->wall_ns > y->wall_ns ? -1 : x->index - y->index;
}

static void add_thread_counts(struct ompt_merged *m)
{
    int n = ompt_thread_count();
    for (int s = 0; s < n; s++) {
        const struct ompt_thread *th = ompt_thread_slot(s);
        if (!th)
            continue;
        m->region_drops += th->region_drops;
        m->deep_tasks += th->deep_tasks;
        m->pair_drops += th->pair_drops;
        m->context_drops += th->context_drops;
        m->outer_unnamed_ns += th->outer_unnamed_ns;
    }
    struct ompt_unmeasured u;
    ompt_threads_unmeasured(&u);
    m->threads_seen = u.threads_seen, m->threads_ended = u.threads_ended;
    m->threads_without_slot = u.threads, m->unmeasured_events = u.events;
    m->unmeasured_tasks = u.tasks, m->unmeasured_instances = u.instances;
}

int ompt_merge(struct ompt_merged *m, int parked)
{
    memset(m, 0, sizeof *m);
    add_thread_counts(m);
    unsigned *tmax = calloc(OMPT_REGIONS_MAX, sizeof *tmax);
    m->rows = calloc(OMPT_REGIONS_MAX, sizeof *m->rows);
    if (!m->rows || !tmax)
        goto fail;
    m->nrows = OMPT_REGIONS_MAX; /* by index until compacted below */
    for (int i = 0; i < OMPT_REGIONS_MAX; i++)
        m->rows[i].index = i, m->rows[i].address = ompt_region_address(i),
        m->rows[i].context = ompt_region_context(i),
        m->rows[i].unmeasured_tasks = ompt_threads_unmeasured_tasks(i);
    add_masters(m->rows, tmax);
    for (int i = 0; i < OMPT_REGIONS_MAX; i++)
        if (m->rows[i].address && size_row(&m->rows[i], tmax[i]) != 0)
            goto fail;
    add_threads(m->rows, parked);
    int used = 0;
    for (int i = 0; i < OMPT_REGIONS_MAX; i++)
        if (m->rows[i].address)
            m->rows[used++] = m->rows[i];
    m->nrows = used;
    qsort(m->rows, (size_t)m->nrows, sizeof *m->rows, by_wall);
    free(tmax);
    return 0;
fail:
    free(tmax);
    ompt_merged_free(m);
    return -1;
}

void ompt_merged_free(struct ompt_merged *m)
{
    for (int i = 0; m->rows && i < m->nrows; i++)
        free(m->rows[i].threads);
    free(m->rows);
    m->rows = NULL;
    m->nrows = 0;
}
