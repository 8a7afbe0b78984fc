/* perf_context.c: the perf_event component's event-set contexts. Each context is one perf
 * group (one per PMU class when events of several PMUs are mixed, one per event when
 * multiplexed), so a single read() returns every count of the group; when the kernel
 * lets user space read the counters of the calling thread, PAPI_read takes no system
 * call at all (perf_user_read.h).
 *
 * Every perf_event_open, ioctl, mmap and read of a perf descriptor of the library is in
 * this folder. An event that has to be reopened (its group leader removed, its overflow
 * period changed) carries its count and times over in `carry`, so the values the core
 * sees never go back but at PAPI_reset. PERF_EVENT_IOC_RESET is issued only on sets that
 * are never read from user space (pe_reset): on the 6.1 arm64 kernel a reset leaves the
 * user-space read 2^32 too low until the event is reprogrammed. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_context.h"
#include "perf_read.h"
#include "perf_sampler.h"
#include "perf_user_access.h"
#include "pmu_state.h"

#define READ_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
/* A multiplexed set's events are each alone: no group format (perf_read.c). */
#define READ_FORMAT_ALONE (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The kernel refused PERF_FORMAT_LOST once (before Linux 6.0): not asked again. */
static atomic_int no_lost_format;

/* After fork the child's thread pointer equals its parent's, but the counters are the
 * parent's: a user read there would read another task's counter (arm64: trap). No
 * context of the parent is read in a child: the core makes the parent's sets unreachable
 * there at fork (es_hide_inherited) and only closes them. This component keeps no fork
 * handler of its own: writing to every context in every child of an instrumented code
 * cost it a copy-on-write fault per context. */

int pe_ctx_create(const struct papi_component *self, const struct cmp_target *t,
                  struct cmp_context **out)
{
    struct cmp_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return papi_error(PAPI_ENOMEM, "no memory for the perf_event state of an event set");
    ctx->self = self;
    ctx->target = *t;
    ctx->owner_pid = getpid();
    ctx->sampler = -1;
    ctx->counters = native_core_counters(); /* libpfm4 is loaded: an event was named */
    ctx->cpu = t->cpu;
    if (t->tid > 0)
        ctx->pid = t->tid;
    else if (t->granularity == PAPI_GRN_SYS || pe_class_of(self) == PE_UNCORE)
        ctx->pid = -1;
    else
        ctx->pid = 0;
    if (ctx->pid == -1 && ctx->cpu < 0)
        ctx->cpu = 0;
    *out = ctx;
    return PAPI_OK;
}

/* The PMU an event opens on: generic hardware and cache events on the core PMU named in
 * config bits 32-63 (a hybrid machine's cpu_atom), else on the default core PMU, which
 * also takes PERF_TYPE_RAW; any other type is its PMU. */
static uint64_t pmu_of(const struct perf_event_attr *a)
{
    if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE)
        return a->config >> PERF_PMU_TYPE_SHIFT ? a->config >> PERF_PMU_TYPE_SHIFT : PERF_TYPE_RAW;
    return a->type;
}

/* Software events may join any group; hardware events of different PMUs may not. */
static int same_class(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
    if (a->type == PERF_TYPE_SOFTWARE || b->type == PERF_TYPE_SOFTWARE)
        return 1;
    return pmu_of(a) == pmu_of(b);
}

/* A hardware counter of the calling thread, counted by itself only: the kernel's mmap
 * page then describes exactly what read() would return. Not in a multiplexed set, which
 * is never read from user space (update_user_read), nor in one that another thread added
 * to: a page would be mapped for nothing, and a mapped page of arm64 user access costs
 * the kernel at every enable and disable (it clears the unused counters). */
/* The calling thread's own counters: opened for it (pid 0), or attached to its own id
 * (PAPI_attach(set, gettid()), as the OMPT tool's sets are, which must not take the
 * program's one running set of the thread): the kernel counts the same task either way,
 * so the event's page allows the user read in this thread (the reader, perf_read.c). */
