/* trace_gpu_tracks.c: GPU operations as regions on GPU tracks (trace_gpu_tracks.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_room.h"
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

int trace_gpu_ops_save(int fd, long pid, const struct trace_gpu_ops *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    fprintf(f, "gpu_ops %ld %d %zu %" PRIu64 "\n", pid, g->nnames, g->n, g->dropped);
    for (int k = 0; k < g->nnames; k++)
        fprintf(f, "n %s\n", g->name[k]);
    for (size_t i = 0; i < g->n; i++)
        fprintf(f, "o %" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRId32 "\n", g->op[i].label,
                g->op[i].start, g->op[i].end, g->op[i].name);
    int rc = fclose(f) != 0 ? -1 : 0;
    for (size_t done = 0; rc == 0 && done < len;) { /* one write but for a short one */
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            rc = -1;
        else
            done += (size_t)k;
    }
    free(text);
    return rc;
}

/* One block's lines after its head into g: 0, or -1 with why. */
static int load_block(FILE *f, const char *path, long *line, struct trace_gpu_ops *g, int nn,
                      size_t no, char *why, size_t whylen)
{
    char buf[TRACE_GPU_NAME_LEN + 64];
    int first = g->nnames;
    for (long k = 0; k < nn + (long)no; k++) {
        ++*line;
        if (!fgets(buf, sizeof buf, f)) {
            snprintf(why, whylen, "%s: line %ld: the block ends early (a cut write)", path, *line);
            return -1;
        }
        buf[strcspn(buf, "\n")] = '\0';
        uint32_t label;
        uint64_t s, e;
        int32_t name;
        int ok = k < nn ? buf[0] == 'n' && buf[1] == ' ' && trace_gpu_ops_name(g, buf + 2) >= 0
                        : sscanf(buf, "o %" SCNu32 " %" SCNu64 " %" SCNu64 " %" SCNd32, &label, &s,
                                 &e, &name) == 4 &&
                              name >= 0 && name < nn && s <= e &&
                              trace_gpu_ops_push(g, label, s, e, first + name) == 0;
        if (!ok) {
            snprintf(why, whylen, "%s: line %ld: expected %s: '%.60s'", path, *line,
                     k < nn ? "a name (n NAME)" : "an operation (o LABEL START END NAME)", buf);
            return -1;
        }
    }
    return 0;
}

int trace_gpu_ops_load(const char *path, struct trace_gpu_ops *g, char *why, size_t whylen)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char head[128];
    long line = 0;
    int rc = 0;
    while (rc == 0 && fgets(head, sizeof head, f)) {
        long pid;
        int nn;
        size_t no;
        uint64_t dropped;
        ++line;
        if (sscanf(head, "gpu_ops %ld %d %zu %" SCNu64, &pid, &nn, &no, &dropped) != 4 || nn < 0) {
            head[strcspn(head, "\n")] = '\0';
            snprintf(why, whylen, "%s: line %ld: expected 'gpu_ops PID NAMES OPS DROPPED': '%.60s'",
                     path, line, head);
            rc = -1;
            break;
        }
        if (pid <= 0 || pid > INT32_MAX) {
            snprintf(why, whylen, "%s: line %ld: process id %ld out of range", path, line, pid);
            rc = -1;
            break;
        }
        g->dropped += dropped;
        size_t from = g->n;
        rc = load_block(f, path, &line, g, nn, no, why, whylen);
        for (size_t i = from; i < g->n; i++)
            g->op[i].pid = (int32_t)pid;
    }
    fclose(f);
    trace_gpu_ops_order(g);
    return rc;
}
