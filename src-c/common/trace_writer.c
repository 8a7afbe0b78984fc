/* trace_writer.c: the trace writer's front end (trace_writer.h): the format names, the
 * in-memory builder of one process's records, and the dispatch to a back end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array_room.h"
#include "trace_json.h"
#include "trace_otf2.h"
#include "trace_writer.h"

#define TW_DEFAULT_MAX ((size_t)4 << 20)

int trace_format_parse(const char *s, enum trace_format *out, char *why, size_t whylen)
{
    if (s && strcasecmp(s, "json") == 0) {
        *out = TRACE_JSON;
        return 0;
    }
    if (s && strcasecmp(s, "otf2") == 0) {
        *out = TRACE_OTF2;
        return 0;
    }
    snprintf(why, whylen, "unknown trace format '%.40s' (json or otf2)", s ? s : "");
    return -1;
}

const char *trace_format_name(enum trace_format f)
{
    return f == TRACE_OTF2 ? "otf2" : "json";
}

int trace_write(const char *dir, const char *base, enum trace_format f,
                const struct trace_meta *meta, const struct trace_rank *ranks, int nranks,
                char *why, size_t whylen)
{
    static const struct trace_meta none;
    if (!dir || !base || !*base || strchr(base, '/') || nranks < 0 || (nranks > 0 && !ranks)) {
        snprintf(why, whylen, "trace_write: no directory, a bad name or no ranks");
        return -1;
    }
    if (!meta)
        meta = &none;
    if (f == TRACE_JSON)
        return trace_json_write(dir, base, meta, ranks, nranks, why, whylen);
    if (f == TRACE_OTF2)
        return trace_otf2_write(dir, base, meta, ranks, nranks, why, whylen);
    snprintf(why, whylen, "trace_write: unknown format %d", (int)f);
    return -1;
}

/* ---- the builder ---- */

struct names {
    char **name;
    int n, cap;
};

struct trace_writer {
    enum trace_format format;
    int rank;
    long pid;
    char *host;
    struct names region, counter;
    struct trace_record *rec;
    size_t nrec, cap, max;
    uint64_t dropped;
    struct trace_track *track; /* other processes' GPU tracks */
    int ntracks, tracks_cap;
};

struct trace_writer *trace_open(enum trace_format f, int rank, long pid, const char *host,
                                size_t max_records)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->format = f;
    w->rank = rank;
    w->pid = pid;
    w->max = max_records ? max_records : TW_DEFAULT_MAX;
    if (host && !(w->host = strdup(host))) {
        free(w);
        return NULL;
    }
    return w;
}

enum trace_format trace_writer_format(const struct trace_writer *w)
{
    return w->format;
}

static int define(struct names *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->name[i], name) == 0)
            return i;
    if (t->n == t->cap) {
        int nc = t->cap ? 2 * t->cap : 16;
        char **nn = realloc(t->name, (size_t)nc * sizeof *nn);
        if (!nn)
            return -1;
        t->name = nn;
        t->cap = nc;
    }
    if (!(t->name[t->n] = strdup(name)))
        return -1;
    return t->n++;
}

int trace_define_region(struct trace_writer *w, const char *name)
{
    return name ? define(&w->region, name) : -1;
}

int trace_define_counter(struct trace_writer *w, const char *name)
{
    return name ? define(&w->counter, name) : -1;
}

int trace_add(struct trace_writer *w, const struct trace_record *r)
{
    if (w->nrec == w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 1024;
        if (nc > w->max)
            nc = w->max;
        struct trace_record *nr = nc > w->cap ? realloc(w->rec, nc * sizeof *nr) : NULL;
        if (!nr) {
            w->dropped++;
            return -1;
        }
        w->rec = nr;
        w->cap = nc;
    }
    w->rec[w->nrec++] = *r;
    return 0;
}

size_t trace_room(const struct trace_writer *w)
{
    return w->max > w->nrec ? w->max - w->nrec : 0;
}

void trace_add_dropped(struct trace_writer *w, uint64_t n)
{
    w->dropped += n;
}

int trace_enter(struct trace_writer *w, uint64_t ts, uint32_t thread, int region)
{
    return trace_add(w, &(struct trace_record){
                            .ts = ts, .thread = thread, .kind = TR_ENTER, .id = (uint32_t)region});
}