static int own_thread(const struct cmp_context *ctx)
{
    return ctx->pid == 0 || (ctx->pid > 0 && ctx->pid == (pid_t)syscall(SYS_gettid));
}

static int user_readable(const struct cmp_context *ctx, const struct perf_event_attr *a)
{
    return pe_user_read_enabled() && own_thread(ctx) && ctx->cpu < 0 && !ctx->target.inherit &&
           !ctx->target.multiplex && !ctx->other_adder && pe_class_of(ctx->self) == PE_CORE &&
           a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
           a->type != PERF_TYPE_BREAKPOINT;
}

/* Another thread added an event: no user read of this set again (update_user_read), so
 * the pages of the counting events go (a sampling event's ring stays: its samples). */
static void drop_pages(struct cmp_context *ctx, int n)
{
    for (int i = 0; i < n; i++) {
        struct pe_event *e = &ctx->ev[i];
        if (e->page && !e->ring.meta && ctx->owner_pid == getpid())
            munmap((void *)e->page, (size_t)sysconf(_SC_PAGESIZE));
        e->page = NULL;
    }
}

static void update_user_read(struct cmp_context *ctx)
{
    /* Not for a multiplexed set: most of its events are off a counter at any time, where
     * the page allows no user read, and trying costs more than it saves. */
    int all = ctx->n > 0 && !ctx->other_adder && !ctx->target.multiplex;
    int last_leader_group = -1;
    for (int i = 0; i < ctx->n && all; i++) {
        struct pe_event *e = &ctx->ev[i];
        all = e->page != NULL;
        if (ctx->grp[e->group].leader == i) {
            e->time_from = -1;
            last_leader_group = e->group;
        } else {
            /* A member takes the times of the last leader read (perf_read.c). */
            e->time_from = e->group;
            all = all && e->group == last_leader_group;
        }
    }
    ctx->user_read = all;
    ctx->frozen = 0; /* descriptors opened or closed: the pages are others now */
    ctx->resettable = 0;
    int one = ctx->ngrp == 1 && ctx->n > 0 && ctx->grp[0].leader == 0 &&
              pe_group_stride(&ctx->ev[0]) == 1 &&
              (ctx->ev[0].attr.read_format & PERF_FORMAT_GROUP);
    for (int i = 0; i < ctx->n && one; i++)
        one = ctx->ev[i].pos == i;
    ctx->one_group = one;
}

static int open_error(const struct cmp_context *ctx, int g, const struct perf_event_attr *attr,
                      int group_fd)
{
    int err = errno;
    if (group_fd >= 0 && (err == EINVAL || err == ENOSPC)) {
        /* Does it open alone? Then it is the group that does not fit. */
        struct perf_event_attr alone = *attr;
        alone.disabled = 1;
        int t = perf_syscall_open(&alone, ctx->pid, ctx->cpu, -1, PERF_FLAG_FD_CLOEXEC);
        if (t >= 0) {
            close(t);
            return papi_error(PAPI_ECNFLCT,
                              "the event cannot be counted together with the %d other events "
                              "of the set (the PMU has not enough counters)",
                              ctx->grp[g].nmembers);
        }
        err = errno;
    }
    int code = papi_errno_to_papi(err);
    if (err == EACCES || err == EPERM || err == ENOSYS)
        return papi_error(code, "perf_event_open refused: %s. %s", strerror(err), g_pmu.reason);
    if (err == ENOENT || err == EOPNOTSUPP)
        return papi_error(PAPI_ENOEVNT,
                          "perf_event_open: the kernel has no such event here (%s)%s%s",
                          strerror(err), g_pmu.reason[0] ? ". " : "", g_pmu.reason);
    if (err == ESRCH)
        return papi_error(PAPI_EINVAL, "perf_event_open: no process or thread %d", (int)ctx->pid);
    return papi_error(code, "perf_event_open failed: %s", strerror(err));
}

