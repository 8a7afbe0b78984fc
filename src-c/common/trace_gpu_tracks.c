/* trace_gpu_tracks.c: GPU operations as regions on GPU tracks (trace_gpu_tracks.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_room.h"
#include "handover_file.h"
#include "trace_gpu_tracks.h"

int trace_gpu_ops_name(struct trace_gpu_ops *g, const char *name)
{
    char(*nn)[TRACE_GPU_NAME_LEN] = array_room(g->name, g->nnames, &g->names_cap, sizeof *nn, 64);
    if (!nn)
        return -1;
    g->name = nn;
    char *s = g->name[g->nnames];
    snprintf(s, TRACE_GPU_NAME_LEN, "%s", name);
    for (char *c = s; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' '; /* the file form is a line per name */
    return g->nnames++;
}

int trace_gpu_ops_push(struct trace_gpu_ops *g, uint32_t label, uint64_t start, uint64_t end,
                       int32_t name)
{
    struct trace_gpu_op *no = array_room_size(g->op, g->n, &g->cap, sizeof *no, 256);
    if (!no)
        return -1;
    g->op = no;
    g->op[g->n++] = (struct trace_gpu_op){start, end, label, name, 0};
    return 0;
}

int trace_gpu_ops_point(struct trace_gpu_ops *g, uint32_t label, uint64_t t, int32_t name,
                        double value)
{
    struct trace_gpu_point *np = array_room_size(g->pt, g->npt, &g->ptcap, sizeof *np, 256);
    if (!np)
        return -1;
    g->pt = np;
    g->pt[g->npt++] = (struct trace_gpu_point){t, label, name, 0, value};
    return 0;
}

static int points_by_track(const void *a, const void *b)
{
    const struct trace_gpu_point *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static int by_track(const void *a, const void *b)
{
    const struct trace_gpu_op *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end); /* ties: the shorter first, as filed */
}

void trace_gpu_ops_order(struct trace_gpu_ops *g)
{
    if (g->n > 1)
        qsort(g->op, g->n, sizeof *g->op, by_track);
    if (g->npt > 1) /* stable enough: a track's points at one moment keep no order */
        qsort(g->pt, g->npt, sizeof *g->pt, points_by_track);
    for (size_t i = 1; i < g->n; i++) {
        struct trace_gpu_op *o = &g->op[i], *p = &g->op[i - 1];
        if (p->pid == o->pid && p->label == o->label && o->start < p->end)
            o->start = p->end < o->end ? p->end : o->end;
    }
}

/* What trace_gpu_ops_add is doing: the names' region and counter ids (-2: not defined
 * yet: only the names used become regions or counters), the writer's own pid, the
 * records lost, whether a name found no memory. */
struct adding {
    struct trace_writer *w;
    const struct trace_gpu_ops *g;
    int *region, *counter;
    long pid;
    uint64_t lost;
    int bad;
};

/* The builder's label of a track of process pid (another process's: a track of its own),
 * or 0 with bad set when there is no memory for it. */
static int track(struct adding *a, uint32_t label, int32_t pid, uint32_t *out)
{
    *out = label;
    if (pid && pid != a->pid && trace_gpu_track_of(a->w, label, pid, out) != 0) {
        a->bad = 1;
        return 0;
    }
    return 1;
}

/* Operation o's enter on its track: the label and region to leave it with (1), or 0 when
 * it is not added (counted as dropped, two records: an enter without its leave, neither). */
static int enter_op(struct adding *a, const struct trace_gpu_op *o, uint32_t *label, int *region)
{
    int *id = a->region, r = id && o->name >= 0 && o->name < a->g->nnames ? id[o->name] : -1;
    if (r == -2 && trace_room(a->w) >= 2) { /* a name a region once, where it is used */
        r = id[o->name] = trace_define_region(a->w, a->g->name[o->name]);
        a->bad |= r < 0;
    }
    if (!track(a, o->label, o->pid, label))
        r = -1; /* no memory for its track: counted as dropped */
    if (r < 0 || trace_room(a->w) < 2) {
        a->lost += 2;
        return 0;
    }
    *region = r;
    return trace_enter(a->w, o->start, *label, r) == 0;
}

static void add_point(struct adding *a, const struct trace_gpu_point *p)
{
    int *id = a->counter, c = id && p->name >= 0 && p->name < a->g->nnames ? id[p->name] : -1;
    if (c == -2 && trace_room(a->w) >= 1) {
        c = id[p->name] = trace_define_counter(a->w, a->g->name[p->name]);
        a->bad |= c < 0;
    }
    uint32_t label;
    if (!track(a, p->label, p->pid, &label))
        c = -1;
    struct trace_record r = {.ts = p->t,
                             .thread = label,
                             .kind = TR_COUNTER,
                             .vtype = TR_VALUE_DOUBLE,
                             .id = (uint32_t)c,
                             .value = trace_value_of_double(p->value)};
    if (c < 0 || trace_add(a->w, &r) != 0)
        a->lost++;
}

/* Whether point p comes before moment t of an operation on track (pid, label): an
 * earlier track's, or this track's before t (both arrays in the order of
 * trace_gpu_ops_order). */
