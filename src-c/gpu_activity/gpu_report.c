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

void gpu_report_section(struct jw *w, const char *key, const struct gpu_table *t,
                        const struct gpu_snapshot *s, const struct gpu_kernel_counts *k)
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
            gpu_report_section(w, "total", t, &s, &k);
        gpu_kernels_free(&k);
    }
    gpu_activity_unlock();
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
