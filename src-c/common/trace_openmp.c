/* trace_openmp.c: OpenMP slices on the threads' tracks (trace_openmp.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handover_file.h"
#include "trace_openmp.h"
#include "trace_region_type.h"

/* Each kind's role: its region's name and type in the trace (trace_region_type.h). */
static const enum trace_omp_role kind_role[TRACE_OMP_KINDS] = {
    [TRACE_OMP_PARALLEL] = TRACE_OMP_ROLE_PARALLEL,
    [TRACE_OMP_IMPLICIT] = TRACE_OMP_ROLE_IMPLICIT_TASK,
    [TRACE_OMP_BARRIER] = TRACE_OMP_ROLE_BARRIER,
    [TRACE_OMP_JOIN] = TRACE_OMP_ROLE_IMPLICIT_BARRIER,
    [TRACE_OMP_TASKWAIT] = TRACE_OMP_ROLE_TASKWAIT,
    [TRACE_OMP_TASKGROUP] = TRACE_OMP_ROLE_TASKGROUP,
    [TRACE_OMP_EXPLICIT] = TRACE_OMP_ROLE_TASK,
    [TRACE_OMP_LOOP] = TRACE_OMP_ROLE_LOOP,
    [TRACE_OMP_SECTIONS] = TRACE_OMP_ROLE_SECTIONS,
    [TRACE_OMP_SINGLE] = TRACE_OMP_ROLE_SINGLE,
    [TRACE_OMP_WORKSHARE] = TRACE_OMP_ROLE_WORKSHARE,
    [TRACE_OMP_CRITICAL] = TRACE_OMP_ROLE_CRITICAL,
    [TRACE_OMP_LOCK] = TRACE_OMP_ROLE_LOCK,
    [TRACE_OMP_ORDERED] = TRACE_OMP_ROLE_ORDERED,
    [TRACE_OMP_ATOMIC] = TRACE_OMP_ROLE_ATOMIC,
    [TRACE_OMP_REDUCTION] = TRACE_OMP_ROLE_REDUCTION,
    [TRACE_OMP_MASKED] = TRACE_OMP_ROLE_MASKED,
    [TRACE_OMP_TARGET] = TRACE_OMP_ROLE_TARGET,
};

const char *trace_omp_kind_name(int kind)
{
    return kind >= 0 && kind < TRACE_OMP_KINDS ? trace_region_omp_name(kind_role[kind]) : "OpenMP";
}

int trace_omp_spans_name(struct trace_omp_spans *s, const char *name)
{
    if (s->nnames == s->names_cap) {
        int nc = s->names_cap ? 2 * s->names_cap : 32;
        char(*nn)[TRACE_OMP_NAME_LEN] = realloc(s->name, (size_t)nc * sizeof *nn);
        if (!nn)
            return -1;
        s->name = nn;
        s->names_cap = nc;
    }
    char *d = s->name[s->nnames];
    snprintf(d, TRACE_OMP_NAME_LEN, "%s", name);
    for (char *c = d; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' '; /* the file form is a line per name */
    return s->nnames++;
}

int trace_omp_spans_push(struct trace_omp_spans *s, const struct trace_omp_span *sp)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        struct trace_omp_span *ns = realloc(s->span, nc * sizeof *ns);
        if (!ns)
            return -1;
        s->span = ns;
        s->cap = nc;
    }
    s->span[s->n++] = *sp;
    return 0;
}

uint64_t trace_omp_tick_to_mono(const struct trace_omp_spans *s, uint64_t t)
{
    if (s->mono || s->tick1 <= s->tick0)
        return s->mono ? t : s->mono0 + (t > s->tick0 ? t - s->tick0 : 0);
    double ns_per_tick = (double)(s->mono1 - s->mono0) / (double)(s->tick1 - s->tick0);
    double v = (double)s->mono0 + ((double)t - (double)s->tick0) * ns_per_tick;
    return v > 0 ? (uint64_t)v : 0;
}

void trace_omp_spans_to_mono(struct trace_omp_spans *s)
{
    if (s->mono)
        return;
    for (size_t i = 0; i < s->n; i++) {
        s->span[i].start = trace_omp_tick_to_mono(s, s->span[i].start);
        s->span[i].end = trace_omp_tick_to_mono(s, s->span[i].end);
    }
    s->mono = 1;
}

/* A parallel region's instance and its end. */
struct inst_end {
    uint64_t instance, end;
};

static int by_instance(const void *a, const void *b)
{
    const struct inst_end *x = a, *y = b;
    return (x->instance > y->instance) - (x->instance < y->instance);
}

