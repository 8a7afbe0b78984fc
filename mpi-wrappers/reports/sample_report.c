/* sample_report.c: PAPI_SAMPLE's job-wide view. Each rank puts its sampled functions and
 * its MPI call sites (by calling function, file, line and call: the same keys on every
 * rank, whatever the address-space layout) into one fixed-size table; ONE PMPI_Reduce
 * with a user operation merges tables by key, keeps the JOB_SLOTS entries with the most
 * samples and sums the rest (said in the report). What a rank sends does not grow with
 * the number of ranks or of its functions. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_sample.h"
#include "run_identity.h"
#include "sample_report.h"
#include "state.h"
#include "text_buffer.h"

#define JOB_SLOTS 64

/* A job's entry: the rank's (so pmpi_sample_fn_cmp and the others order both), then
 * what the merge of ranks adds. */
struct jfn {
    struct pmpi_sample_fn e;
    long long max_samples;
    int ranks, max_rank;
};

struct jmpi {
    struct pmpi_sample_mpi e; /* e.site: unused */
    int ranks, measured;      /* measured: ranks that had a site table */
};

struct jtab {
    long long samples, dropped, unattributed_ns, slowed, queue_overflows;
    long long fn_other_entries, fn_other_samples, mpi_other_entries, mpi_other_samples;
    int ranks, nfn, nmpi, pad;
    struct jfn fn[JOB_SLOTS];
    struct jmpi mpi[JOB_SLOTS];
};

static struct jtab job; /* rank 0: the job's, after the reduction */
static int reduced;

/* Two tables' functions merged into out (JOB_SLOTS kept, the rest summed as other). */
static void merge_fn(const struct jtab *a, struct jtab *out)
{
    static struct jfn v[2 * JOB_SLOTS];
    int n = 0, m = 0;
    memcpy(v, out->fn, (size_t)out->nfn * sizeof v[0]);
    n = out->nfn;
    memcpy(v + n, a->fn, (size_t)a->nfn * sizeof v[0]);
    n += a->nfn;
    qsort(v, (size_t)n, sizeof v[0], pmpi_sample_fn_cmp);
    for (int i = 0; i < n; i++) {
        struct jfn *p = m ? &v[m - 1] : NULL;
        if (p && pmpi_sample_fn_cmp(p, &v[i]) == 0) {
            p->e.samples += v[i].e.samples;
            p->e.wall_ns += v[i].e.wall_ns;
            p->ranks += v[i].ranks;
            if (v[i].max_samples > p->max_samples ||
                (v[i].max_samples == p->max_samples && v[i].max_rank < p->max_rank)) {
                p->max_samples = v[i].max_samples;
                p->max_rank = v[i].max_rank;
            }
        } else {
            v[m++] = v[i];
        }
    }
    qsort(v, (size_t)m, sizeof v[0], pmpi_sample_fn_by_samples);
    out->nfn = m < JOB_SLOTS ? m : JOB_SLOTS;
    memcpy(out->fn, v, (size_t)out->nfn * sizeof v[0]);
    for (int i = out->nfn; i < m; i++) {
        out->fn_other_entries++;
        out->fn_other_samples += v[i].e.samples;
    }
}

static void merge_mpi(const struct jtab *a, struct jtab *out)
{
    static struct jmpi v[2 * JOB_SLOTS];
    int n = 0, m = 0;
    memcpy(v, out->mpi, (size_t)out->nmpi * sizeof v[0]);
    n = out->nmpi;
    memcpy(v + n, a->mpi, (size_t)a->nmpi * sizeof v[0]);
    n += a->nmpi;
    qsort(v, (size_t)n, sizeof v[0], pmpi_sample_mpi_cmp);
    for (int i = 0; i < n; i++) {
        struct jmpi *p = m ? &v[m - 1] : NULL;
        if (p && pmpi_sample_mpi_cmp(p, &v[i]) == 0) {
            p->e.samples += v[i].e.samples;
            p->e.wall_ns += v[i].e.wall_ns;
            p->e.calls += v[i].e.calls;
            p->e.measured_ns += v[i].e.measured_ns;
            p->ranks += v[i].ranks;
            p->measured += v[i].measured;
        } else {
            v[m++] = v[i];
        }
    }
    qsort(v, (size_t)m, sizeof v[0], pmpi_sample_mpi_by_samples);
    out->nmpi = m < JOB_SLOTS ? m : JOB_SLOTS;
    memcpy(out->mpi, v, (size_t)out->nmpi * sizeof v[0]);
    for (int i = out->nmpi; i < m; i++) {
        out->mpi_other_entries++;
        out->mpi_other_samples += v[i].e.samples;
    }
}

static void jtab_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) {
        const struct jtab *a = (const struct jtab *)in + i;
        struct jtab *b = (struct jtab *)inout + i;
        b->samples += a->samples;
        b->dropped += a->dropped;
        b->unattributed_ns += a->unattributed_ns;
        b->slowed += a->slowed;
        b->queue_overflows += a->queue_overflows;
        b->ranks += a->ranks;
        b->fn_other_entries += a->fn_other_entries;
        b->fn_other_samples += a->fn_other_samples;
        b->mpi_other_entries += a->mpi_other_entries;
        b->mpi_other_samples += a->mpi_other_samples;
        merge_fn(a, b);
        merge_mpi(a, b);
    }
}

