/* gpu_exports.c: libpapi's exported calls into its GPU activity layer
 * (src-c/include/papi_gpu_activity.h), the layer's one front door: the region API
 * (highlevel/hl_gpu.c), the MPI wrapper and papi_run's preloaded library start, flush and
 * read it through them. Part of libpapi, not of papi_gpu_activity: it registers with the
 * library's lifecycle (the API layer of src-c/lib/layers.map). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_gpu_activity.h"

#include "gpu_activity.h"
#include "gpu_activity_switch.h"
#include "gpu_report.h"
#include "gpu_span.h"
#include "json_writer.h"
#include "mono_clock.h"
#include "papi_sdk.h"

/* PAPI_shutdown stops the layer (its sums stay for the reports at exit). */
static void at_shutdown(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN && !ev->keep_machine)
        gpu_activity_switch_stop("PAPI_shutdown");
}

int papi_gpu_activity_start(const char *who)
{
    static _Atomic int registered; /* at_shutdown: once, not at every region begin */
    int on = gpu_activity_switch_start(who);
    if (on && !atomic_load_explicit(&registered, memory_order_relaxed) &&
        !atomic_exchange(&registered, 1))
        papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, at_shutdown);
    return on;
}

void papi_gpu_activity_flush(void)
{
    gpu_activity_flush();
}

int papi_gpu_activity_trace_keep(void)
{
    return gpu_activity_trace_keep();
}

long long papi_gpu_activity_trace_kept(void)
{
    return gpu_activity_trace_kept();
}

int papi_gpu_activity_trace_ops(struct trace_gpu_ops *g, struct trace_gpu_since *since)
{
    return gpu_activity_trace_ops(g, since);
}

/* What write writes (arg its argument) as JSON into buf[len], NUL-ended: its length, or
 * -1 when it does not fit. */
static long json_into(char *buf, size_t len, void (*write)(struct jw *, const void *),
                      const void *arg)
{
    FILE *f = fmemopen(buf, len, "w");
    if (!f)
        return -1;
    struct jw w;
    jw_init(&w, f);
    write(&w, arg);
    fflush(f);
    long n = ftell(f);
    int bad = ferror(f) || n < 0 || (size_t)n >= len - 1;
    fclose(f); /* NUL-ends buf */
    return bad ? -1 : (long)strlen(buf);
}

static void write_process(struct jw *w, const void *arg)
{
    (void)arg;
    gpu_report_process(w, NULL);
}

static void write_run_pop(struct jw *w, const void *arg)
{
    gpu_report_run_pop(w, NULL, *(const uint64_t *)arg);
}

long papi_gpu_activity_run_pop_json(char *buf, size_t len)
{
    uint64_t asked = mono_clock_ns();
    if (!buf || len == 0 || !gpu_activity_run_start_ns())
        return 0;
    gpu_activity_flush();
    return json_into(buf, len, write_run_pop, &asked);
}

long papi_gpu_activity_json(char *buf, size_t len)
{
    const char *why;
    if (!buf || len == 0 || (!gpu_activity_switch_state(&why) && !*why))
        return 0;
    return json_into(buf, len, write_process, NULL);
}

struct papi_gpu_span {
    pthread_mutex_t lock; /* begin, end and the JSON: a checkpoint reads while a thread ends */
    struct gpu_span span; /* not linked: an MPI_Pcontrol region may end on another thread */
};

papi_gpu_span_t *papi_gpu_span_new(void)
{
    papi_gpu_span_t *s = calloc(1, sizeof *s);
    if (s)
        pthread_mutex_init(&s->lock, NULL);
    return s;
}

void papi_gpu_span_begin(papi_gpu_span_t *s)
{
    const char *why;
    if (!s || !gpu_activity_switch_state(&why) || *why) /* not running (off, or stopped) */
        return;
    pthread_mutex_lock(&s->lock);
    gpu_span_begin(&s->span, 0);
    pthread_mutex_unlock(&s->lock);
}

void papi_gpu_span_end(papi_gpu_span_t *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    gpu_span_end(&s->span);
    pthread_mutex_unlock(&s->lock);
}

static void write_span(struct jw *w, const void *arg)
{
    gpu_span_write(w, NULL, arg);
}

long papi_gpu_span_json(papi_gpu_span_t *s, char *buf, size_t len)
{
    if (!s || !buf || len == 0)
        return 0;
    pthread_mutex_lock(&s->lock);
    long n = s->span.count > 0 ? json_into(buf, len, write_span, &s->span) : 0;
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void pop_times_from(struct papi_gpu_pop_times *t, const struct gpu_snapshot *s)
{
    struct gpu_pop_times p = gpu_snapshot_pop_times(s);
    t->useful_ns = p.useful_ns;
    t->comm_ns = p.comm_ns;
    t->runtime_ns = p.runtime_ns;
}

int papi_gpu_activity_pop_times(struct papi_gpu_pop_times *t)
{
    const char *why;
    memset(t, 0, sizeof *t);
    if (!gpu_activity_switch_state(&why))
        return 0; /* never recorded (one stopped by PAPI_shutdown keeps its sums) */
    gpu_activity_flush();
    struct gpu_snapshot s;
    const struct gpu_table *tb = gpu_activity_lock();
    if (tb)
        gpu_snapshot_take(tb, &s);
    gpu_activity_unlock();
    if (tb)
        pop_times_from(t, &s);
    return tb != NULL;
}

int papi_gpu_span_pop_times(papi_gpu_span_t *s, struct papi_gpu_pop_times *t)
{
    memset(t, 0, sizeof *t);
    if (!s)
        return 0;
    pthread_mutex_lock(&s->lock);
    int ok = s->span.count > 0;
    if (ok)
        pop_times_from(t, &s->span.total);
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void papi_gpu_activity_say_losses(const char *who)
{
    const char *why;
    if (gpu_activity_switch_state(&why))
        gpu_report_say_losses(stderr, who ? who : "libpapi");
}
