/* trace_json.c: the Chrome trace-event JSON back end (schema/trace_json.schema.json).
 * Perfetto's UI and chrome://tracing load it: a process per rank ("pid" = rank), a track
 * per thread ("tid" = its label), "B"/"E" slices for regions and MPI calls, an "X" slice
 * per collective, "C" counter tracks, and a flow ("s" at the send, "f" at the receive)
 * per message. A flow's id is a hash of (sender, receiver, tag, communicator, n): the
 * n-th message of one sender to one receiver with one tag on one communicator is the
 * n-th such receive (MPI's non-overtaking order), so each rank computes its ids alone and
 * files written rank by rank pair up when their "traceEvents" are concatenated.
 * One event a line; times in microseconds with nanosecond digits, from "base_ns". */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_writer.h"
#include "output_file.h"
#include "trace_json.h"
#include "trace_region_type.h"

/* ---- flow ids ---- */

struct chan {
    int32_t peer, tag;
    uint32_t comm;
    int used;
    uint64_t n;
};

struct chans {
    struct chan *c;
    size_t cap, used;
};

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL; /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t chan_hash(int32_t peer, int32_t tag, uint32_t comm)
{
    return mix(((uint64_t)(uint32_t)peer << 32 | (uint32_t)tag) ^ mix(comm));
}

/* The number of earlier messages on (peer, tag, comm), counting this one; -1: no memory. */
static int64_t chan_next(struct chans *t, int32_t peer, int32_t tag, uint32_t comm)
{
    if (2 * (t->used + 1) > t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        struct chan *n = calloc(nc, sizeof *n);
        if (!n)
            return -1;
        for (size_t i = 0; i < t->cap; i++)
            if (t->c[i].used) {
                size_t h = chan_hash(t->c[i].peer, t->c[i].tag, t->c[i].comm) & (nc - 1);
                while (n[h].used)
                    h = (h + 1) & (nc - 1);
                n[h] = t->c[i];
            }
        free(t->c);
        t->c = n;
        t->cap = nc;
    }
    size_t h = chan_hash(peer, tag, comm) & (t->cap - 1);
    while (t->c[h].used && !(t->c[h].peer == peer && t->c[h].tag == tag && t->c[h].comm == comm))
        h = (h + 1) & (t->cap - 1);
    if (!t->c[h].used) {
        t->c[h] = (struct chan){peer, tag, comm, 1, 0};
        t->used++;
    }
    return (int64_t)t->c[h].n++;
}

/* 52 bits: exact as a JSON number in every reader. */
static uint64_t flow_id(int src, int dst, int tag, uint32_t comm, uint64_t n)
{
    uint64_t h = mix((uint64_t)(uint32_t)src << 32 | (uint32_t)dst);
    h = mix(h ^ ((uint64_t)(uint32_t)tag << 32 | comm));
    return mix(h ^ n) & ((1ULL << 52) - 1);
}

/* ---- events ---- */

struct out {
    FILE *f;
    uint64_t base;
    int first;
};

