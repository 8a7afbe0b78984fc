/* gpu_row.c: a rank's GPU activity in its row (gpu_row.h). libpapi holds the layer (CUPTI
 * takes one subscriber per process, and the region API may use it too); the section is
 * its JSON, written straight into the row's buffer. */
#include <string.h>

#include "gpu_row.h"
#include "papi_gpu_activity.h"
#include "text_buffer.h"

#define GPU_PREFIX ", \"gpu\": "
#define ROW_TAIL   64 /* the row's closing text after this member */

void pmpi_gpu_start(void)
{
    papi_gpu_activity_start("MPI wrapper");
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
