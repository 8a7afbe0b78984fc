/* request_link.c: a Wait's request to the record that made it (request_link.h).
 *
 * A request handle is reused as soon as it is freed, and a Wait is logged after it
 * returns: with several threads, another thread's I-call can take the handle and log
 * before the Wait that freed it. So a Wait takes the latest open record of that handle
 * made by its own thread, and only when its thread has none (a request completed by
 * another thread than the one that made it) the latest open one of any thread. */
#include <stdlib.h>

#include "request_link.h"

struct slot {
    uint64_t req;    /* 0: empty */
    uint32_t thread; /* UINT32_MAX: the any-thread table */
    int64_t rec;     /* the open record, or -1 once completed */
};

struct table {
    struct slot *s;
    size_t mask;
};

static struct slot *find(const struct table *t, uint64_t req, uint32_t thread)
{
    uint64_t h = req * 0x9E3779B97F4A7C15ULL ^ (uint64_t)thread * 0xC2B2AE3D27D4EB4FULL;
    size_t i = (size_t)(h >> 20) & t->mask;
    while (t->s[i].req && (t->s[i].req != req || t->s[i].thread != thread))
        i = (i + 1) & t->mask;
    return &t->s[i];
}

static int makes_request(const struct pmpi_event *e)
{
    return e->req &&
           (e->kind == PMPI_EV_SEND || e->kind == PMPI_EV_RECV || e->kind == PMPI_EV_COLL);
}

int pmpi_link_requests(const struct pmpi_event *ev, long long n, int64_t *link)
{
    for (long long i = 0; i < n; i++)
        link[i] = -1;
    size_t made = 0, cap = 16; /* tables of twice the requests made: short probes */
    for (long long i = 0; i < n; i++)
        made += makes_request(&ev[i]);
    while (cap < made * 2)
        cap <<= 1;
    /* own: (request, thread) -> record; any: request -> record */
    struct table own = {calloc(cap, sizeof(struct slot)), cap - 1};
    struct table any = {calloc(cap, sizeof(struct slot)), cap - 1};
    int ret = -1;
    if (!own.s || !any.s)
        goto out;
    for (long long i = 0; i < n; i++) {
        const struct pmpi_event *e = &ev[i];
        if (makes_request(e)) {
            struct slot *o = find(&own, e->req, e->thread), *a = find(&any, e->req, UINT32_MAX);
            *o = (struct slot){e->req, e->thread, i};
            *a = (struct slot){e->req, UINT32_MAX, i};
            continue;
        }
        if (e->kind != PMPI_EV_WAIT || !e->req)
            continue;
        struct slot *o = find(&own, e->req, e->thread), *a = find(&any, e->req, UINT32_MAX);
        int64_t m = o->req && o->rec >= 0 ? o->rec : a->req && a->rec >= 0 ? a->rec : -1;
        if (m < 0)
            continue;
        link[i] = m;
        link[m] = i;
        if (o->req && o->rec == m)
            o->rec = -1;
        if (a->req && a->rec == m)
            a->rec = -1;
        struct slot *mo = find(&own, e->req, ev[m].thread); /* made by another thread */
        if (mo->req && mo->rec == m)
            mo->rec = -1;
    }
    ret = 0;
out:
    free(own.s);
    free(any.s);
    return ret;
}