static void ev_open(struct out *o, const char *ph, int pid, uint32_t tid)
{
    fputs(o->first ? "\n" : ",\n", o->f);
    o->first = 0;
    fprintf(o->f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%" PRIu32, ph, pid, tid);
}

static void put_ts(struct out *o, const char *key, uint64_t ts)
{
    uint64_t d = ts >= o->base ? ts - o->base : 0;
    fprintf(o->f, ",\"%s\":%" PRIu64 ".%03u", key, d / 1000, (unsigned)(d % 1000));
}

static void put_name(struct out *o, const char *name, const char *cat)
{
    fputs(",\"name\":", o->f);
    json_put_string(o->f, name);
    fprintf(o->f, ",\"cat\":\"%s\"", cat);
}

static void metadata(struct out *o, const struct trace_rank *r, const uint32_t *tid, int nt)
{
    char name[256];
    snprintf(name, sizeof name, "rank %d (%s, pid %ld)", r->rank, r->host ? r->host : "?", r->pid);
    ev_open(o, "M", r->rank, tid && nt ? tid[0] : 0);
    fputs(",\"name\":\"process_name\",\"args\":{\"name\":", o->f);
    json_put_string(o->f, name);
    fputs("}}", o->f);
    ev_open(o, "M", r->rank, tid && nt ? tid[0] : 0);
    fprintf(o->f, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}", r->rank);
    for (int i = 0; i < nt; i++) {
        char track[64];
        trace_track_name(tid[i], r->track, r->ntracks, track, sizeof track);
        ev_open(o, "M", r->rank, tid[i]);
        fprintf(o->f, ",\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", track);
    }
}

static const char *region_name(const struct trace_rank *r, uint32_t id)
{
    return id < (uint32_t)r->nregions && r->region[id] ? r->region[id] : "unknown region";
}

static int thread_index(const uint32_t *tid, int nt, uint32_t t)
{
    for (int i = 0; i < nt; i++)
        if (tid[i] == t)
            return i;
    return 0;
}

/* What write_rank keeps while it walks one rank's records. Per thread: open regions (a
 * leave without one is left out, so B/E stay balanced) and the open collective's start;
 * counters on several threads get a track per thread. */
struct rank_walk {
    const struct trace_rank *r;
    uint32_t *tid;
    int nt, cthreads;
    long *depth;
    uint64_t *coll;
    struct chans sent, recvd;
};

static void write_region(struct out *o, struct rank_walk *w, const struct trace_record *e, int ti)
{
    const char *name = region_name(w->r, e->id);
    if (e->kind == TR_LEAVE && w->depth[ti] == 0)
        return;
    w->depth[ti] += e->kind == TR_ENTER ? 1 : -1;
    ev_open(o, e->kind == TR_ENTER ? "B" : "E", w->r->rank, e->thread);
    put_name(o, name, trace_region_category(name));
    put_ts(o, "ts", e->ts);
    if (e->kind == TR_ENTER && e->value > 0) /* a slice of folded polls */
        fprintf(o->f, ",\"args\":{\"calls\":%" PRId64 "}", e->value);
    fputc('}', o->f);
}

static void write_counter(struct out *o, const struct rank_walk *w, const struct trace_record *e)
{
    const struct trace_rank *r = w->r;
    const char *name =
        e->id < (uint32_t)r->ncounters && r->counter[e->id] ? r->counter[e->id] : "unknown counter";
    /* A named metric is a double, written as one (a count is an integer) */
    int dbl = e->vtype == TR_VALUE_DOUBLE;
    double d = dbl ? trace_value_double(e) : 0;
    if (dbl && !isfinite(d))
        return; /* NaN or inf: no point rather than a wrong one (JSON has neither) */
    char track[320];
    snprintf(track, sizeof track, "%s", name);
    if (w->cthreads > 1) { /* a GPU track's counter by its track's name, not its label */
        size_t l = strlen(track);
        char tn[96];
        if (TRACE_IS_GPU_TRACK(e->thread)) {
            trace_track_name(e->thread, r->track, r->ntracks, tn, sizeof tn);
            snprintf(track + l, sizeof track - l, " [%s]", tn);
        } else {
            snprintf(track + l, sizeof track - l, " [thread %" PRIu32 "]", e->thread);
        }
    }
    ev_open(o, "C", r->rank, e->thread);
    put_name(o, track, "counter");
    put_ts(o, "ts", e->ts);
    if (dbl)
        fprintf(o->f, ",\"args\":{\"value\":%.17g}}", d);
    else
        fprintf(o->f, ",\"args\":{\"value\":%" PRId64 "}}", e->value);
}

/* A send's or a receive's flow end; -1 when out of memory. */
static int write_message(struct out *o, struct rank_walk *w, const struct trace_record *e)
{
    int send = e->kind == TR_SEND, rank = w->r->rank;
    int64_t n = chan_next(send ? &w->sent : &w->recvd, e->peer, e->tag, e->comm);
    if (n < 0)
        return -1;
    uint64_t id = send ? flow_id(rank, e->peer, e->tag, e->comm, (uint64_t)n)
                       : flow_id(e->peer, rank, e->tag, e->comm, (uint64_t)n);
    ev_open(o, send ? "s" : "f", rank, e->thread);
    put_name(o, "message", "mpi_message");
    put_ts(o, "ts", e->ts);
    fprintf(o->f,
            "%s,\"id\":%" PRIu64 ",\"args\":{\"%s\":%d,\"tag\":%d,\"comm\":%" PRIu32
            ",\"bytes\":%" PRIu64 "}}",
            send ? "" : ",\"bp\":\"e\"", id, send ? "to" : "from", (int)e->peer, (int)e->tag,
            e->comm, e->bytes);
    return 0;
}

static void write_collective(struct out *o, struct rank_walk *w, const struct trace_record *e,
                             int ti)
{
    uint64_t begin = w->coll[ti] && w->coll[ti] <= e->ts ? w->coll[ti] : e->ts;
    w->coll[ti] = 0;
    ev_open(o, "X", w->r->rank, e->thread);
    put_name(o, trace_collop_name(e->collop), "mpi_collective");
    put_ts(o, "ts", begin);
    fprintf(o->f, ",\"dur\":%" PRIu64 ".%03u", (e->ts - begin) / 1000,
            (unsigned)((e->ts - begin) % 1000));
    fprintf(o->f,
            ",\"args\":{\"comm\":%" PRIu32 ",\"root\":%d,\"sent\":%" PRIu64 ",\"received\":%" PRId64
            "}}",
            e->comm, (int)e->peer, e->bytes, e->value);
}

/* One record's event (none for some); -1 when out of memory. */
static int write_record(struct out *o, struct rank_walk *w, const struct trace_record *e)
{
    int ti = thread_index(w->tid, w->nt, e->thread);
    switch (e->kind) {
    case TR_ENTER:
    case TR_LEAVE:
        write_region(o, w, e, ti);
        return 0;
    case TR_COUNTER:
        write_counter(o, w, e);
        return 0;
    case TR_SEND:
    case TR_RECV:
        return write_message(o, w, e);
    case TR_COLL_BEGIN:
        w->coll[ti] = e->ts;
        return 0;
    case TR_COLL_END:
        write_collective(o, w, e, ti);
        return 0;
    default:
        return 0;
    }
}

/* How many threads (0, 1 or 2: more is 2) have counter records. */
static int counter_threads(const struct trace_rank *r)
{
    uint32_t ctid = 0;
    int cthreads = 0;
    for (size_t i = 0; i < r->nrec && cthreads < 2; i++)
        if (r->rec[i].kind == TR_COUNTER && (!cthreads || r->rec[i].thread != ctid)) {
            ctid = r->rec[i].thread;
            cthreads++;
        }
    return cthreads;
}

/* One rank's events; -1 when out of memory. */
static int write_rank(struct out *o, const struct trace_rank *r)
{
    struct rank_walk w = {.r = r};
    w.nt = trace_threads(r, &w.tid);
    size_t *ord = trace_order(r);
    w.depth = calloc((size_t)(w.nt > 0 ? w.nt : 1), sizeof *w.depth);
    w.coll = calloc((size_t)(w.nt > 0 ? w.nt : 1), sizeof *w.coll);
    int ret = -1;
    if (w.nt >= 0 && ord && w.depth && w.coll) {
        w.cthreads = counter_threads(r);
        metadata(o, r, w.tid, w.nt);
        ret = 0;
        for (size_t k = 0; k < r->nrec && ret == 0; k++)
            ret = write_record(o, &w, &r->rec[ord[k]]);
    }
    free(w.sent.c);
    free(w.recvd.c);
    free(w.tid);
    free(ord);
    free(w.depth);
    free(w.coll);
    return ret;
}

/* The document's end: the traceEvents closed and otherData. 0, or -1 (a write failed). */
static int put_end(FILE *f, const struct trace_meta *meta, uint64_t base, int n, uint64_t dropped)
{
    fputs("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"format\":\"papi-compat trace\","
          "\"version\":1",
          f);
    fprintf(f, ",\"base_ns\":%" PRIu64 ",\"ranks\":%d,\"dropped\":%" PRIu64, base, n, dropped);
    const char *keys[] = {"program", "run_id", "creator"};
    const char *vals[] = {meta->program, meta->run_id, meta->creator};
    for (int i = 0; i < 3; i++)
        if (vals[i]) {
            fprintf(f, ",\"%s\":", keys[i]);
            json_put_string(f, vals[i]);
        }
    fputs("}}\n", f);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

static int write_doc(FILE *f, const struct trace_meta *meta, const struct trace_rank *ranks, int n)
{
    uint64_t first, last, dropped = 0;
    trace_span(ranks, n, &first, &last);
    if (meta->base_ns && meta->base_ns <= first)
        first = meta->base_ns;
    struct out o = {f, first, 1};
    fputs("{\"traceEvents\":[", f);
    for (int k = 0; k < n; k++) {
        if (write_rank(&o, &ranks[k]) != 0)
            return -1;
        dropped += ranks[k].dropped;
    }
    return put_end(f, meta, first, n, dropped);
}

/* The events of the trace file at path (one a line, as write_doc writes them) appended
 * to f; *first: none written yet. 0, or -1 (not readable, or not such a file). */
static int copy_events(FILE *f, const char *path, int *first)
{
    FILE *in = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int state = 0; /* 0: before the events, 1: in them, 2: after */
    if (!in)
        return -1;
    while (state < 2 && (len = getline(&line, &cap, in)) > 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == ','))
            line[--len] = 0;
        if (state == 0) {
            state = strcmp(line, "{\"traceEvents\":[") == 0 ? 1 : 3;
        } else if (line[0] == ']') {
            state = 2;
        } else if (len > 0) {
            fputs(*first ? "\n" : ",\n", f);
            fputs(line, f);
            *first = 0;
        }
    }
    free(line);
    int bad = ferror(in) || state != 2;
    fclose(in);
    return bad ? -1 : 0;
}