/* The first page of the event (user reads), or the whole ring of a sampling event, whose
 * first page is the same. */
static void map_page(struct cmp_context *ctx, struct pe_event *e)
{
    e->page = NULL;
    if (e->sampling) {
        if (pe_ring_map(&e->ring, e->fd) != PAPI_OK)
            return; /* set_sampling finds no ring: the signals then */
        pe_sampler_watch(ctx, e->fd);
        if (user_readable(ctx, &e->attr))
            e->page = e->ring.meta;
        return;
    }
    if (!user_readable(ctx, &e->attr))
        return;
    void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, e->fd, 0);
    if (p != MAP_FAILED)
        e->page = p;
}

/* A forked child's copy of its parent's context has no mappings (the kernel does not copy
 * them into a child): what lies at those addresses now is the child's own. */
static void close_event(const struct cmp_context *ctx, struct pe_event *e)
{
    int mine = ctx->owner_pid == getpid();
    if (e->ring.meta) {
        pe_sampler_unwatch(ctx, e->fd);
        if (mine)
            pe_ring_unmap(&e->ring);
        e->ring.meta = NULL;
    } else if (e->page && mine) {
        munmap((void *)e->page, (size_t)sysconf(_SC_PAGESIZE));
    }
    e->page = NULL;
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
}

