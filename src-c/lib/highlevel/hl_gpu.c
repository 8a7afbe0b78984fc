/* hl_gpu.c: a region's GPU activity (hl_gpu.h). The layer's sums count a record when
 * CUPTI hands its buffer back, so each boundary flushes first: a kernel that finished
 * before the end is counted in the region, one still running is counted where it is
 * flushed later. The GPUs are the process's: a region counts every thread's GPU work
 * during it. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_gpu_activity.h"

#include "gpu_activity.h"
#include "gpu_activity_switch.h"
#include "gpu_report.h"
#include "hl_gpu.h"

struct hlr_gpu {
    int open; /* the begin's sums are held */
    long long count;
    struct gpu_snapshot begin, total;
    struct gpu_kernel_counts kbegin, ktotal;
};

/* PAPI_shutdown stops the layer (its sums stay for the reports at exit). */
static void at_shutdown(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN && !ev->keep_machine)
        gpu_activity_switch_stop("PAPI_shutdown");
}

int papi_gpu_activity_start(const char *who)
{
    static _Atomic int registered; /* at_shutdown: once, not at every region begin */
    int on = gpu_activity_switch_start(who ? who : "libpapi");
    if (on && !atomic_load_explicit(&registered, memory_order_relaxed) &&
        !atomic_exchange(&registered, 1))
        papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, at_shutdown);
    return on;
}

void papi_gpu_activity_flush(void)
{
    gpu_activity_flush();
}

long papi_gpu_activity_json(char *buf, size_t len)
{
    const char *why;
    if (!buf || len == 0 || (!gpu_activity_switch_state(&why) && !*why))
        return 0;
    FILE *f = fmemopen(buf, len, "w");
    if (!f)
        return -1;
    struct jw w;
    jw_init(&w, f);
    gpu_report_process(&w, NULL);
    fflush(f);
    long n = ftell(f);
    int bad = ferror(f) || n < 0 || (size_t)n >= len - 1;
    fclose(f); /* NUL-ends buf */
    return bad ? -1 : (long)strlen(buf);
}

void papi_gpu_activity_say_losses(const char *who)
{
    const char *why;
    if (gpu_activity_switch_state(&why))
        gpu_report_say_losses(stderr, who ? who : "libpapi");
}

void hl_gpu_region_begin(struct hlr_region *g)
{
    if (!papi_gpu_activity_start("region API"))
        return;
    if (!g->gpu && !(g->gpu = calloc(1, sizeof *g->gpu))) {
        fprintf(stderr, "papi: region API: no memory for region '%s''s GPU activity\n", g->name);
        return;
    }
    struct hlr_gpu *x = g->gpu;
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    x->open = t && gpu_kernels_take(t, &x->kbegin) == 0;
    if (x->open)
        gpu_snapshot_take(t, &x->begin);
    gpu_activity_unlock();
}

/* The rows' differences are added from the table itself: no copy of them per end. */
void hl_gpu_region_end(struct hlr_region *g)
{
    struct hlr_gpu *x = g->gpu;
    if (!x || !x->open)
        return;
    x->open = 0;
    struct gpu_snapshot now, d;
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    int ok = t && gpu_kernels_add_since(&x->ktotal, &x->kbegin, t) == 0;
    if (ok)
        gpu_snapshot_take(t, &now);
    gpu_activity_unlock();
    if (!ok) {
        fprintf(stderr, "papi: region API: no memory for region '%s''s GPU kernels\n", g->name);
        return;
    }
    gpu_snapshot_diff(&x->begin, &now, &d);
    gpu_snapshot_add(&x->total, &d);
    x->count++;
}

/* A thread's regions that have GPU sums, under its key. */
static void write_thread(struct jw *w, const struct gpu_table *t, const struct hlr_thread *th)
{
    char key[32];
    snprintf(key, sizeof key, "%d", th->key);
    jw_obj_begin(w, key);
    for (int r = 0; r < th->nregions; r++) {
        const struct hlr_gpu *x = th->region[r].gpu;
        if (x && x->count > 0)
            gpu_report_section(w, th->region[r].name, t, &x->total, &x->ktotal);
    }
    jw_obj_end(w);
}

void hl_gpu_write(struct jw *w)
{
    const char *why;
    if (!gpu_activity_switch_state(&why) && !*why)
        return; /* never asked: no region began */
    gpu_report_status(w, "gpu_activity");
    if (!gpu_activity_switch_state(&why))
        return;
    gpu_activity_flush();
    gpu_report_say_losses(stderr, "region API");
    jw_obj_begin(w, "gpu_regions");
    for (struct hlr_thread *th = g_hlr_threads; th; th = th->next) {
        pthread_mutex_lock(&th->lock); /* before table_lock, a leaf */
        if (th->key >= 0) {
            const struct gpu_table *t = gpu_activity_lock();
            write_thread(w, t, th);
            gpu_activity_unlock();
        }
        pthread_mutex_unlock(&th->lock);
    }
    jw_obj_end(w);
}