int trace_json_concat(const char *dir, const char *base, const char *const *paths, int n,
                      const struct trace_meta *meta, uint64_t dropped, char *why, size_t whylen)
{
    char name[NAME_MAX + 1], tmp[NAME_MAX + 1], dwhy[512];
    snprintf(name, sizeof name, "%.200s.json", base);
    int dirfd = output_dir_open(dir, 0, dwhy, sizeof dwhy), ret = -1, first = 1, k = 0;
    int fd = dirfd < 0 ? -1 : output_file_create(dirfd, name, tmp, sizeof tmp);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        snprintf(why, whylen, "cannot write %.200s/%s: %s", dir, name,
                 dirfd < 0 ? dwhy : strerror(errno));
        if (fd >= 0)
            close(fd), output_file_discard(dirfd, tmp);
        goto out;
    }
    fputs("{\"traceEvents\":[", f);
    while (k < n && copy_events(f, paths[k], &first) == 0)
        k++;
    int bad = k < n || put_end(f, meta, meta->base_ns, n, dropped) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        output_file_discard(dirfd, tmp);
        if (k < n)
            snprintf(why, whylen, "%.200s is not a readable trace", paths[k]);
        else
            snprintf(why, whylen, "writing %.200s/%s failed", dir, name);
    } else if (output_file_publish(dirfd, tmp, name) != 0) {
        snprintf(why, whylen, "cannot rename the trace into %.200s/%s: %s", dir, name,
                 strerror(errno));
    } else {
        ret = 0;
    }