/* This rank's table: its entries with the most samples, the rest summed. */
static void fill(struct jtab *t)
{
    const struct pmpi_sample_rank *R = pmpi_sample_rank();
    memset(t, 0, sizeof *t);
    if (!R)
        return;
    t->samples = R->samples;
    t->dropped = R->dropped;
    t->unattributed_ns = R->unattributed_ns;
    t->slowed = R->slowed;
    t->queue_overflows = R->queue_overflows;
    t->ranks = 1;
    for (int i = 0; i < R->nfn; i++) {
        if (i >= JOB_SLOTS) {
            t->fn_other_entries++;
            t->fn_other_samples += R->fn[i].samples;
            continue;
        }
        struct jfn *f = &t->fn[t->nfn++];
        f->e = R->fn[i];
        f->max_samples = R->fn[i].samples;
        f->ranks = 1;
        f->max_rank = pmpi_id()->rank;
    }
    for (int i = 0; i < R->nmpi; i++) {
        const struct pmpi_sample_mpi *s = &R->mpi[i];
        if (i >= JOB_SLOTS) {
            t->mpi_other_entries++;
            t->mpi_other_samples += s->samples;
            continue;
        }
        struct jmpi *m = &t->mpi[t->nmpi++];
        m->e = *s;
        m->e.calls = s->calls > 0 ? s->calls : 0;
        m->e.measured_ns = s->calls >= 0 ? s->measured_ns : 0;
        m->measured = s->calls >= 0;
        m->ranks = 1;
    }
}

