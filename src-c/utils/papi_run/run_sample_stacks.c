/* run_sample_stacks.c: a process's stacks block read back for papi_run's merge
 * (run_sample_stacks.h): its items parsed whole, the block handed over only once all its
 * lines are read, so that a file cut or wrong anywhere is left out whole. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handover_file.h"
#include "run_sample_header.h"
#include "run_sample_stacks.h"

struct reader {
    struct rs_stacks b;
    char **names;
    int named, has_events;
    size_t room, names_room; /* b.stack's, names' */
    int (*take)(void *ctx, const struct rs_stacks *b);
    void *ctx;
};

static void clear(struct reader *r)
{
    for (int k = 0; k < r->named; k++)
        free(r->names[k]);
    free(r->names);
    for (size_t k = 0; k < r->b.nstacks; k++) {
        free(r->b.stack[k].names);
        free(r->b.stack[k].where);
    }
    free(r->b.stack);
    free(r->b.call_graph);
    free(r->b.note);
    memset(r, 0, offsetof(struct reader, take));
}

static int block(void *ctx, long pid, int nnames, uint64_t dropped)
{
    struct reader *r = ctx;
    clear(r);
    r->b.pid = pid;
    r->b.rank = -1;
    r->b.dropped = dropped;
    (void)nnames; /* (the names array grows as they come: a head's count is not trusted) */
    return 0;
}

static int name(void *ctx, const char *text)
{
    struct reader *r = ctx;
    if ((size_t)r->named == r->names_room) {
        size_t room = r->names_room ? 2 * r->names_room : 256;
        char **more = realloc(r->names, room * sizeof *more);
        if (!more)
            return -1;
        r->names = more;
        r->names_room = room;
    }
    if (!(r->names[r->named] = strdup(text)))
        return -1;
    r->named++;
    return 0;
}

/* " N" at *p (a decimal up to max) into *v, *p past it: 0, or -1. */
static int number(const char **p, unsigned long long max, unsigned long long *v)
{
    char *end;
    if ((*p)[0] != ' ' || (*p)[1] < '0' || (*p)[1] > '9')
        return -1;
    errno = 0;
    *v = strtoull(*p + 1, &end, 10);
    if (errno || *v > max)
        return -1;
    *p = end;
    return 0;
}

/* "events\tEVENT[\tEVENT]...": 1 to 1 + RS_MAX_READ names. */
static int read_events(struct reader *r, const char *p)
{
    int n = 0;
    while (*p == '\t' && n <= RS_MAX_READ) {
        size_t len = strcspn(p + 1, "\t");
        if (len == 0 || len >= RS_NAME_LEN)
            return -1;
        memcpy(r->b.events[n], p + 1, len);
        r->b.events[n++][len] = 0;
        p += 1 + len;
    }
    if (n == 0 || *p)
        return -1;
    r->b.nw = n;
    r->has_events = 1;
    return 0;
}

static int read_counts(struct reader *r, const char *p)
{
    unsigned long long cap;
    if (number(&p, ~0ULL, &r->b.samples) || number(&p, ~0ULL, &r->b.lost) ||
        number(&p, SIZE_MAX, &cap) || number(&p, ~0ULL, &r->b.dropped_weight) || *p)
        return -1;
    r->b.cap = (size_t)cap;
    return 0;
}

static int read_rank(struct reader *r, const char *p)
{
    unsigned long long v;
    if (strcmp(p, " -1") == 0)
        return r->b.rank = -1, 0;
    if (number(&p, INT32_MAX, &v) || *p)
        return -1;
    r->b.rank = (int)v;
    return 0;
}

/* " TID SAMPLES PARTS DEPTH W.. F..\tWHERE": the stack's names joined as a folded line. */
static int read_stack(struct reader *r, const char *p)
{
    struct rs_stacks_stack st = {0};
    unsigned long long tid, parts, depth, v;
    if (number(&p, INT32_MAX, &tid) || number(&p, ~0ULL, &st.samples) ||
        number(&p, INT32_MAX, &parts) || parts == 0 || number(&p, 4096, &depth) || depth == 0)
        return -1;
    for (int i = 0; i < r->b.nw; i++)
        if (number(&p, ~0ULL, &v))
            return -1;
        else
            st.w[i] = v;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    int bad = 0;
    for (unsigned long long d = 0; d < depth && !bad; d++) {
        bad = number(&p, (unsigned long long)r->named - 1, &v) || r->named == 0;
        if (!bad)
            fprintf(f, "%s%s", d ? ";" : "", r->names[v]);
    }
    if ((fclose(f) != 0) | bad || *p != '\t') {
        free(text);
        return -1;
    }
    if (r->b.nstacks == r->room) {
        size_t room = r->room ? 2 * r->room : 64;
        struct rs_stacks_stack *more = realloc(r->b.stack, room * sizeof *more);
        if (!more)
            return free(text), -1;
        r->b.stack = more;
        r->room = room;
    }
    st.names = text;
    st.where = strdup(p + 1);
    st.tid = (int)tid;
    st.parts = (int)parts;
    if (!st.where)
        return free(text), -1;
    r->b.stack[r->b.nstacks++] = st;
    return 0;
}

/* One item: the events first, then any of the others. */
static int item(void *ctx, const char *line)
{
    struct reader *r = ctx;
    if (strncmp(line, "events\t", 7) == 0)
        return r->has_events ? -1 : read_events(r, line + 6);
    if (!r->has_events)
        return -1;
    if (strncmp(line, "counts ", 7) == 0)
        return read_counts(r, line + 6);
    if (strncmp(line, "call_graph ", 11) == 0 && strchr(line, '\t') && !r->b.call_graph)
        return (r->b.call_graph = strdup(line + 11)) ? 0 : -1;
    if (strncmp(line, "note ", 5) == 0 && !r->b.note)
        return (r->b.note = strdup(line + 5)) ? 0 : -1;
    if (strncmp(line, "rank ", 5) == 0)
        return read_rank(r, line + 4);
    if (strncmp(line, "stack ", 6) == 0)
        return read_stack(r, line + 5);
    return rs_header_read(line, &r->b.head) ? 0 : -1;
}

static int end(void *ctx)
{
    struct reader *r = ctx;
    int rc = r->has_events ? r->take(r->ctx, &r->b) : 0;
    clear(r);
    return rc;
}

int rs_stacks_load(const char *path, int (*take)(void *ctx, const struct rs_stacks *b), void *ctx,
                   char *why, size_t whylen)
{
    static const struct handover_kind kind = {
        RS_STACKS_KIND,
        "stacks PID NAMES ITEMS DROPPED",
        "an item (events first; counts, call_graph, note, rank, run_*, metric, "
        "stack TID SAMPLES PARTS DEPTH W.. F..\\tWHERE)",
        block,
        name,
        item,
        end};
    struct reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(why, whylen, "%s: no memory to read it", path);
        return -1;
    }
    r->take = take;
    r->ctx = ctx;
    int rc = handover_load(path, &kind, r, why, whylen);
    clear(r);
    free(r);
    return rc;
}
