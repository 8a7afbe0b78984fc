/* gpu_report.c: the GPU activity sections of the report files (gpu_report.h). */
#include "gpu_report.h"

#include "gpu_activity.h"
#include "gpu_activity_switch.h"
#include "str_append.h"

void gpu_report_status(struct jw *w, const char *key)
{
    const char *why;
    int on = gpu_activity_switch_state(&why);
    jw_obj_begin(w, key);
    jw_bool(w, "on", on);
    jw_str(w, "reason", why); /* "" while it records */
    const struct cupti_lib *lib = gpu_activity_library();
    if (on && lib && lib->handle) { /* loaded: not after a stop */
        int by_callback;
        int64_t off = gpu_activity_clock_offset(&by_callback);
        jw_str(w, "library", lib->path);
        jw_uint(w, "cupti_version", lib->version);
        jw_str(w, "clock", by_callback ? "CLOCK_MONOTONIC (timestamp callback)" : "offset");
        jw_int(w, "clock_offset_ns", by_callback ? 0 : off);
    }
    const struct gpu_table *t = gpu_activity_lock();
    if (t) {
        jw_uint(w, "records", t->records);
        jw_uint(w, "dropped", t->dropped);
        jw_uint(w, "buffers_refused", t->buffers_refused);
        jw_uint(w, "incomplete", t->incomplete);
        jw_uint(w, "kernels_untabled", t->kernels_untabled);
        jw_bool(w, "launch_links", gpu_activity_linking());
        jw_uint(w, "unlinked_launches", t->attrib.unattributed + t->attrib.untabled);
    }
    gpu_activity_unlock();
    jw_obj_end(w);
}

static void sum(struct jw *w, const char *key, const struct gpu_sum *s, int bytes)
{
    jw_obj_begin(w, key);
    jw_uint(w, "count", s->count);
    if (bytes)
        jw_uint(w, "bytes", s->bytes);
    jw_uint(w, "ns", s->ns);
    jw_obj_end(w);
}