void pmpi_sample_report_reduce(void)
{
    static struct jtab mine;
    if (pmpi_sample_state(NULL) == 0)
        return; /* PAPI_SAMPLE is the job's (mpirun passes it to every rank); a rank that
                 * cannot sample hands an empty table */
    fill(&mine);
    MPI_Datatype type;
    MPI_Op op;
    PMPI_Type_contiguous((int)sizeof(struct jtab), MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    PMPI_Op_create(jtab_op, 0, &op);
    PMPI_Reduce(&mine, &job, 1, type, op, 0, MPI_COMM_WORLD);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
    reduced = pmpi_id()->rank == 0 && pmpi_sample_state(NULL) == 1;
}

size_t pmpi_sample_report_size(void)
{
    return 4096 + (size_t)JOB_SLOTS * 2 * 2500; /* names escaped at worst */
}

static void time_json(struct tbuf *t, const char *key, long long samples)
{
    double s = pmpi_sample_seconds();
    if (s > 0)
        tb_fmt(t, ", \"%s\": %.9f", key, (double)samples * s);
    else
        tb_fmt(t, ", \"%s\": null", key);
}

static void head_json(struct tbuf *t)
{
    int hz;
    long long n = pmpi_sample_period(&hz);
    double s = pmpi_sample_seconds();
    tb_raw(t, "\"sampling\": {\"on\": true, \"event\": ");
    tb_json(t, pmpi_sample_event());
    if (hz)
        tb_kv_int(t, ", \"period\": null, \"frequency_hz\": ", n);
    else
        tb_kv_int(t, ", \"frequency_hz\": null, \"period\": ", n);
    tb_kv_int(t, hz ? ", \"frequency_hz_used\": " : ", \"period_used\": ", pmpi_sample_used());
    tb_kv_int(t, ", \"slowed\": ", job.slowed);
    tb_kv_int(t, ", \"signal_queue_overflows\": ", job.queue_overflows);
    if (s > 0)
        tb_fmt(t, ", \"seconds_per_sample\": %.9g", s);
    else
        tb_raw(t, ", \"seconds_per_sample\": null");
    tb_kv_int(t, ", \"top_per_rank\": ", pmpi_sample_top());
    tb_kv_int(t, ", \"job_slots\": ", JOB_SLOTS);
    tb_kv_int(t, ", \"ranks_sampled\": ", job.ranks);
    tb_kv_int(t, ", \"samples\": ", job.samples);
    tb_kv_int(t, ", \"dropped\": ", job.dropped);
    tb_kv_secs(t, ", \"unattributed_wall_s\": ", job.unattributed_ns);
}

void pmpi_sample_report_json(struct tbuf *t)
{
    const char *why;
    int st = pmpi_sample_state(&why);
    if (st == 0)
        return;
    if (st < 0 || !reduced) {
        tb_raw(t, "\"sampling\": {\"on\": false, \"note\": ");
        tb_json(t, st < 0 ? why : "not reduced");
        tb_raw(t, "},\n");
        return;
    }
    head_json(t);
    tb_raw(t, ",\n  \"functions\": [");
    for (int i = 0; i < job.nfn; i++) {
        const struct jfn *f = &job.fn[i];
        tb_raw(t, i ? ",\n    {\"function\": " : "\n    {\"function\": ");
        tb_json(t, f->e.function);
        tb_raw(t, ", \"region\": ");
        if (f->e.region[0])
            tb_json(t, f->e.region);
        else
            tb_raw(t, "null");
        tb_kv_int(t, ", \"samples\": ", f->e.samples);
        tb_fmt(t, ", \"share\": %.6f",
               job.samples > 0 ? (double)f->e.samples / (double)job.samples : 0.0);
        time_json(t, "time_s", f->e.samples);
        tb_kv_secs(t, ", \"wall_s\": ", f->e.wall_ns);
        tb_kv_int(t, ", \"ranks\": ", f->ranks);
        tb_kv_int(t, ", \"max_rank\": ", f->max_rank);
        tb_kv_int(t, ", \"max_samples\": ", f->max_samples);
        tb_raw(t, "}");
    }
    tb_kv_int(t, "],\n  \"functions_other\": {\"entries\": ", job.fn_other_entries);
    tb_kv_int(t, ", \"samples\": ", job.fn_other_samples);
    tb_raw(t, "},\n  \"mpi_by_caller\": [");
    for (int i = 0; i < job.nmpi; i++) {
        const struct jmpi *m = &job.mpi[i];
        tb_raw(t, i ? ",\n    {\"function\": " : "\n    {\"function\": ");
        tb_json(t, m->e.function);
        tb_raw(t, ", \"file\": ");
        tb_json(t, m->e.file);
        tb_kv_int(t, ", \"line\": ", m->e.line);
        tb_raw(t, ", \"call\": ");
        tb_json(t, m->e.call >= 0 && m->e.call < PMPI_NCALLS ? pmpi_calls[m->e.call].name : "?");
        tb_kv_int(t, ", \"samples\": ", m->e.samples);
        tb_kv_secs(t, ", \"mpi_time_s\": ", m->e.wall_ns);
        time_json(t, "event_s", m->e.samples);
        if (m->measured) {
            tb_kv_int(t, ", \"calls\": ", m->e.calls);
            tb_kv_secs(t, ", \"measured_s\": ", m->e.measured_ns);
        } else {
            tb_raw(t, ", \"calls\": null, \"measured_s\": null");
        }
        tb_kv_int(t, ", \"ranks\": ", m->ranks);
        tb_raw(t, "}");
    }
    tb_kv_int(t, "],\n  \"mpi_by_caller_other\": {\"entries\": ", job.mpi_other_entries);
    tb_kv_int(t, ", \"samples\": ", job.mpi_other_samples);
    tb_raw(t, "}},\n");
}

/* The banner's rate: the one used, and the one asked where the library lowered it. */
static void print_rate(FILE *out)
{
    int hz;
    long long n = pmpi_sample_period(&hz), used = pmpi_sample_used();
    fprintf(out, "%s@%lld%s", pmpi_sample_event(), used, hz ? "hz" : "");
    if (used != n)
        fprintf(out, " (asked @%lld%s: at most 10,000 signals a second per thread)", n,
                hz ? "hz" : "");
}

void pmpi_sample_report_print(FILE *out)
{
    if (!reduced)
        return;
    int top = pmpi_id()->top < 5 ? pmpi_id()->top : 5;
    fputs("papi_mpi: sampled ", out);
    print_rate(out);
    fprintf(out,
            " on %d ranks: %lld samples (%lld dropped); top functions (share of samples, "
            "region):\n",
            job.ranks, job.samples, job.dropped);
    if (job.slowed > 0)
        fprintf(out,
                "papi_mpi: sampling was made 4x slower %lld times where a thread took its "
                "signals slower than they came (its later samples stand for more)\n",
                job.slowed);
    if (job.queue_overflows > 0)
        fprintf(out,
                "papi_mpi: the kernel's queue of signals was full %lld times: as many "
                "samples were lost\n",
                job.queue_overflows);
    for (int i = 0; i < job.nfn && i < top; i++)
        fprintf(out, "  %-40s %6.1f%%  %s\n", job.fn[i].e.function,
                job.samples > 0 ? 100.0 * (double)job.fn[i].e.samples / (double)job.samples : 0.0,
                job.fn[i].e.region[0] ? job.fn[i].e.region : "-");
    if (job.nmpi > 0)
        fprintf(out, "papi_mpi: MPI time by calling function (sampled wall time; measured by the "
                     "wrapper):\n");
    for (int i = 0; i < job.nmpi && i < top; i++) {
        const struct jmpi *m = &job.mpi[i];
        const char *base = strrchr(m->e.file, '/');
        fprintf(out, "  %-28s %s:%d %-16s %.3f s (%lld samples)", m->e.function,
                base ? base + 1 : m->e.file, m->e.line, pmpi_calls[m->e.call].name,
                (double)m->e.wall_ns * 1e-9, m->e.samples);
        if (m->measured)
            fprintf(out, ", measured %.3f s in %lld calls", (double)m->e.measured_ns * 1e-9,
                    m->e.calls);
        fputc('\n', out);
    }
}
