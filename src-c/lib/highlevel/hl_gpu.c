/* hl_gpu.c: a region's GPU activity (hl_gpu.h): a span of the layer's (gpu_span.h) per
 * region name and thread, its launches linked to it; the layer started through libpapi's
 * exported front door (src-c/gpu_activity/gpu_exports.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "papi_gpu_activity.h"

#include "gpu_activity.h"
#include "gpu_activity_switch.h"
#include "gpu_report.h"
#include "gpu_span.h"
#include "hl_gpu.h"
#include "mono_clock.h"
#include "hl_trace.h"

struct hlr_gpu {
    struct gpu_span span; /* linked: a region's begin and end run on its thread */
};

void hl_gpu_span_begin(struct hlr_region *g)
{
    if (!papi_gpu_activity_start("region API"))
        return;
    static _Atomic int keep_asked; /* PAPI_TRACE: the GPU tracks too */
    if (hl_trace_on() && !atomic_exchange(&keep_asked, 1) && !gpu_activity_trace_keep())
        fprintf(stderr, "PAPI: PAPI_TRACE: no memory for the GPU tracks\n");
    if (!g->gpu && !(g->gpu = calloc(1, sizeof *g->gpu))) {
        fprintf(stderr, "papi: region API: no memory for region '%s''s GPU activity\n", g->name);
        return;
    }
    if (gpu_span_begin(&g->gpu->span, 1) != 0)
        fprintf(stderr, "papi: region API: no memory for region '%s''s GPU kernels\n", g->name);
}

void hl_gpu_span_end(struct hlr_region *g)
{
    if (gpu_span_end(&g->gpu->span) != 0)
        fprintf(stderr, "papi: region API: no memory for region '%s''s GPU kernels\n", g->name);
}

void hl_gpu_region_cancel(struct hlr_region *g)
{
    if (g->gpu)
        gpu_span_cancel(&g->gpu->span);
}

/* A thread's regions that have GPU sums, under its key. */
static void write_thread(struct jw *w, struct hlr_thread *th)
{
    char key[32];
    snprintf(key, sizeof key, "%d", th->key);
    jw_obj_begin(w, key);
    for (int r = 0; r < th->nregions; r++)
        if (th->region[r].gpu)
            gpu_span_write(w, th->region[r].name, &th->region[r].gpu->span);
    jw_obj_end(w);
}

/* A thread's regions' host/device POP factors under its key: one process, its host time
 * the region's wall time (the region API does not know its MPI time). */
static void write_thread_pop(struct jw *w, struct hlr_thread *th)
{
    char key[32];
    snprintf(key, sizeof key, "%d", th->key);
    jw_obj_begin(w, key);
    for (int r = 0; r < th->nregions; r++) {
        const struct hlr_region *g = &th->region[r];
        if (!g->gpu || g->gpu->span.count == 0)
            continue;
        struct gpu_pop_times t = gpu_snapshot_pop_times(&g->gpu->span.total);
        struct pop_in p = {0};
        pop_add(&p, (double)g->total.real * 1e-9, 0, 0);
        pop_add_device(&p, t.runtime_ns * 1e-9, t.useful_ns * 1e-9, t.comm_ns * 1e-9);
        gpu_report_device_pop(w, g->name, &p);
    }
    jw_obj_end(w);
}

void hl_gpu_write(struct jw *w)
{
    uint64_t asked = mono_clock_ns(); /* the run's end for its POP factors: before the flush */
    const char *why;
    if (!gpu_activity_switch_state(&why) && !*why)
        return; /* never asked: no region began */
    gpu_report_status(w, "gpu_activity");
    if (!gpu_activity_switch_state(&why))
        return;
    gpu_activity_flush();
    gpu_report_say_losses(stderr, "region API");
    /* each thread's lock is taken before table_lock, a leaf */
    hl_write_threads(w, "gpu_regions", write_thread);
    hl_write_threads(w, "gpu_pop", write_thread_pop);
    gpu_report_run_pop(w, "gpu_run_pop", asked); /* the whole run's, beside its regions' */
}