static void kernels(struct jw *w, const struct gpu_table *t, const struct gpu_kernel_counts *k)
{
    jw_arr_begin(w, "kernels");
    for (int i = 0; t && k && i < k->n && i < t->nkernels; i++) {
        const struct gpu_kernel_count *c = &k->row[i];
        if (c->launches == 0)
            continue;
        const struct gpu_kernel_row *r = &t->kernels[i];
        jw_obj_begin(w, NULL);
        jw_str(w, "name", r->name);
        jw_uint(w, "device", r->device);
        jw_uint(w, "stream", r->stream);
        jw_uint(w, "launches", c->launches);
        jw_uint(w, "total_ns", c->ns);
        jw_uint(w, "mean_ns", c->ns / c->launches);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* "launched": what the region's own launches did (correlation ids), whenever they ran. */
static void launched_by(struct jw *w, const struct gpu_attrib_sum *a)
{
    jw_obj_begin(w, "launched");
    jw_uint(w, "kernel_launches", a->kernel_launches);
    jw_uint(w, "kernel_ns", a->kernel_ns);
    jw_obj_begin(w, "copies");
    for (unsigned i = 0; i < CUPTI_MEMCPY_KINDS; i++)
        if (a->copies[i][0] > 0) {
            jw_obj_begin(w, gpu_copy_direction(i));
            jw_uint(w, "count", a->copies[i][0]);
            jw_uint(w, "bytes", a->copies[i][1]);
            jw_obj_end(w);
        }
    jw_obj_end(w);
    jw_obj_begin(w, "memset");
    jw_uint(w, "count", a->memsets);
    jw_uint(w, "bytes", a->memset_bytes);
    jw_obj_end(w);
    jw_obj_end(w);
}

void gpu_report_section(struct jw *w, const char *key, const struct gpu_table *t,
                        const struct gpu_snapshot *s, const struct gpu_kernel_counts *k,
                        const struct gpu_attrib_sum *launched)
{
    uint64_t busy = 0;
    jw_obj_begin(w, key);
    jw_arr_begin(w, "devices");
    for (int i = 0; i < s->ndevices; i++) {
        jw_obj_begin(w, NULL);
        jw_uint(w, "device", s->devices[i].id);
        jw_uint(w, "busy_ns", s->devices[i].busy_ns);
        jw_obj_end(w);
        busy += s->devices[i].busy_ns;
    }
    jw_arr_end(w);
    jw_uint(w, "busy_ns", busy);
    jw_uint(w, "kernel_launches", s->kernel_launches);
    jw_uint(w, "kernel_ns", s->kernel_ns);
    kernels(w, t, k);
    jw_obj_begin(w, "copies");
    for (unsigned i = 0; i < CUPTI_MEMCPY_KINDS; i++)
        if (s->copies[i].count > 0)
            sum(w, gpu_copy_direction(i), &s->copies[i], 1);
    jw_obj_end(w);
    sum(w, "memset", &s->memsets, 1);
    sum(w, "sync", &s->syncs, 0);
    jw_uint(w, "dropped", s->dropped);
    if (launched)
        launched_by(w, launched);
    jw_obj_end(w);
}

void gpu_report_process(struct jw *w, const char *key)
{
    jw_obj_begin(w, key);
    gpu_report_status(w, "activity");
    const struct gpu_table *t = gpu_activity_lock();
    if (t) {
        struct gpu_snapshot s;
        struct gpu_kernel_counts k = {0, 0, NULL};
        gpu_snapshot_take(t, &s);
        if (gpu_kernels_take(t, &k) == 0)
            gpu_report_section(w, "total", t, &s, &k, NULL);
        gpu_kernels_free(&k);
    }
    gpu_activity_unlock();
    jw_obj_end(w);
}

/* A factor, or null where it cannot be formed (negative). */
static void factor(struct jw *w, const char *key, double v)
{
    if (v < 0)
        jw_null(w, key);
    else
        jw_fixed(w, key, v, 6);
}

void gpu_report_device_pop(struct jw *w, const char *key, const struct pop_in *p)
{
    struct pop_factors f = pop_factors(p);
    jw_obj_begin(w, key);
    jw_int(w, "gpus", p->gpus);
    jw_fixed(w, "runtime_s", p->sum_runtime, 9);
    jw_fixed(w, "useful_sum_s", p->sum_gpu_useful, 9);
    jw_fixed(w, "useful_max_s", p->max_gpu_useful, 9);
    jw_fixed(w, "active_max_s", p->max_gpu_active, 9);
    factor(w, "offload_efficiency", f.offload);
    factor(w, "parallel_efficiency", f.device_parallel);
    factor(w, "load_balance", f.device_load_balance);
    factor(w, "communication_efficiency", f.device_communication);
    factor(w, "orchestration_efficiency", f.device_orchestration);
    jw_obj_end(w);
}

void gpu_report_run_pop(struct jw *w, const char *key, uint64_t now)
{
    uint64_t t0 = gpu_activity_run_start_ns();
    const struct gpu_table *t = t0 ? gpu_activity_lock() : NULL;
    struct gpu_pop_times p = {0, 0, 0};
    int any = t != NULL;
    if (t) {
        struct gpu_snapshot s;
        gpu_snapshot_take(t, &s);
        p = gpu_snapshot_pop_times(&s);
    }
    if (t0)
        gpu_activity_unlock();
    if (!any)
        return;
    double wall = now > t0 ? (double)(now - t0) * 1e-9 : 0;
    struct pop_in in = {0};
    pop_add(&in, wall, 0, 0);
    pop_add_device(&in, (double)p.runtime_ns * 1e-9, (double)p.useful_ns * 1e-9,
                   (double)p.comm_ns * 1e-9);
    jw_obj_begin(w, key);
    jw_fixed(w, "wall_s", wall, 9);
    gpu_report_device_pop(w, "pop", &in);
    jw_obj_end(w);
}

unsigned long long gpu_report_say_losses(FILE *f, const char *who)
{
    const struct gpu_table *t = gpu_activity_lock();
    unsigned long long dropped = t ? t->dropped : 0, refused = t ? t->buffers_refused : 0,
                       untabled = t ? t->kernels_untabled : 0;
    gpu_activity_unlock();
    if (!dropped && !refused && !untabled)
        return 0;
    char line[512] = "";
    if (dropped)
        str_appendf(line, sizeof line, "; CUPTI dropped %llu records", dropped);
    if (refused)
        str_appendf(line, sizeof line, "; %llu buffer requests refused (the pool's %d MiB full)",
                    refused, GPU_ACTIVITY_BUFFERS * (int)(GPU_ACTIVITY_BUFFER_SIZE >> 20));
    if (untabled)
        str_appendf(line, sizeof line,
                    "; %llu kernel launches past the table's %d rows or %d devices have no row",
                    untabled, GPU_TABLE_KERNELS, GPU_TABLE_DEVICES);
    fprintf(f, "papi: %s: GPU activity incomplete%s\n", who, line);
    return dropped;
}