/* Each slice of an instance cut at its region's end (no memory: left as they are). */
static void cut_at_region_end(struct trace_omp_spans *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->span[i].kind == TRACE_OMP_PARALLEL && s->span[i].instance;
    struct inst_end *e = n ? malloc(n * sizeof *e) : NULL;
    if (!e)
        return;
    n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->span[i].kind == TRACE_OMP_PARALLEL && s->span[i].instance)
            e[n++] = (struct inst_end){s->span[i].instance, s->span[i].end};
    qsort(e, n, sizeof *e, by_instance);
    for (size_t i = 0; i < s->n; i++) {
        struct trace_omp_span *sp = &s->span[i];
        struct inst_end key = {sp->instance, 0}, *f;
        if (sp->kind == TRACE_OMP_PARALLEL || !sp->instance ||
            !(f = bsearch(&key, e, n, sizeof *e, by_instance)))
            continue;
        if (sp->end > f->end)
            sp->end = f->end;
        if (sp->start > sp->end)
            sp->start = sp->end;
    }
    free(e);
}

/* Per thread, in time order; at one start the longer first, then the outer kind. */
static int by_thread_time(const void *a, const void *b)
{
    const struct trace_omp_span *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return (x->kind > y->kind) - (x->kind < y->kind);
}

void trace_omp_spans_order(struct trace_omp_spans *s)
{
    cut_at_region_end(s);
    if (s->n > 1)
        qsort(s->span, s->n, sizeof *s->span, by_thread_time);
    /* Each slice cut to the innermost one open at its start on its thread: the stack
     * holds the open ones' ends (indices into span). */
    size_t *open = s->n ? malloc(s->n * sizeof *open) : NULL;
    size_t depth = 0;
    for (size_t i = 0; open && i < s->n; i++) {
        struct trace_omp_span *sp = &s->span[i];
        if (i > 0 && s->span[i - 1].thread != sp->thread)
            depth = 0;
        while (depth > 0 && s->span[open[depth - 1]].end <= sp->start)
            depth--;
        if (depth > 0 && sp->end > s->span[open[depth - 1]].end)
            sp->end = s->span[open[depth - 1]].end;
        open[depth++] = i;
    }
    free(open);
}

void trace_omp_spans_walk(const struct trace_omp_spans *s, trace_omp_emit fn, void *ctx)
{
    size_t *open = s->n ? malloc(s->n * sizeof *open) : NULL;
    size_t depth = 0;
    for (size_t i = 0; open && i <= s->n; i++) {
        const struct trace_omp_span *sp = i < s->n ? &s->span[i] : NULL;
        int other = !sp || (depth > 0 && s->span[open[0]].thread != sp->thread);
        while (depth > 0 && (other || s->span[open[depth - 1]].end <= sp->start)) {
            const struct trace_omp_span *o = &s->span[open[--depth]];
            fn(ctx, o->end, o->thread, 0, o);
        }
        if (!sp)
            break;
        fn(ctx, sp->start, sp->thread, 1, sp);
        open[depth++] = i;
    }
    free(open);
}

const char *trace_omp_span_name(const struct trace_omp_spans *s, const struct trace_omp_span *sp)
{
    if (sp->name >= 0 && sp->name < s->nnames) /* a parallel region's, a construct's */
        return s->name[sp->name];
    return trace_omp_kind_name(sp->kind);
}

/* trace_omp_spans_add's walk: the builder, each name's region id (-2: not defined yet)
 * and, per open slice, whether it went in (its leave goes in only then). */
struct add_ctx {
    struct trace_writer *w;
    const struct trace_omp_spans *s;
    int kind_id[TRACE_OMP_KINDS], *name_id;
    unsigned char *in;
    size_t depth;
    uint64_t lost;
    int bad;
};

static int region_of(struct add_ctx *c, const struct trace_omp_span *sp)
{
    int named = sp->name >= 0 && sp->name < c->s->nnames;
    int *id = named ? &c->name_id[sp->name] : &c->kind_id[sp->kind % TRACE_OMP_KINDS];
    if (*id == -2) {
        *id = trace_define_region(c->w, trace_omp_span_name(c->s, sp));
        c->bad |= *id < 0;
    }
    return *id;
}

static void add_one(void *ctx, uint64_t ts, uint32_t thread, int enter,
                    const struct trace_omp_span *sp)
{
    struct add_ctx *c = ctx;
    if (!enter) {
        if (c->depth > 0 && c->in[--c->depth])
            trace_leave(c->w, ts, thread, region_of(c, sp));
        return;
    }
    /* room for this pair and the leaves owed to the slices open around it; a name a
     * region only where a slice of it goes in */
    size_t owed = 0;
    for (size_t k = 0; k < c->depth; k++)
        owed += c->in[k];
    int ok = trace_room(c->w) >= 2 + owed && region_of(c, sp) >= 0 &&
             trace_enter(c->w, ts, thread, region_of(c, sp)) == 0;
    c->in[c->depth++] = (unsigned char)ok;
    c->lost += ok ? 0 : 2;
}

