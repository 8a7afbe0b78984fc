/* gpu_row.c: a rank's GPU activity in its row (gpu_row.h). libpapi holds the layer (CUPTI
 * takes one subscriber per process, and the region API may use it too); the section is
 * its JSON, written straight into the row's buffer. */
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "gpu_row.h"
#include "papi_gpu_activity.h"
#include "region_state.h"
#include "json_writer.h"
#include "text_buffer.h"

/* The layer writes its JSON this far into the buffer's free room, past where the member's
 * separator and key (', "gpu": ') go; jw_raw then moves it down behind them. */
#define KEY_ROOM 16
#define ROW_TAIL 64 /* the row's closing text after this member */
/* A region's section is written only while this much room stays after it: the rest of
 * the row (more regions, traffic, samples, the rank's GPU totals) must still fit. */
#define REGION_RESERVE (256u * 1024)
#define REGION_MAX     (64u * 1024)

void pmpi_gpu_start(void)
{
    const char *trace = env_get("PAPI_MPI_TRACE");
    if (papi_gpu_activity_start("MPI wrapper") && trace && *trace &&
        !papi_gpu_activity_trace_keep()) /* the trace's GPU tracks (trace_export.c) */
        fprintf(stderr, "papi_mpi: PAPI_MPI_TRACE: no memory for the GPU tracks\n");
}

/* The layer's JSON, written by fill into t's free room (at most max bytes), as member
 * "gpu" of w; "gpu_note" (note) when it did not fit. */
static void gpu_member(struct jw *w, struct tbuf *t, size_t max, const char *note,
                       long (*fill)(void *arg, char *buf, size_t len), void *arg)
{
    char *at = t->s + t->len;
    long n = fill(arg, at + KEY_ROOM, max);
    if (n > 0) {
        at[KEY_ROOM + n] = '\0';
        jw_raw(w, "gpu", at + KEY_ROOM); /* the buffer copies with memmove */
    } else if (n < 0) {
        at[0] = '\0';
        jw_str(w, "gpu_note", note);
    }
}

static long activity(void *arg, char *buf, size_t len)
{
    (void)arg;
    return papi_gpu_activity_json(buf, len);
}

static long span(void *arg, char *buf, size_t len)
{
    return papi_gpu_span_json(((const struct pmpi_region *)arg)->gpu, buf, len);
}

void pmpi_gpu_row_json(struct jw *w, struct tbuf *t)
{
    if (t->cut || t->cap - t->len < KEY_ROOM + ROW_TAIL + 2)
        return;
    papi_gpu_activity_flush(); /* every record up to now: MPI_Finalize, a checkpoint */
    gpu_member(w, t, t->cap - t->len - KEY_ROOM - ROW_TAIL,
               "the GPU activity did not fit the row's buffer", activity, NULL);
}

void pmpi_gpu_say_losses(void)
{
    papi_gpu_activity_say_losses("MPI wrapper");
}

void pmpi_gpu_region_begin(struct pmpi_region *r)
{
    if (!r->gpu)
        r->gpu = papi_gpu_span_new();
    papi_gpu_span_begin(r->gpu);
}

void pmpi_gpu_region_end(struct pmpi_region *r)
{
    papi_gpu_span_end(r->gpu);
}

void pmpi_gpu_region_json(struct jw *w, struct tbuf *t, const struct pmpi_region *r)
{
    size_t room = t->cut ? 0 : t->cap - t->len;
    if (!r->gpu || room < KEY_ROOM + REGION_RESERVE + 2)
        return;
    size_t len = room - KEY_ROOM - REGION_RESERVE;
    gpu_member(w, t, len < REGION_MAX ? len : REGION_MAX,
               "the region's GPU activity did not fit the row's buffer", span, (void *)r);
}

int pmpi_gpu_pop_times(const struct pmpi_region *r, double t[3])
{
    struct papi_gpu_pop_times p;
    int on = r ? papi_gpu_span_pop_times(r->gpu, &p) : papi_gpu_activity_pop_times(&p);
    t[0] = (double)p.useful_ns * 1e-9;
    t[1] = (double)p.comm_ns * 1e-9;
    t[2] = (double)p.runtime_ns * 1e-9;
    return on;
}
