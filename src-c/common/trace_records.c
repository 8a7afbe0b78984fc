/* trace_records.c: what the trace writer's parts share (trace_records.h): the collectives'
 * names, a rank's records in time order, its threads and their names, the span of a job. */
#include <stdio.h>
#include <stdlib.h>

#include "trace_records.h"

static const char *const collop_names[TC_COUNT] = {"MPI_Barrier",
                                                   "MPI_Bcast",
                                                   "MPI_Gather",
                                                   "MPI_Gatherv",
                                                   "MPI_Scatter",
                                                   "MPI_Scatterv",
                                                   "MPI_Allgather",
                                                   "MPI_Allgatherv",
                                                   "MPI_Alltoall",
                                                   "MPI_Alltoallv",
                                                   "MPI_Alltoallw",
                                                   "MPI_Allreduce",
                                                   "MPI_Reduce",
                                                   "MPI_Reduce_scatter",
                                                   "MPI_Scan",
                                                   "MPI_Exscan",
                                                   "MPI_Reduce_scatter_block"};

const char *trace_collop_name(unsigned op)
{
    return op < TC_COUNT ? collop_names[op] : "collective";
}

struct tkey {
    uint64_t ts;
    size_t i;
};

static int by_time(const void *a, const void *b)
{
    const struct tkey *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

size_t *trace_order(const struct trace_rank *r)
{
    size_t n = r->nrec;
    struct tkey *k = malloc((n ? n : 1) * sizeof *k);
    size_t *out = malloc((n ? n : 1) * sizeof *out);
    if (!k || !out) {
        free(k);
        free(out);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct tkey){r->rec[i].ts, i};
    qsort(k, n, sizeof *k, by_time);
    for (size_t i = 0; i < n; i++)
        out[i] = k[i].i;
    free(k);
    return out;
}

int trace_threads(const struct trace_rank *r, uint32_t **labels)
{
    int n = 0, cap = 0;
    uint32_t *l = NULL;
    for (size_t i = 0; i < r->nrec; i++) {
        uint32_t t = r->rec[i].thread;
        int k = n - 1;
        while (k >= 0 && l[k] != t) /* few threads: a linear search, from the newest */
            k--;
        if (k >= 0)
            continue;
        if (n == cap) {
            int nc = cap ? 2 * cap : 8;
            uint32_t *nl = realloc(l, (size_t)nc * sizeof *nl);
            if (!nl) {
                free(l);
                return -1;
            }
            l = nl;
            cap = nc;
        }
        l[n++] = t;
    }
    /* GPU tracks after the threads (stable): a rank's first location stays its first
     * thread's, which OTF2 names its MPI location, even when a GPU's work came first */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && TRACE_IS_GPU_TRACK(l[k - 1]) && !TRACE_IS_GPU_TRACK(l[k]); k--) {
            uint32_t x = l[k];
            l[k] = l[k - 1];
            l[k - 1] = x;
        }
    if (labels)
        *labels = l;
    else
        free(l);
    return n;
}

void trace_span(const struct trace_rank *ranks, int n, uint64_t *first, uint64_t *last)
{
    int any = 0;
    *first = *last = 0;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < ranks[k].nrec; i++) {
            uint64_t t = ranks[k].rec[i].ts;
            if (!any || t < *first)
                *first = t;
            if (!any || t > *last)
                *last = t;
            any = 1;
        }
}

void trace_track_name(uint32_t label, const struct trace_track *track, int ntracks, char *buf,
                      size_t len)
{
    uint32_t i = label & 0x0FFFFFFFu;
    if ((label & 0xF0000000u) == 0xE0000000u && i < (uint32_t)ntracks && track) {
        uint32_t g = track[i].gpu;
        snprintf(buf, len, "GPU %u stream %u (pid %ld)", (unsigned)(g >> 20 & 0xFFu),
                 (unsigned)(g & 0xFFFFFu), track[i].pid);
    } else if ((label & 0xF0000000u) == 0xE0000000u)
        snprintf(buf, len, "GPU track %u", (unsigned)i); /* a label without its track */
    else if (TRACE_IS_GPU_TRACK(label))
        snprintf(buf, len, "GPU %u stream %u", (unsigned)(label >> 20 & 0xFFu),
                 (unsigned)(label & 0xFFFFFu));
    else
        snprintf(buf, len, "thread %u", (unsigned)label);
}
