/* gpu_span.c: what the GPUs did during a span (gpu_span.h). The layer's sums count a
 * record when CUPTI hands its buffer back, so each boundary flushes first: a kernel that
 * finished before the end is counted in the span, one still running where it is flushed
 * later. The GPUs are the process's: a span counts every thread's GPU work during it. */
#include "gpu_span.h"

#include <stdatomic.h>

#include "gpu_activity.h"
#include "gpu_report.h"

int gpu_span_begin(struct gpu_span *s, int link)
{
    static _Atomic uint64_t next_tag;
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    s->open = t && gpu_kernels_take(t, &s->kbegin) == 0;
    if (s->open)
        gpu_snapshot_take(t, &s->begin);
    gpu_activity_unlock();
    if (link && !s->tag) /* a span never linked has no tag, and no "launched" */
        s->tag = atomic_fetch_add(&next_tag, 1) + 1;
    s->pushed = link && gpu_activity_tag_push(s->tag);
    return s->open ? 0 : -1;
}

/* The rows' differences are added from the table itself: no copy of them per end. */
int gpu_span_end(struct gpu_span *s)
{
    if (s->pushed)
        gpu_activity_tag_pop();
    s->pushed = 0;
    if (!s->open)
        return 0;
    s->open = 0;
    struct gpu_snapshot now, d;
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    int ok = t && gpu_kernels_add_since(&s->ktotal, &s->kbegin, t) == 0;
    if (ok)
        gpu_snapshot_take(t, &now);
    gpu_activity_unlock();
    if (!ok)
        return -1;
    gpu_snapshot_diff(&s->begin, &now, &d);
    gpu_snapshot_add(&s->total, &d);
    s->count++;
    return 0;
}

void gpu_span_cancel(struct gpu_span *s)
{
    if (s->pushed)
        gpu_activity_tag_pop();
    s->pushed = s->open = 0;
}

void gpu_span_write(struct jw *w, const char *key, const struct gpu_span *s)
{
    static const struct gpu_attrib_sum none; /* linked, and launched nothing */
    if (s->count == 0)
        return;
    int linked = gpu_activity_linking() && s->tag;
    const struct gpu_table *t = gpu_activity_lock();
    const struct gpu_attrib_sum *own = t && linked ? gpu_attrib_get(&t->attrib, s->tag) : NULL;
    gpu_report_section(w, key, t, &s->total, &s->ktotal, linked ? (own ? own : &none) : NULL);
    gpu_activity_unlock();
}

void gpu_span_free(struct gpu_span *s)
{
    gpu_kernels_free(&s->kbegin);
    gpu_kernels_free(&s->ktotal);
}