int trace_omp_spans_add(struct trace_writer *w, const struct trace_omp_spans *s)
{
    struct add_ctx c = {.w = w, .s = s};
    for (int k = 0; k < TRACE_OMP_KINDS; k++)
        c.kind_id[k] = -2;
    c.name_id = malloc((size_t)(s->nnames ? s->nnames : 1) * sizeof *c.name_id);
    c.in = malloc(s->n ? s->n : 1);
    if (!c.name_id || !c.in) {
        free(c.name_id);
        free(c.in);
        trace_add_dropped(w, 2 * (s->n + s->dropped));
        return -1;
    }
    for (int k = 0; k < s->nnames; k++)
        c.name_id[k] = -2;
    trace_omp_spans_walk(s, add_one, &c);
    trace_add_dropped(w, c.lost + 2 * s->dropped);
    free(c.name_id);
    free(c.in);
    return c.bad ? -1 : 0;
}

void trace_omp_spans_free(struct trace_omp_spans *s)
{
    free(s->span);
    free(s->name);
    memset(s, 0, sizeof *s);
}

void trace_omp_say_dropped(const char *who, const struct trace_omp_spans *s)
{
    if (s->dropped)
        fprintf(stderr,
                "%s: %llu OpenMP slices past a thread's PAPI_OMPT_TRACE_SPANS (or without "
                "memory for its log) not traced (counted in the trace's dropped records)\n",
                who, (unsigned long long)s->dropped);
}

static const char *span_name(const void *ctx, int k)
{
    return ((const struct trace_omp_spans *)ctx)->name[k];
}

static void span_line(FILE *f, const void *ctx, size_t i)
{
    const struct trace_omp_span *sp = &((const struct trace_omp_spans *)ctx)->span[i];
    fprintf(f, "s %" PRIu32 " %d %" PRId32 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", sp->thread,
            (int)sp->kind, sp->name, sp->start, sp->end, sp->instance);
}

int trace_omp_spans_save(int fd, long pid, const struct trace_omp_spans *s)
{
    return handover_save(fd, "omp_spans", pid, s->nnames, s->n, s->dropped, span_name, span_line,
                         s);
}

/* One slice line of process pid's block whose names start at first (nn of them) into
 * s: 1 or 0. Instances are numbered per process: the pid mixed in keeps them apart. */
static int load_span(struct trace_omp_spans *s, const char *line, long pid, int first, int nn)
{
    struct trace_omp_span sp = {0};
    int kind;
    if (sscanf(line, "s %" SCNu32 " %d %" SCNd32 " %" SCNu64 " %" SCNu64 " %" SCNu64, &sp.thread,
               &kind, &sp.name, &sp.start, &sp.end, &sp.instance) != 6 ||
        kind < 0 || kind >= TRACE_OMP_KINDS || sp.start > sp.end || sp.name < -1 || sp.name >= nn)
        return 0;
    sp.kind = (int16_t)kind;
    if (sp.instance) {
        sp.instance ^= (uint64_t)pid * 0x9E3779B97F4A7C15u;
        sp.instance += !sp.instance;
    }
    if (sp.name >= 0) /* a parallel region's or a construct's */
        sp.name += first;
    return trace_omp_spans_push(s, &sp) == 0;
}

/* A load in progress: the slices, and the block being read (its process, its first
 * name, how many names it has). */
struct load_ctx {
    struct trace_omp_spans *s;
    long pid;
    int first, nn;
};

static int load_head(void *ctx, long pid, int nnames, uint64_t dropped)
{
    struct load_ctx *c = ctx;
    c->pid = pid;
    c->first = c->s->nnames;
    c->nn = nnames;
    c->s->dropped += dropped;
    return 0;
}

static int load_name(void *ctx, const char *name)
{
    return trace_omp_spans_name(((struct load_ctx *)ctx)->s, name) >= 0 ? 0 : -1;
}

static int load_line(void *ctx, const char *line)
{
    struct load_ctx *c = ctx;
    return load_span(c->s, line, c->pid, c->first, c->nn) ? 0 : -1;
}

int trace_omp_spans_load(const char *path, struct trace_omp_spans *s, char *why, size_t whylen)
{
    static const struct handover_kind kind = {"omp_spans",
                                              "omp_spans PID NAMES SPANS DROPPED",
                                              "a slice (s THREAD KIND NAME START END INSTANCE)",
                                              load_head,
                                              load_name,
                                              load_line,
                                              NULL};
    struct load_ctx c = {s, 0, 0, 0};
    s->mono = 1;
    int rc = handover_load(path, &kind, &c, why, whylen);
    trace_omp_spans_order(s);
    return rc;
}
