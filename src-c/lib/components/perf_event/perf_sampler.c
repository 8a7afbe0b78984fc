/* perf_sampler.c: the thread that empties the sample rings of running event sets when the
 * kernel wakes it (a quarter of a ring written: perf_ring.h), and the table by which it
 * finds their contexts.
 *
 * One thread per process, started by the first set that samples into a ring, waiting in
 * epoll_wait on every ring's descriptor (edge-triggered: one report per wakeup, and an
 * ended event's hang-up is reported once, not forever). The epoll entry carries the
 * context's place in the table, not a pointer, so a context that is gone cannot be
 * reached through a report that was already on its way: the thread empties a context
 * only while PAPI_start..PAPI_stop has published it there, and only holding the place's
 * busy flag, which the owner's reads try (PAPI_read: skip when the thread is at it) and
 * PAPI_stop waits for (then it empties the rings one last time and takes the context
 * away). The flag is the only thing shared with the thread, and only per context: no
 * lock of the library is taken by it or for it on any counting path.
 *
 * Fork: the child has no such thread and a copy of the table and of the epoll descriptor
 * (the same epoll instance as the parent's): a context records the process that gave it
 * its place, and a child only forgets its parent's, never changes the shared instance. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "pe_types.h"
#include "perf_ring.h"
#include "perf_sampler.h"

#define PE_SAMPLERS 256 /* contexts sampling into rings at once */
#define STOP_TOKEN  UINT32_MAX

struct sampler_place {
    _Atomic(struct cmp_context *) ctx; /* published while the context runs */
    atomic_int busy;                   /* someone is emptying its rings */
    int used;                          /* given to a context (library lock) */
};
static struct sampler_place places[PE_SAMPLERS];

/* The thread of this process (library lock). */
static struct {
    pid_t pid; /* the process that started it; 0 none */
    int epfd, wakefd;
    pthread_t thread;
} self = {0, -1, -1, 0};

static void drain_ctx(const struct cmp_context *ctx)
{
    for (int i = 0; i < ctx->n; i++) {
        struct pe_event *e = &ctx->ev[i];
        if (e->sampling && e->ring.meta && e->fn)
            e->lost_told += pe_ring_drain(&e->ring, e->fn, e->arg, i);
    }
}

/* Stopped: the samples lost since the last PERF_RECORD_LOST (the kernel writes one only
 * when it finds room again), from the count read() gives (PERF_FORMAT_LOST). */
static void tell_lost(const struct cmp_context *ctx)
{
    uint64_t buf[3 + 2 * PE_MAX_EVENTS];
    for (int i = 0; i < ctx->n; i++) {
        struct pe_event *e = &ctx->ev[i];
        if (!e->sampling || !e->fn || !(e->attr.read_format & PERF_FORMAT_LOST))
            continue;
        /* Its own descriptor, its own layout: the group's counts, each with its lost. */
        size_t want = (3 + 2 * (size_t)ctx->grp[e->group].nmembers) * sizeof(uint64_t);
        if (read(e->fd, buf, want) != (ssize_t)want)
            continue;
        uint64_t lost = buf[3 + 2 * e->pos + 1];
        if (lost > e->lost_told) {
            e->fn(e->arg, i, NULL, 0, lost - e->lost_told);
            e->lost_told = lost;
        }
    }
}

static void drain_place(struct sampler_place *p)
{
    const struct cmp_context *ctx = atomic_load_explicit(&p->ctx, memory_order_acquire);
    if (ctx)
        drain_ctx(ctx);
}

static void *sampler_main(void *unused)
{
    (void)unused;
    struct epoll_event evs[16];
    for (;;) {
        int n = epoll_wait(self.epfd, evs, 16, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return NULL;
        for (int i = 0; i < n; i++) {
            uint32_t at = evs[i].data.u32;
            if (at == STOP_TOKEN)
                return NULL;
            if (at >= PE_SAMPLERS)
                continue;
            struct sampler_place *p = &places[at];
            if (atomic_exchange_explicit(&p->busy, 1, memory_order_acquire))
                continue; /* the owner is emptying it now */
            drain_place(p);
            atomic_store_explicit(&p->busy, 0, memory_order_release);
        }
    }
}

static void close_fds(void)
{
    if (self.epfd >= 0)
        close(self.epfd);
    if (self.wakefd >= 0)
        close(self.wakefd);
    self.epfd = self.wakefd = -1;
    self.pid = 0;
}

/* Shutdown (after the sets, so no context is published any more): end the thread. A
 * forked child only closes its copies of the parent's descriptors. */
static void sampler_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN)
        return;
    papi_library_lock();
    if (self.pid == getpid()) {
        uint64_t one = 1;
        if (write(self.wakefd, &one, sizeof one) == (ssize_t)sizeof one)
            pthread_join(self.thread, NULL);
    }
    close_fds();
    papi_library_unlock();
}