static int point_before(const struct trace_gpu_point *p, int32_t pid, uint32_t label, uint64_t t)
{
    if (p->pid != pid)
        return p->pid < pid;
    if (p->label != label)
        return p->label < label;
    return p->t < t;
}

int trace_gpu_ops_add(struct trace_writer *w, const struct trace_gpu_ops *g)
{
    struct adding a = {.w = w, .g = g, .lost = 2 * g->dropped};
    if (g->nnames) {
        a.region = malloc(2 * (size_t)g->nnames * sizeof *a.region);
        a.bad = !a.region;
        a.counter = a.region ? a.region + g->nnames : NULL;
        for (int k = 0; a.region && k < 2 * g->nnames; k++)
            a.region[k] = -2;
    }
    struct trace_rank me;
    trace_view(w, &me); /* its pid: another process's operations go on tracks of their own */
    a.pid = me.pid;
    /* Each track's records in time order: a point before an operation's start before its
     * enter, one inside it (at its start: a kernel's values) after it. */
    size_t j = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct trace_gpu_op *o = &g->op[i];
        while (j < g->npt && point_before(&g->pt[j], o->pid, o->label, o->start))
            add_point(&a, &g->pt[j++]);
        uint32_t label;
        int region, entered = enter_op(&a, o, &label, &region);
        while (j < g->npt && point_before(&g->pt[j], o->pid, o->label, o->end))
            add_point(&a, &g->pt[j++]);
        if (entered)
            trace_leave(w, o->end, label, region);
    }
    while (j < g->npt)
        add_point(&a, &g->pt[j++]);
    trace_add_dropped(w, a.lost);
    free(a.region);
    return a.bad ? -1 : 0;
}

void trace_gpu_ops_free(struct trace_gpu_ops *g)
{
    free(g->pt);
    free(g->op);
    free(g->name);
    memset(g, 0, sizeof *g);
}

static const char *op_name(const void *ctx, int k)
{
    return ((const struct trace_gpu_ops *)ctx)->name[k];
}

/* Item i: the operations, then the counter points. */
static void op_line(FILE *f, const void *ctx, size_t i)
{
    const struct trace_gpu_ops *g = ctx;
    if (i >= g->n) {
        const struct trace_gpu_point *p = &g->pt[i - g->n];
        fprintf(f, "p %" PRIu32 " %" PRIu64 " %" PRId32 " %a\n", p->label, p->t, p->name, p->value);
        return;
    }
    const struct trace_gpu_op *o = &g->op[i];
    fprintf(f, "o %" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRId32 "\n", o->label, o->start, o->end,
            o->name);
}

int trace_gpu_ops_save(int fd, long pid, const struct trace_gpu_ops *g)
{
    return handover_save(fd, "gpu_ops", pid, g->nnames, g->n + g->npt, g->dropped, op_name, op_line,
                         g);
}

/* A load in progress: the ops, and the block being read (its process, its first name,
 * how many names it has). */
struct load_ctx {
    struct trace_gpu_ops *g;
    int32_t pid;
    int first, nn;
};

static int load_head(void *ctx, long pid, int nnames, uint64_t dropped)
{
    struct load_ctx *c = ctx;
    c->pid = (int32_t)pid;
    c->first = c->g->nnames;
    c->nn = nnames;
    c->g->dropped += dropped;
    return 0;
}

static int load_name(void *ctx, const char *name)
{
    return trace_gpu_ops_name(((struct load_ctx *)ctx)->g, name) >= 0 ? 0 : -1;
}

static int load_op(void *ctx, const char *line)
{
    struct load_ctx *c = ctx;
    uint32_t label;
    uint64_t s, e;
    int32_t name;
    double v;
    if (line[0] == 'p') {
        if (sscanf(line, "p %" SCNu32 " %" SCNu64 " %" SCNd32 " %la", &label, &s, &name, &v) != 4 ||
            name < 0 || name >= c->nn ||
            trace_gpu_ops_point(c->g, label, s, c->first + name, v) != 0)
            return -1;
        c->g->pt[c->g->npt - 1].pid = c->pid;
        return 0;
    }
    if (sscanf(line, "o %" SCNu32 " %" SCNu64 " %" SCNu64 " %" SCNd32, &label, &s, &e, &name) !=
            4 ||
        name < 0 || name >= c->nn || s > e ||
        trace_gpu_ops_push(c->g, label, s, e, c->first + name) != 0)
        return -1;
    c->g->op[c->g->n - 1].pid = c->pid;
    return 0;
}

int trace_gpu_ops_load(const char *path, struct trace_gpu_ops *g, char *why, size_t whylen)
{
    static const struct handover_kind kind = {"gpu_ops",
                                              "gpu_ops PID NAMES ITEMS DROPPED",
                                              "an operation (o LABEL START END NAME) or a "
                                              "counter point (p LABEL T NAME VALUE)",
                                              load_head,
                                              load_name,
                                              load_op,
                                              NULL};
    struct load_ctx c = {g, 0, 0, 0};
    int rc = handover_load(path, &kind, &c, why, whylen);
    trace_gpu_ops_order(g);
    return rc;
}
