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
    for (size_t i = 1; i < g->n; i++) {
        struct trace_gpu_op *o = &g->op[i], *p = &g->op[i - 1];
        if (p->pid == o->pid && p->label == o->label && o->start < p->end)
            o->start = p->end < o->end ? p->end : o->end;
    }
}

int trace_gpu_ops_add(struct trace_writer *w, const struct trace_gpu_ops *g)
{
    int *id = g->nnames ? malloc((size_t)g->nnames * sizeof *id) : NULL;
    int bad = g->nnames && !id;
    uint64_t lost = 2 * g->dropped;
    struct trace_rank me;
    trace_view(w, &me); /* its pid: another process's operations go on tracks of their own */
    for (int k = 0; id && k < g->nnames; k++)
        id[k] = -2; /* not defined yet: only the names used become regions */
    for (size_t i = 0; i < g->n; i++) {
        const struct trace_gpu_op *o = &g->op[i];
        int r = id && o->name >= 0 && o->name < g->nnames ? id[o->name] : -1;
        if (r == -2 && trace_room(w) >= 2) { /* a name a region once, where it is used */
            r = id[o->name] = trace_define_region(w, g->name[o->name]);
            bad |= r < 0;
        }
        uint32_t label = o->label;
        if (o->pid && o->pid != me.pid && trace_gpu_track_of(w, o->label, o->pid, &label) != 0) {
            r = -1; /* no memory for its track: counted as dropped */
            bad = 1;
        }
        if (r < 0 || trace_room(w) < 2) { /* an enter without its leave: neither */
            lost += 2;
        } else if (trace_enter(w, o->start, label, r) == 0) {
            trace_leave(w, o->end, label, r);
        }
    }
    trace_add_dropped(w, lost);
    free(id);
    return bad ? -1 : 0;
}

void trace_gpu_ops_free(struct trace_gpu_ops *g)
{
    free(g->op);
    free(g->name);
    memset(g, 0, sizeof *g);
}

static const char *op_name(const void *ctx, int k)
{
    return ((const struct trace_gpu_ops *)ctx)->name[k];
}

static void op_line(FILE *f, const void *ctx, size_t i)
{
    const struct trace_gpu_op *o = &((const struct trace_gpu_ops *)ctx)->op[i];
    fprintf(f, "o %" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRId32 "\n", o->label, o->start, o->end,
            o->name);
}

int trace_gpu_ops_save(int fd, long pid, const struct trace_gpu_ops *g)
{
    return handover_save(fd, "gpu_ops", pid, g->nnames, g->n, g->dropped, op_name, op_line, g);
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
                                              "gpu_ops PID NAMES OPS DROPPED",
                                              "an operation (o LABEL START END NAME)",
                                              load_head,
                                              load_name,
                                              load_op,
                                              NULL};
    struct load_ctx c = {g, 0, 0, 0};
    int rc = handover_load(path, &kind, &c, why, whylen);
    trace_gpu_ops_order(g);
    return rc;
}