/* The thread of this process, started if need be (library lock held). */
static int start_thread(void)
{
    pid_t me = getpid();
    if (self.pid == me)
        return PAPI_OK;
    close_fds(); /* a forked child's copies, or nothing */
    self.epfd = epoll_create1(EPOLL_CLOEXEC);
    self.wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = STOP_TOKEN};
    if (self.epfd < 0 || self.wakefd < 0 ||
        epoll_ctl(self.epfd, EPOLL_CTL_ADD, self.wakefd, &ev) != 0) {
        close_fds();
        return PAPI_ENOSUPP;
    }
    /* No signal of the program's, nor the overflow signal, is ever delivered to it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&self.thread, NULL, sampler_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        close_fds();
        return PAPI_ENOSUPP;
    }
    pthread_setname_np(self.thread, "papi-sampler");
    self.pid = me;
    papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, sampler_lifecycle);
    return PAPI_OK;
}

int pe_sampler_attach(struct cmp_context *ctx)
{
    if (ctx->sampler >= 0 && ctx->sampler_pid == getpid())
        return PAPI_OK;
    int ret = PAPI_ENOSUPP;
    papi_library_lock();
    if (start_thread() == PAPI_OK) {
        for (int i = 0; i < PE_SAMPLERS; i++) {
            struct sampler_place *p = &places[i];
            if (p->used)
                continue;
            p->used = 1;
            atomic_store(&p->ctx, NULL);
            atomic_store(&p->busy, 0);
            ctx->sampler = i;
            ctx->sampler_pid = self.pid;
            ret = PAPI_OK;
            break;
        }
    }
    papi_library_unlock();
    return ret;
}

void pe_sampler_detach(struct cmp_context *ctx)
{
    if (ctx->sampler < 0)
        return;
    papi_library_lock();
    if (ctx->sampler_pid == self.pid && self.pid == getpid()) {
        struct sampler_place *p = &places[ctx->sampler];
        while (atomic_exchange_explicit(&p->busy, 1, memory_order_acquire))
            sched_yield();
        atomic_store(&p->ctx, NULL);
        atomic_store_explicit(&p->busy, 0, memory_order_release);
        p->used = 0;
    }
    papi_library_unlock();
    ctx->sampler = -1;
    ctx->sampling_on = 0;
}

void pe_sampler_watch(const struct cmp_context *ctx, int fd)
{
    if (ctx->sampler < 0 || ctx->sampler_pid != getpid())
        return;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u32 = (uint32_t)ctx->sampler};
    epoll_ctl(self.epfd, EPOLL_CTL_ADD, fd, &ev);
}

void pe_sampler_unwatch(const struct cmp_context *ctx, int fd)
{
    /* A child never touches the parent's epoll instance (it is the same one). */
    if (ctx->sampler >= 0 && ctx->sampler_pid == self.pid && self.pid == getpid())
        epoll_ctl(self.epfd, EPOLL_CTL_DEL, fd, NULL);
}

void pe_sampler_publish(struct cmp_context *ctx)
{
    atomic_store_explicit(&places[ctx->sampler].ctx, ctx, memory_order_release);
    ctx->sampling_on = 1;
}

void pe_sampler_finish(struct cmp_context *ctx)
{
    struct sampler_place *p = &places[ctx->sampler];
    while (atomic_exchange_explicit(&p->busy, 1, memory_order_acquire))
        sched_yield(); /* the thread is emptying it: it is quick */
    drain_ctx(ctx);
    tell_lost(ctx);
    atomic_store_explicit(&p->ctx, NULL, memory_order_relaxed);
    atomic_store_explicit(&p->busy, 0, memory_order_release);
    ctx->sampling_on = 0;
}

void pe_sampler_drain_now(const struct cmp_context *ctx)
{
    struct sampler_place *p = &places[ctx->sampler];
    if (atomic_exchange_explicit(&p->busy, 1, memory_order_acquire))
        return;
    drain_ctx(ctx);
    atomic_store_explicit(&p->busy, 0, memory_order_release);
}
