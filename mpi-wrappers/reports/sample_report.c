/* sample_report.c: PAPI_SAMPLE's job-wide view. Each rank puts its sampled functions and
 * its MPI call sites (by calling function, file, line and call: the same keys on every
 * rank, whatever the address-space layout) into one fixed-size table; ONE PMPI_Reduce
 * with a user operation merges tables by key, keeps the JOB_SLOTS entries with the most
 * samples and sums the rest (said in the report). What a rank sends does not grow with
 * the number of ranks or of its functions. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle_wait.h"
#include "json_writer.h"
#include "mpi_sample.h"
#include "profile_writer.h"
#include "pmpi_identity.h"
#include "sample_report.h"
#include "state.h"

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
    MPI_Request req; /* ranks still sampling or formatting: wait without a core */
    pmpi_idle_complete(PMPI_Ireduce(&mine, &job, 1, type, op, 0, MPI_COMM_WORLD, &req), &req);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
    reduced = pmpi_id()->rank == 0 && pmpi_sample_state(NULL) == 1;
}

/* sps: seconds_per_sample, NAN (null) when the event is not a time. */
static void head_json(struct jw *w, double sps)
{
    int hz;
    long long n = pmpi_sample_period(&hz);
    jw_bool(w, "on", 1);
    jw_str(w, "event", pmpi_sample_event());
    jw_null(w, hz ? "period" : "frequency_hz");
    jw_int(w, hz ? "frequency_hz" : "period", n);
    jw_int(w, hz ? "frequency_hz_used" : "period_used", pmpi_sample_used());
    jw_int(w, "slowed", job.slowed);
    jw_int(w, "signal_queue_overflows", job.queue_overflows);
    jw_double(w, "seconds_per_sample", sps);
    jw_int(w, "top_per_rank", pmpi_sample_top());
    jw_int(w, "job_slots", JOB_SLOTS);
    jw_int(w, "ranks_sampled", job.ranks);
    jw_int(w, "samples", job.samples);
    jw_int(w, "dropped", job.dropped);
    jw_fixed(w, "unattributed_wall_s", (double)job.unattributed_ns / 1e9, 9);
}

static void other_json(struct jw *w, const char *key, long long entries, long long samples)
{
    jw_obj_begin(w, key);
    jw_int(w, "entries", entries);
    jw_int(w, "samples", samples);
    jw_obj_end(w);
}

/* The job's functions and MPI time by calling function, each entry the fields of
 * profile_writer (the sampled site's $defs), then the wrapper's own. */
static void tables_json(struct jw *w, double sps)
{
    jw_arr_begin(w, "functions");
    for (const struct jfn *f = job.fn; f < job.fn + job.nfn; f++) {
        jw_obj_begin(w, NULL);
        profile_function_fields(w, f->e.function, f->e.region[0] ? f->e.region : NULL,
                                (unsigned long long)f->e.samples);
        jw_fixed(w, "share", job.samples > 0 ? (double)f->e.samples / (double)job.samples : 0, 6);
        jw_fixed(w, "time_s", (double)f->e.samples * sps, 9);
        jw_fixed(w, "wall_s", (double)f->e.wall_ns / 1e9, 9);
        jw_int(w, "ranks", f->ranks);
        jw_int(w, "max_rank", f->max_rank);
        jw_int(w, "max_samples", f->max_samples);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    other_json(w, "functions_other", job.fn_other_entries, job.fn_other_samples);
    jw_arr_begin(w, "mpi_by_caller");
    for (const struct jmpi *m = job.mpi; m < job.mpi + job.nmpi; m++) {
        jw_obj_begin(w, NULL);
        profile_site_fields(w, m->e.function, m->e.file, m->e.line);
        jw_str(w, "call",
               m->e.call >= 0 && m->e.call < PMPI_NCALLS ? pmpi_calls[m->e.call].name : "?");
        jw_int(w, "samples", m->e.samples);
        jw_fixed(w, "mpi_time_s", (double)m->e.wall_ns / 1e9, 9);
        jw_fixed(w, "event_s", (double)m->e.samples * sps, 9);
        if (m->measured) {
            jw_int(w, "calls", m->e.calls);
            jw_fixed(w, "measured_s", (double)m->e.measured_ns / 1e9, 9);
        } else { /* the rank had no call-site table */
            jw_null(w, "calls");
            jw_null(w, "measured_s");
        }
        jw_int(w, "ranks", m->ranks);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    other_json(w, "mpi_by_caller_other", job.mpi_other_entries, job.mpi_other_samples);
}

/* The "sampling" member, on a line of its own: written with the json writer (two-space
 * indent) into memory (rank 0 at MPI_Finalize, not in a signal handler), then added to
 * the report's one-line writer w as it is. */
void pmpi_sample_report_json(struct jw *w)
{
    const char *why;
    int st = pmpi_sample_state(&why);
    if (st == 0)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        struct jw m;
        double sps = pmpi_sample_seconds() > 0 ? pmpi_sample_seconds() : NAN;
        jw_init(&m, f);
        jw_obj_begin(&m, NULL);
        if (st < 0 || !reduced) {
            jw_bool(&m, "on", 0);
            jw_str(&m, "note", st < 0 ? why : "not reduced");
        } else {
            head_json(&m, sps);
            tables_json(&m, sps);
        }
        jw_obj_end(&m);
        int bad = ferror(f);
        if (fclose(f) != 0 || bad) { /* a write that found no memory */
            free(text);
            text = NULL;
        }
    }
    jw_break(w, "\n");
    if (text) {
        jw_raw(w, "sampling", text);
    } else {
        jw_obj_begin(w, "sampling");
        jw_bool(w, "on", 0);
        jw_str(w, "note", "no memory to write it");
        jw_obj_end(w);
    }
    free(text);
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
