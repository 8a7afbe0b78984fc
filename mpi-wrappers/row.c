/* row.c: one rank's row (times, counters, per-call statistics) and its JSON and CSV
 * text. Used at MPI_Finalize and by the partial-row path when a rank dies. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_mpi_internal.h"

void pmpi_json_safe(char *s)
{
    for (; *s; s++)
        if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
            *s = '_';
}

void pmpi_collect_row(struct pmpi_row *row, int finished, const char *reason)
{
    long long end = pmpi_g.t_final ? pmpi_g.t_final : pmpi_now_ns();
    long long end_tick = pmpi_g.tick_final ? pmpi_g.tick_final : pmpi_ticks();
    long long mpi_ticks = 0;
    double ns_per_tick = end_tick > pmpi_g.tick_init
                             ? (double)(end - pmpi_g.t_init) / (double)(end_tick - pmpi_g.tick_init)
                             : 1.0;
    int n = atomic_load(&pmpi_nthreads);
    memset(row, 0, sizeof *row);
    row->rank = pmpi_g.rank;
    row->nranks = pmpi_g.nranks;
    row->finished = finished;
    row->exit_reason = reason;
    row->nthreads = n;
    if (n > PMPI_MAX_THREADS)
        n = PMPI_MAX_THREADS + 1; /* include the shared overflow slot */
    for (int t = 0; t < n; t++) {
        const struct pmpi_thread *th = &pmpi_threads[t];
        mpi_ticks += atomic_load(&th->mpi_ticks);
        for (int c = 0; c < PMPI_NCALLS; c++) {
            row->calls[c] += atomic_load(&th->stat[c].calls);
            row->ns[c] += atomic_load(&th->stat[c].ns);
            row->sent[c] += atomic_load(&th->stat[c].sent);
            row->recvd[c] += atomic_load(&th->stat[c].recvd);
        }
    }
    for (int c = 0; c < PMPI_NCALLS; c++)
        row->ns[c] = (long long)((double)row->ns[c] * ns_per_tick);
    row->wall_s = (double)(end - pmpi_g.t_init) * 1e-9;
    row->mpi_s = (double)mpi_ticks * ns_per_tick * 1e-9;
    pmpi_counters_read_rank(row->counts);
}

/* A growing text buffer; on allocation failure it keeps what it has and stops. */
struct text {
    char *s;
    size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->len;
        va_start(ap, fmt);
        int n = t->s ? vsnprintf(t->s + t->len, room, fmt, ap) : -1;
        va_end(ap);
        if (n >= 0 && (size_t)n < room) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        if (n >= 0 && cap < t->len + (size_t)n + 1)
            cap = t->len + (size_t)n + 1;
        char *p = realloc(t->s, cap);
        if (!p)
            return;
        t->s = p;
        t->cap = cap;
    }
}

char *pmpi_row_json(const struct pmpi_row *row, size_t *len)
{
    struct text t = {0};
    add(&t, "{\"rank\": %d, \"finished\": %s", row->rank, row->finished ? "true" : "false");
    if (row->exit_reason)
        add(&t, ", \"exit_reason\": \"%s\"", row->exit_reason);
    add(&t, ", \"threads\": %d, \"wall_s\": %.9f, \"mpi_s\": %.9f, \"counters\": {", row->nthreads,
        row->wall_s, row->mpi_s);
    for (int e = 0; e < pmpi_g.nevents; e++)
        add(&t, "%s\"%s\": %lld", e ? ", " : "", pmpi_g.event_names[e], row->counts[e]);
    add(&t, "}, \"calls\": {");
    int first = 1;
    for (int c = 0; c < PMPI_NCALLS; c++) {
        if (!row->calls[c])
            continue;
        add(&t, "%s\"%s\": {\"calls\": %lld, \"time_s\": %.9f, \"bytes_sent\": %lld, "
                "\"bytes_recv\": %lld}",
            first ? "" : ", ", pmpi_calls[c].name, row->calls[c], (double)row->ns[c] * 1e-9,
            row->sent[c], row->recvd[c]);
        first = 0;
    }
    add(&t, "}, \"regions\": {");
    for (int i = 0; i < pmpi_g.nregions; i++) {
        const struct pmpi_region *r = &pmpi_g.regions[i];
        add(&t, "%s\"%s\": {\"entries\": %lld, \"wall_s\": %.9f, \"counters\": {", i ? ", " : "",
            r->name, r->entries, (double)r->wall_ns * 1e-9);
        for (int e = 0; e < pmpi_g.nevents; e++)
            add(&t, "%s\"%s\": %lld", e ? ", " : "", pmpi_g.event_names[e], r->counts[e]);
        add(&t, "}}");
    }
    add(&t, "}}");
    *len = t.len;
    return t.s;
}

char *pmpi_csv_header(size_t *len)
{
    struct text t = {0};
    add(&t, "rank,finished,threads,wall_s,mpi_s");
    for (int e = 0; e < pmpi_g.nevents; e++)
        add(&t, ",%s", pmpi_g.event_names[e]);
    for (int c = 0; c < PMPI_NCALLS; c++)
        add(&t, ",%s.calls,%s.time_s,%s.bytes_sent,%s.bytes_recv", pmpi_calls[c].name,
            pmpi_calls[c].name, pmpi_calls[c].name, pmpi_calls[c].name);
    add(&t, "\n");
    *len = t.len;
    return t.s;
}

char *pmpi_row_csv(const struct pmpi_row *row, size_t *len)
{
    struct text t = {0};
    add(&t, "%d,%d,%d,%.9f,%.9f", row->rank, row->finished, row->nthreads, row->wall_s,
        row->mpi_s);
    for (int e = 0; e < pmpi_g.nevents; e++)
        add(&t, ",%lld", row->counts[e]);
    for (int c = 0; c < PMPI_NCALLS; c++)
        add(&t, ",%lld,%.9f,%lld,%lld", row->calls[c], (double)row->ns[c] * 1e-9, row->sent[c],
            row->recvd[c]);
    add(&t, "\n");
    *len = t.len;
    return t.s;
}
