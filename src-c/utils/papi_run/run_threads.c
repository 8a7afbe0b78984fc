/* run_threads.c: papi_run reads the per-thread rows the preloaded library handed over
 * (run_threads.h, run_threads_block.h) once the program has ended. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_threads.h"
#include "run_threads_block.h"

/* A read in progress: the rows, and the block being read's number of events. */
struct load_ctx {
    struct run_threads *t;
    int nevents, block_events;
};

static int load_head(void *ctx, long pid, int nnames, uint64_t dropped)
{
    struct load_ctx *c = ctx;
    (void)pid;
    (void)dropped;
    c->block_events = nnames;
    return 0;
}

static int load_name(void *ctx, const char *name)
{
    (void)ctx;
    (void)name;
    return 0;
}

/* "t TID REAL_NS VALUE..." with the block's number of values; the first nevents kept. A
 * row past RUN_MAX_THREADS is counted, not kept. */
static int load_row(void *ctx, const char *line)
{
    struct load_ctx *c = ctx;
    struct run_thread_row r;
    char *end;
    if (c->block_events < c->nevents || line[0] != 't' || line[1] != ' ')
        return -1;
    const char *p = line + 2;
    long tid = strtol(p, &end, 10);
    if (end == p || tid <= 0)
        return -1;
    r.tid = (pid_t)tid;
    p = end;
    r.real_ns = strtoll(p, &end, 10);
    for (int i = 0; end != p && i < c->block_events; i++) {
        p = end;
        long long v = strtoll(p, &end, 10);
        if (i < RUN_MAX_EVENTS)
            r.value[i] = v;
    }
    if (end == p || *end != '\0')
        return -1;
    if (c->t->n < RUN_MAX_THREADS)
        c->t->row[c->t->n++] = r;
    else
        c->t->dropped++;
    return 0;
}

struct run_threads *run_threads_read(const char *path, int nevents)
{
    static const struct handover_kind kind = {RUN_THREADS_KIND,
                                              RUN_THREADS_HEAD_FORM,
                                              RUN_THREADS_ROW_FORM,
                                              load_head,
                                              load_name,
                                              load_row,
                                              NULL};
    struct run_threads *t = calloc(1, sizeof *t);
    struct load_ctx c = {t, nevents, 0};
    char why[512];
    int rc = t ? handover_load(path, &kind, &c, why, sizeof why) : 1;
    if (rc < 0) /* (the rows before the fault are kept) */
        fprintf(stderr, "papi_run: --per-thread: %s\n", why);
    unlink(path);
    if (rc == 1) {
        free(t);
        return NULL;
    }
    return t;
}
