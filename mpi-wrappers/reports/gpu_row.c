/* gpu_row.c: a rank's GPU activity in its row (gpu_row.h). libpapi holds the layer (CUPTI
 * takes one subscriber per process, and the region API may use it too); the section is
 * its JSON, written straight into the row's buffer. */
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "gpu_row.h"
#include "papi_gpu_activity.h"
#include "region_state.h"
#include "text_buffer.h"

#define GPU_PREFIX ", \"gpu\": "
#define ROW_TAIL   64 /* the row's closing text after this member */
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

void pmpi_gpu_row_json(struct tbuf *t)
{
    size_t plen = strlen(GPU_PREFIX);
    if (t->cut || t->cap - t->len < plen + ROW_TAIL + 2)
        return;
    papi_gpu_activity_flush(); /* every record up to now: MPI_Finalize, a checkpoint */
    char *at = t->s + t->len;
    long n = papi_gpu_activity_json(at + plen, t->cap - t->len - plen - ROW_TAIL);
    if (n > 0) {
        memcpy(at, GPU_PREFIX, plen);
        t->len += plen + (size_t)n;
    } else if (n < 0) {
        at[0] = '\0';
        tb_raw(t, ", \"gpu_note\": \"the GPU activity did not fit the row's buffer\"");
    }
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

void pmpi_gpu_region_json(struct tbuf *t, const struct pmpi_region *r)
{
    size_t plen = strlen(GPU_PREFIX), room = t->cut ? 0 : t->cap - t->len;
    if (!r->gpu || room < plen + REGION_RESERVE + 2)
        return;
    size_t len = room - plen - REGION_RESERVE;
    char *at = t->s + t->len;
    long n = papi_gpu_span_json(r->gpu, at + plen, len < REGION_MAX ? len : REGION_MAX);
    if (n > 0) {
        memcpy(at, GPU_PREFIX, plen);
        t->len += plen + (size_t)n;
    } else if (n < 0) {
        at[0] = '\0';
        tb_raw(t, ", \"gpu_note\": \"the region's GPU activity did not fit the row's buffer\"");
    }
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