/* Open ev[i] (attr encoded) into a fitting group or as a new leader. */
static int open_event(struct cmp_context *ctx, int i)
{
    struct pe_event *e = &ctx->ev[i];
    int g = -1;
    if (!ctx->target.multiplex)
        for (int k = 0; k < ctx->ngrp && g < 0; k++)
            if (same_class(&ctx->ev[ctx->grp[k].leader].attr, &e->attr))
                g = k;
    /* A software leader cannot take a hardware member on every kernel; put hardware
     * events first by opening a new group when the current leader is software. */
    if (g >= 0 && ctx->ev[ctx->grp[g].leader].attr.type == PERF_TYPE_SOFTWARE &&
        e->attr.type != PERF_TYPE_SOFTWARE)
        g = -1;
    e->attr.read_format = ctx->target.multiplex ? READ_FORMAT_ALONE : READ_FORMAT;
    /* A ring's lost samples, all of them: PERF_RECORD_LOST is only written once the
     * kernel finds room again, so the last ones before PAPI_stop come from read(). */
    if (e->sampling && !atomic_load_explicit(&no_lost_format, memory_order_relaxed))
        e->attr.read_format |= PERF_FORMAT_LOST;
    e->lost_told = 0;
    e->attr.inherit = ctx->target.inherit ? 1 : 0;
    /* Overflow: the count keeps running as a 64-bit total, the kernel only signals
     * every period events, so the group read stays exact. */
    e->attr.freq = (e->period & CMP_PERIOD_HZ) != 0; /* sample_freq shares the field */
    e->attr.sample_period = e->period & ~CMP_PERIOD_HZ;
    if (e->sampling)
        pe_ring_attr(&e->attr);
    else
        pe_ring_attr_clear(&e->attr);
    int group_fd = -1;
    if (g >= 0) {
        e->attr.disabled = 0; /* follows the leader; disabled members of an oversized
                                 group would never count instead of failing to open */
        group_fd = ctx->ev[ctx->grp[g].leader].fd;
    } else {
        e->attr.disabled = 1;
    }
    if (user_readable(ctx, &e->attr))
        pe_user_access_attr(&e->attr);
    int fd = perf_syscall_open(&e->attr, ctx->pid, ctx->cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && errno == EINVAL && (e->attr.read_format & PERF_FORMAT_LOST)) {
        atomic_store(&no_lost_format, 1); /* a kernel before 6.0: the records alone */
        e->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
        fd = perf_syscall_open(&e->attr, ctx->pid, ctx->cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0)
        return open_error(ctx, g, &e->attr, group_fd);
    e->fd = fd;
    if (g < 0) {
        g = ctx->ngrp++;
        ctx->grp[g].leader = i;
        ctx->grp[g].nmembers = 0;
    }
    e->group = g;
    e->pos = ctx->grp[g].nmembers++;
    map_page(ctx, e);
    return PAPI_OK;
}

/* Close every descriptor, then open them all again with the counts carried over. */
static int reopen_all(struct cmp_context *ctx)
{
    struct cmp_count now[PE_MAX_EVENTS];
    int have = ctx->n > 0 && ctx->ngrp > 0 && pe_read_groups(ctx, now) == PAPI_OK;
    for (int i = ctx->n - 1; i >= 0; i--)
        close_event(ctx, &ctx->ev[i]);
    ctx->ngrp = 0;
    for (int i = 0; i < ctx->n; i++) {
        if (have) {
            ctx->ev[i].carry = now[i];
            ctx->carried = 1;
        }
        int ret = open_event(ctx, i);
        if (ret != PAPI_OK) {
            for (int j = i - 1; j >= 0; j--)
                close_event(ctx, &ctx->ev[j]);
            ctx->ngrp = 0;
            ctx->user_read = 0;
            return ret;
        }
    }
    update_user_read(ctx);
    return PAPI_OK;
}

void pe_ctx_destroy(struct cmp_context *ctx)
{
    if (!ctx)
        return;
    for (int i = 0; i < ctx->n; i++)
        if (ctx->ev[i].ring.meta) /* out of the sampler's epoll while its place is known */
            pe_sampler_unwatch(ctx, ctx->ev[i].fd);
    pe_sampler_detach(ctx); /* the sampler thread out of it before its rings go */
    for (int i = ctx->n - 1; i >= 0; i--)
        close_event(ctx, &ctx->ev[i]);
    free(ctx->ev);
    free(ctx->grp);
    free(ctx);
}

/* Room for one more event and group (doubling from 2). */
static int grow(struct cmp_context *ctx)
{
    int cap = ctx->cap ? 2 * ctx->cap : 2;
    struct pe_event *ev = realloc(ctx->ev, (size_t)cap * sizeof *ev);
    if (!ev)
        return papi_error(PAPI_ENOMEM, "no memory for %d perf events", cap);
    ctx->ev = ev;
    struct pe_group *grp = realloc(ctx->grp, (size_t)cap * sizeof *grp);
    if (!grp)
        return papi_error(PAPI_ENOMEM, "no memory for %d perf groups", cap);
    ctx->grp = grp;
    ctx->cap = cap;
    return PAPI_OK;
}

int pe_add(struct cmp_context *ctx, int local, int *slot)
{
    if (ctx->n >= PE_MAX_EVENTS)
        return papi_error(PAPI_ECOUNT, "an event set holds at most %d perf events", PE_MAX_EVENTS);
    if (ctx->n == ctx->cap && grow(ctx) != PAPI_OK)
        return PAPI_ENOMEM;
    struct pe_event *e = &ctx->ev[ctx->n];
    memset(e, 0, sizeof *e);
    e->local = local;
    e->fd = -1;
    int ret = native_encode(local, ctx->target.domain, &e->attr);
    if (ret == PAPI_OK)
        ret = open_event(ctx, ctx->n);
    if (ret != PAPI_OK)
        return ret;
    if (ctx->n == 0) {
        ctx->reader = papi_thread_pointer();
    } else if (papi_thread_pointer() != ctx->reader && !ctx->other_adder) {
        ctx->other_adder = 1;        /* that event counts the thread that added it */
        drop_pages(ctx, ctx->n + 1); /* the one just opened too */
    }
    *slot = ctx->n++;
    update_user_read(ctx);
    return PAPI_OK;
}

int pe_remove(struct cmp_context *ctx, int slot)
{
    if (slot < 0 || slot >= ctx->n)
        return papi_error(PAPI_EBUG, "perf_event: no event in slot %d", slot);
    struct pe_event *e = &ctx->ev[slot];
    int g = e->group;
    int leader = ctx->grp[g].leader == slot;
    if (leader && ctx->grp[g].nmembers > 1) {
        /* Closing a leader dissolves its group in the kernel: reopen what is left. */
        struct cmp_count now[PE_MAX_EVENTS];
        int ret = pe_read_groups(ctx, now);
        if (ret != PAPI_OK)
            return ret;
        for (int i = 0; i < ctx->n; i++)
            ctx->ev[i].carry = now[i];
        ctx->carried = 1;
        for (int i = ctx->n - 1; i >= 0; i--)
            close_event(ctx, &ctx->ev[i]);
        memmove(e, e + 1, (size_t)(ctx->n - slot - 1) * sizeof *e);
        ctx->n--;
        return reopen_all(ctx);
    }
    close_event(ctx, e);
    if (leader) { /* a group of one: drop the group */
        for (int k = g; k < ctx->ngrp - 1; k++)
            ctx->grp[k] = ctx->grp[k + 1];
        ctx->ngrp--;
        for (int i = 0; i < ctx->n; i++)
            if (ctx->ev[i].group > g)
                ctx->ev[i].group--;
    } else {
        for (int i = 0; i < ctx->n; i++)
            if (ctx->ev[i].group == g && ctx->ev[i].pos > e->pos)
                ctx->ev[i].pos--;
        ctx->grp[g].nmembers--;
    }
    memmove(e, e + 1, (size_t)(ctx->n - slot - 1) * sizeof *e);
    ctx->n--;
    for (int k = 0; k < ctx->ngrp; k++)
        if (ctx->grp[k].leader > slot)
            ctx->grp[k].leader--;
    update_user_read(ctx);
    return PAPI_OK;
}

static int any_sampling(const struct cmp_context *ctx)
{
    for (int i = 0; i < ctx->n; i++)
        if (ctx->ev[i].sampling)
            return 1;
    return 0;
}

/* Sampling slots whose samples have somewhere to go (arm_sampling). */
static int armed_rings(const struct cmp_context *ctx)
{
    if (ctx->sampler < 0)
        return 0;
    for (int i = 0; i < ctx->n; i++)
        if (ctx->ev[i].sampling && ctx->ev[i].ring.meta && ctx->ev[i].fn)
            return 1;
    return 0;
}

/* While a group's leader is disabled, the arm_pmu driver (and others) checks a new
 * member against the group without the leader, so a group one event too big opens and
 * then never counts. A non-multiplexed hardware group whose time_enabled grows at enable
 * while its time_running does not cannot be scheduled: say so instead of counting zeros.
 * Only a group of at least as many hardware events as the PMU has counters can be too
 * big: smaller groups skip the check and its two read()s (start + stop is then one
 * enable, one disable and the read that freezes the values). A set either always checks
 * or never, so the instructions PAPI_start counts after its enable stay the same from one
 * start to the next. */
static int needs_check(const struct cmp_context *ctx)
{
    if (ctx->target.multiplex)
        return 0;
    for (int g = 0; g < ctx->ngrp; g++)
        if (ctx->ev[ctx->grp[g].leader].attr.type != PERF_TYPE_SOFTWARE &&
            (ctx->counters <= 0 || ctx->grp[g].nmembers >= ctx->counters))
            return 1;
    return 0;
}

/* A group that gained enabled time but no running time was not scheduled: too big for
 * the PMU, unless it belongs to a core type of a hybrid machine (cpu_core, cpu_atom) that
 * the thread does not run on, where not running is what it must do. */
int pe_group_unscheduled(const struct cmp_context *ctx, int g, const struct cmp_count *before,
                         const struct cmp_count *now, int cpu)
{
    if (!(now->time_enabled > before->time_enabled && now->time_running == before->time_running))
        return 0;
    return !native_core_type_elsewhere(&ctx->ev[ctx->grp[g].leader].attr, cpu);
}

static int check_scheduled(struct cmp_context *ctx, const struct cmp_count *before)
{
    uint64_t buf[3 + 2 * PE_MAX_EVENTS];
    int cpu = -2; /* the counted thread's CPU, found when a group did not run */
    for (int g = 0; g < ctx->ngrp; g++) {
        const struct pe_group *grp = &ctx->grp[g];
        const struct pe_event *lead = &ctx->ev[grp->leader];
        if (lead->attr.type == PERF_TYPE_SOFTWARE)
            continue;
        size_t want =
            (3 + (size_t)grp->nmembers * (size_t)pe_group_stride(lead)) * sizeof(uint64_t);
        if (read(lead->fd, buf, want) != (ssize_t)want)
            continue; /* the next read reports read errors */
        const struct cmp_count *b = &before[grp->leader];
        struct cmp_count now = {0, lead->carry.time_enabled + buf[1],
                                lead->carry.time_running + buf[2]};
        if (now.time_running == b->time_running && cpu == -2)
            cpu = native_target_cpu(ctx->pid, ctx->cpu);
        if (pe_group_unscheduled(ctx, g, b, &now, cpu))
            return papi_error(
                PAPI_ECNFLCT,
                "the %d hardware events of the event set cannot be counted together "
                "(the PMU has not enough counters): remove some or enable multiplexing",
                grp->nmembers);
    }
    return PAPI_OK;
}

static void disable_all(struct cmp_context *ctx)
{
    for (int g = 0; g < ctx->ngrp; g++)
        ioctl(ctx->ev[ctx->grp[g].leader].fd, PERF_EVENT_IOC_DISABLE, 0);
}

int pe_start(struct cmp_context *ctx)
{
    struct cmp_count before[PE_MAX_EVENTS];
    ctx->frozen = 0;
    int check = needs_check(ctx);
    if (check) {
        int ret = pe_read_groups(ctx, before);
        if (ret != PAPI_OK)
            return ret;
    }
    /* Set before enabling, so the counted part of PAPI_start is the same either way. A
     * set that samples into rings reads through read_slots_slow, which empties them. */
    int rings = armed_rings(ctx);
    ctx->fast_reader = ctx->user_read && !rings ? ctx->reader : 0;
    ctx->fast1 = ctx->n == 1 && !ctx->carried ? ctx->fast_reader : 0;
    ctx->page1 = ctx->ev[0].page;
    if (rings)
        pe_sampler_publish(ctx);
    for (int g = 0; g < ctx->ngrp; g++) {
        long r = pe_sys_ioctl(ctx->ev[ctx->grp[g].leader].fd, PERF_EVENT_IOC_ENABLE, 0);
        if (__builtin_expect(r != 0, 0)) {
            int err = (int)-r;
            ctx->fast_reader = ctx->fast1 = 0;
            disable_all(ctx);
            if (rings)
                pe_sampler_finish(ctx);
            return papi_error(PAPI_ESYS, "cannot enable the counters: %s", strerror(err));
        }
    }
    if (check) {
        int ret = check_scheduled(ctx, before);
        if (ret != PAPI_OK) {
            ctx->fast_reader = ctx->fast1 = 0;
            disable_all(ctx);
            if (rings)
                pe_sampler_finish(ctx);
            return ret;
        }
    }
    ctx->running = 1;
    ctx->resettable = !ctx->user_read && !ctx->target.multiplex;
    if (ctx->ngrp == 1) {
        /* A group of one event is reset alone: the same, without the kernel's walk over
         * the group. */
        ctx->reset_fd = ctx->ev[ctx->grp[0].leader].fd;
        ctx->reset_flag = ctx->grp[0].nmembers > 1 ? PERF_IOC_FLAG_GROUP : 0;
    }
    return PAPI_OK;
}

/* A set read from user space by the thread that stops it keeps that thread as `frozen`:
 * the read that follows (PAPI_stop's) takes the stopped counts from the pages, where the
 * disable left them (perf_read.c), instead of a read() per group. */
int pe_stop(struct cmp_context *ctx)
{
    uintptr_t reader = ctx->fast_reader;
    ctx->running = ctx->resettable = 0;
    ctx->fast_reader = ctx->fast1 = 0;
    int ret = PAPI_OK;
    for (int g = 0; g < ctx->ngrp && ret == PAPI_OK; g++) {
        long r = pe_sys_ioctl(ctx->ev[ctx->grp[g].leader].fd, PERF_EVENT_IOC_DISABLE, 0);
        if (__builtin_expect(r != 0, 0))
            ret = papi_error(PAPI_ESYS, "cannot disable the counters: %s", strerror((int)-r));
    }
    ctx->frozen = ret == PAPI_OK ? reader : 0;
    if (ctx->sampling_on)
        pe_sampler_finish(ctx); /* the last samples, none after this */
    return ret;
}

/* PAPI_reset: PERF_EVENT_IOC_RESET on each group, cheaper than the read() that would
 * otherwise make the baselines, but only where user space never reads these counters:
 * after a reset the 6.1 arm64 kernel's page leaves a user read 2^32 too low until the
 * event is reprogrammed (see the top of this file). The carried counts go with it. */
static __attribute__((noinline, cold)) int reset_failed(long r)
{
    return papi_error(PAPI_ESYS, "cannot reset the counters: %s", strerror((int)-r));
}

int pe_reset(struct cmp_context *ctx)
{
    if (!ctx->resettable) /* stopped, read from user space, or multiplexed */
        return PAPI_ENOSUPP;
    if (__builtin_expect(ctx->ngrp == 1, 1)) {
        long r = pe_sys_ioctl(ctx->reset_fd, PERF_EVENT_IOC_RESET, ctx->reset_flag);
        if (__builtin_expect(r != 0, 0))
            return reset_failed(r);
    } else {
        for (int g = 0; g < ctx->ngrp; g++) {
            const struct pe_group *grp = &ctx->grp[g];
            long r = pe_sys_ioctl(ctx->ev[grp->leader].fd, PERF_EVENT_IOC_RESET,
                                  grp->nmembers > 1 ? PERF_IOC_FLAG_GROUP : 0);
            if (__builtin_expect(r != 0, 0))
                return reset_failed(r);
        }
    }
    if (ctx->carried)
        for (int i = 0; i < ctx->n; i++)
            ctx->ev[i].carry.value = 0;
    return PAPI_OK;
}

/* The attribute of an open event cannot switch between counting and sampling: reopen
 * (every event: a group is opened whole). On failure the slot is left as it was. */
static int set_period(struct cmp_context *ctx, int slot, uint64_t period, int sampling)
{
    if (slot < 0 || slot >= ctx->n)
        return papi_error(PAPI_EBUG, "perf_event: no event in slot %d", slot);
    struct pe_event *e = &ctx->ev[slot];
    uint64_t old = e->period;
    int old_sampling = e->sampling;
    if (old == period && old_sampling == sampling)
        return PAPI_OK;
    e->period = period;
    e->sampling = sampling;
    e->fn = NULL;
    int ret = reopen_all(ctx);
    if (ret == PAPI_OK && sampling && !e->ring.meta)
        ret = PAPI_ENOSUPP; /* no ring from this kernel (locked-memory limit) */
    if (ret != PAPI_OK) {
        e->period = old;
        e->sampling = old_sampling;
        reopen_all(ctx);
    }
    if (!any_sampling(ctx))
        pe_sampler_detach(ctx);
    return ret;
}

int pe_set_overflow(struct cmp_context *ctx, int slot, uint64_t period)
{
    return set_period(ctx, slot, period, 0);
}

/* A ring when the kernel can fill one for this event and the library would see the same
 * samples as by signal: a hardware event of the user domain (a signal is only delivered
 * in user space, at the user address), not inherited (children's samples would go to
 * rings of their own), not multiplexed (its events are read alone, in another layout). */
int pe_set_sampling(struct cmp_context *ctx, int slot, uint64_t period)
{
    if (slot < 0 || slot >= ctx->n)
        return papi_error(PAPI_EBUG, "perf_event: no event in slot %d", slot);
    const struct perf_event_attr *a = &ctx->ev[slot].attr;
    if (!period)
        return set_period(ctx, slot, 0, 0);
    if (a->type == PERF_TYPE_SOFTWARE || a->type == PERF_TYPE_TRACEPOINT ||
        a->type == PERF_TYPE_BREAKPOINT || !a->exclude_kernel || ctx->target.inherit ||
        ctx->target.multiplex)
        return PAPI_ENOSUPP;
    if (pe_sampler_attach(ctx) != PAPI_OK)
        return PAPI_ENOSUPP;
    return set_period(ctx, slot, period, 1);
}

int pe_arm_sampling(struct cmp_context *ctx, int slot, cmp_sample_fn fn, void *arg)
{
    if (slot < 0 || slot >= ctx->n || !ctx->ev[slot].sampling || !ctx->ev[slot].ring.meta)
        return papi_error(PAPI_EBUG, "perf_event: slot %d does not sample into a ring", slot);
    ctx->ev[slot].fn = fn;
    ctx->ev[slot].arg = arg;
    return PAPI_OK;
}

int pe_arm_overflow(struct cmp_context *ctx, int slot, int signo, pid_t tid, int *source)
{
    if (slot < 0 || slot >= ctx->n || !ctx->ev[slot].period)
        return papi_error(PAPI_EBUG, "perf_event: slot %d has no overflow period", slot);
    const struct pe_event *e = &ctx->ev[slot];
    struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = tid};
    uint64_t period = e->period;
    int fl;
    /* A frequency is not restarted: the kernel turns a software clock's into a period at
     * open and would read the ioctl's value as nanoseconds. */
    if (fcntl(e->fd, F_SETOWN_EX, &owner) != 0 || fcntl(e->fd, F_SETSIG, signo) != 0 ||
        (fl = fcntl(e->fd, F_GETFL)) < 0 || fcntl(e->fd, F_SETFL, fl | O_ASYNC) != 0 ||
        (!(period & CMP_PERIOD_HZ) && ioctl(e->fd, PERF_EVENT_IOC_PERIOD, &period) != 0))
        return papi_error(PAPI_ESYS,
                          "cannot route the overflow signals of the event to thread "
                          "%d: %s",
                          (int)tid, strerror(errno));
    *source = e->fd;
    return PAPI_OK;
}

static int is_clock(const struct perf_event_attr *a)
{
    return a->type == PERF_TYPE_SOFTWARE &&
           (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

int pe_counts_ns(const struct cmp_context *ctx, int slot)
{
    return slot >= 0 && slot < ctx->n && is_clock(&ctx->ev[slot].attr);
}

/* PERF_EVENT_IOC_PERIOD on the running descriptor: the kernel restarts the slot's period.
 * A software clock's frequency became a period in nanoseconds at open (the kernel reads
 * the ioctl's value so); any other frequency stays a frequency. */
int pe_retune_overflow(const struct cmp_context *ctx, int slot, uint64_t period)
{
    if (slot < 0 || slot >= ctx->n || ctx->ev[slot].fd < 0 || ctx->ev[slot].sampling)
        return PAPI_EINVAL;
    const struct perf_event_attr *a = &ctx->ev[slot].attr;
    uint64_t v = period & ~CMP_PERIOD_HZ;
    if ((period & CMP_PERIOD_HZ) && is_clock(a))
        v = v ? 1000000000ULL / v : 0;
    if (!v)
        return PAPI_EINVAL;
    return pe_sys_ioctl(ctx->ev[slot].fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&v) == 0
               ? PAPI_OK
               : PAPI_ESYS;
}