int trace_leave(struct trace_writer *w, uint64_t ts, uint32_t thread, int region)
{
    return trace_add(w, &(struct trace_record){
                            .ts = ts, .thread = thread, .kind = TR_LEAVE, .id = (uint32_t)region});
}

int trace_counter(struct trace_writer *w, uint64_t ts, uint32_t thread, int counter, int64_t value)
{
    return trace_add(w, &(struct trace_record){.ts = ts,
                                               .thread = thread,
                                               .kind = TR_COUNTER,
                                               .id = (uint32_t)counter,
                                               .value = value});
}

/* A point-to-point message, sent or received. */
static int message(struct trace_writer *w, uint64_t ts, uint32_t thread, enum trace_kind kind,
                   int peer, int tag, uint32_t comm, uint64_t bytes)
{
    return trace_add(w, &(struct trace_record){.ts = ts,
                                               .thread = thread,
                                               .kind = kind,
                                               .peer = peer,
                                               .tag = tag,
                                               .comm = comm,
                                               .bytes = bytes});
}

int trace_send(struct trace_writer *w, uint64_t ts, uint32_t thread, int peer, int tag,
               uint32_t comm, uint64_t bytes)
{
    return message(w, ts, thread, TR_SEND, peer, tag, comm, bytes);
}

int trace_recv(struct trace_writer *w, uint64_t ts, uint32_t thread, int peer, int tag,
               uint32_t comm, uint64_t bytes)
{
    return message(w, ts, thread, TR_RECV, peer, tag, comm, bytes);
}

int trace_coll_begin(struct trace_writer *w, uint64_t ts, uint32_t thread)
{
    return trace_add(w, &(struct trace_record){.ts = ts, .thread = thread, .kind = TR_COLL_BEGIN});
}

int trace_coll_end(struct trace_writer *w, uint64_t ts, uint32_t thread, enum trace_collop op,
                   uint32_t comm, int root, uint64_t sent, uint64_t received)
{
    return trace_add(w, &(struct trace_record){.ts = ts,
                                               .thread = thread,
                                               .kind = TR_COLL_END,
                                               .collop = (uint8_t)op,
                                               .comm = comm,
                                               .peer = root,
                                               .bytes = sent,
                                               .value = (int64_t)received});
}

int trace_gpu_track_of(struct trace_writer *w, uint32_t gpu, long pid, uint32_t *label)
{
    for (int i = 0; i < w->ntracks; i++)
        if (w->track[i].gpu == gpu && w->track[i].pid == pid) {
            *label = TRACE_GPU_TRACK_OF(i);
            return 0;
        }
    if (w->ntracks >= 0x0FFFFFFF)
        return -1;
    struct trace_track *t = array_room(w->track, w->ntracks, &w->tracks_cap, sizeof *t, 8);
    if (!t)
        return -1;
    w->track = t;
    w->track[w->ntracks] = (struct trace_track){gpu, pid};
    *label = TRACE_GPU_TRACK_OF(w->ntracks++);
    return 0;
}

struct trace_mark trace_mark_now(const struct trace_writer *w)
{
    return (struct trace_mark){w->nrec, w->dropped};
}

void trace_rewind(struct trace_writer *w, struct trace_mark m)
{
    if (m.nrec <= w->nrec)
        w->nrec = m.nrec;
    w->dropped = m.dropped;
}

void trace_view(const struct trace_writer *w, struct trace_rank *out)
{
    *out = (struct trace_rank){.rank = w->rank,
                               .pid = w->pid,
                               .host = w->host,
                               .region = (const char *const *)w->region.name,
                               .nregions = w->region.n,
                               .counter = (const char *const *)w->counter.name,
                               .ncounters = w->counter.n,
                               .rec = w->rec,
                               .nrec = w->nrec,
                               .dropped = w->dropped,
                               .track = w->track,
                               .ntracks = w->ntracks};
}

static void names_free(struct names *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->name[i]);
    free(t->name);
}

void trace_close(struct trace_writer *w)
{
    if (!w)
        return;
    names_free(&w->region);
    names_free(&w->counter);
    free(w->rec);
    free(w->host);
    free(w->track);
    free(w);
}