out:
    if (dirfd >= 0)
        close(dirfd);
    return ret;
}

int trace_json_write(const char *dir, const char *base, const struct trace_meta *meta,
                     const struct trace_rank *ranks, int n, char *why, size_t whylen)
{
    char name[NAME_MAX + 1], tmp[NAME_MAX + 1], dwhy[512];
    if ((size_t)snprintf(name, sizeof name, "%s.json", base) >= sizeof name - 16) {
        snprintf(why, whylen, "trace name '%.40s...' is too long", base);
        return -1;
    }
    int dirfd = output_dir_open(dir, 0, dwhy, sizeof dwhy);
    if (dirfd < 0) {
        snprintf(why, whylen, "trace not written: %s", dwhy);
        return -1;
    }
    int ret = -1;
    int fd = output_file_create(dirfd, name, tmp, sizeof tmp);
    if (fd < 0) {
        snprintf(why, whylen, "cannot create the trace in %.200s: %s", dir, strerror(errno));
        goto out;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        output_file_discard(dirfd, tmp);
        snprintf(why, whylen, "cannot write the trace in %.200s: %s", dir, strerror(errno));
        goto out;
    }
    errno = 0;
    int bad = write_doc(f, meta, ranks, n);
    int err = bad ? (errno ? errno : ENOMEM) : 0;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        output_file_discard(dirfd, tmp);
        snprintf(why, whylen, "writing the trace %.200s/%s failed (%s); nothing was published", dir,
                 name, strerror(err));
        goto out;
    }
    if (output_file_publish(dirfd, tmp, name) != 0) {
        snprintf(why, whylen, "cannot rename the trace into %.200s/%s: %s", dir, name,
                 strerror(errno));
        goto out;
    }
    ret = 0;
out:
    close(dirfd);
    return ret;
}
