/* perf_read.c: reading an event set's counters, the hot path of PAPI_read and PAPI_accum.
 *
 * With user access (x86 rdpmc, arm64 kernel.perf_user_access=1) the calling thread's own
 * counters are read from user space (perf_user_read.h), no system call: the counts of
 * every event, then, when wanted, the times of each group's leader (converted to now from
 * the timestamp counter) for its members too, as read() reports them. Otherwise one
 * read() per perf group (PERF_FORMAT_GROUP), or per event when the set is multiplexed
 * (each event alone, no group format: PAPI 7 does the same, and the kernel's group read
 * costs several hundred instructions more per event).
 *
 * pe_read_values is PAPI_read whole for a plain set (component.h): the reads, the carry
 * of reopened events and the subtraction of the baselines in one pass, and without the
 * time conversion unless asked (CMP_READ_TIMES): a set that is not multiplexed needs
 * only its counts. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "pe_types.h"
#include "perf_read.h"
#include "perf_sampler.h"
#include "perf_user_read.h"

/* pmc_width with time_shift above it, as one 32-bit load: perf_user_signed takes the
 * width modulo 64, and time_shift << 16 is a multiple of 64 (no zero-extension of a
 * 16-bit load on the hot path). */
static inline uint32_t width_word(const struct perf_event_mmap_page *pc)
{
    _Static_assert(offsetof(struct perf_event_mmap_page, time_shift) ==
                       offsetof(struct perf_event_mmap_page, pmc_width) + 2,
                   "pmc_width and time_shift are adjacent");
    typedef uint32_t __attribute__((may_alias)) word;
    return *(const volatile word *)(const void *)&pc->pmc_width;
}

/* The count alone of a group member whose group leader's times were just read: the
 * seqlock of linux/perf_event.h without the time conversion, with the counter and its
 * sign taken the short way (perf_user_counter, perf_user_signed). */
static inline __attribute__((always_inline)) int user_count(const struct perf_event_mmap_page *pc,
                                                            uint64_t *count)
{
#if PERF_USER_READ_ARCH
    uint32_t seq;
    uint64_t c, raw;
    do {
        seq = PERF_USER_ONCE(pc->lock);
        PERF_USER_BARRIER();
        uint64_t caps = PERF_USER_ONCE(pc->capabilities);
        if (!(caps & PERF_USER_CAP_RDPMC) || !perf_user_counter(PERF_USER_ONCE(pc->index), &raw))
            return 0;
        c = (uint64_t)PERF_USER_ONCE(pc->offset) + (uint64_t)perf_user_signed(raw, width_word(pc));
        PERF_USER_BARRIER();
    } while (PERF_USER_ONCE(pc->lock) != seq);
    *count = c;
    return 1;
#else
    (void)pc, (void)count;
    return 0;
#endif
}

static __attribute__((noinline, cold)) int read_failed(long got, size_t want)
{
    if (got < 0)
        return papi_error(PAPI_ESYS, "reading the counters failed: %s", strerror((int)-got));
    return papi_error(PAPI_EBUG, "short counter read (%ld of %zu bytes)", got, want);
}

/* A multiplexed set: every event alone (no group format), so read() gives value,
 * time_enabled, time_running, the layout of struct cmp_count, straight into out[i]. */
static __attribute__((noinline)) int read_alone(const struct cmp_context *ctx,
                                                struct cmp_count *out)
{
    _Static_assert(sizeof(struct cmp_count) == 3 * sizeof(uint64_t), "cmp_count");
    const struct pe_event *e = ctx->ev, *end = e + ctx->n;
    for (struct cmp_count *o = out; e < end; e++, o++) {
        long got = pe_sys_read(e->fd, o, sizeof *o);
        if (__builtin_expect(got != (long)sizeof *o, 0))
            return read_failed(got, sizeof *o);
    }
    if (__builtin_expect(ctx->carried, 0))
        for (int i = 0; i < ctx->n; i++) {
            out[i].value += ctx->ev[i].carry.value;
            out[i].time_enabled += ctx->ev[i].carry.time_enabled;
            out[i].time_running += ctx->ev[i].carry.time_running;
        }
    return PAPI_OK;
}

/* One read() per group: a leader comes before its members, so a single pass over the
 * events reads each group when it meets its leader and places every member from its
 * group's part of buf (linear in events; async-signal-safe; ctx unchanged). */
__attribute__((noinline)) int pe_read_groups(const struct cmp_context *ctx, struct cmp_count *out)
{
    if (ctx->target.multiplex)
        return read_alone(ctx, out);
    uint64_t buf[5 * PE_MAX_EVENTS]; /* per group 3 words and one or two per member */
    int goff[PE_MAX_EVENTS];
    int used = 0;
    for (int i = 0; i < ctx->n; i++) {
        const struct pe_event *e = &ctx->ev[i];
        const struct pe_group *grp = &ctx->grp[e->group];
        const uint64_t *b;
        uint64_t value;
        int stride = pe_group_stride(&ctx->ev[grp->leader]);
        if (grp->leader == i) {
            size_t want = (3 + (size_t)grp->nmembers * (size_t)stride) * sizeof(uint64_t);
            goff[e->group] = used;
            long got = pe_sys_read(e->fd, buf + used, want);
            if (__builtin_expect(got != (long)want, 0))
                return read_failed(got, want);
            used += (int)(want / sizeof(uint64_t));
        }
        b = buf + goff[e->group]; /* nr, time_enabled, time_running, values... */
        value = b[3 + e->pos * stride];
        out[i].value = e->carry.value + value;
        out[i].time_enabled = e->carry.time_enabled + b[1];
        out[i].time_running = e->carry.time_running + b[2];
    }
    return PAPI_OK;
}

/* Every slot from user space, carries not added; 0 when a page says no (the caller then
 * uses read()). A member takes the times of the leader read before it (update_user_read
 * allows user reads only where that leader is its own). */
static inline __attribute__((always_inline)) int user_read_slots(const struct cmp_context *ctx,
                                                                 struct cmp_count *out, int times)
{
    /* The counts first, all in the same loop whether or not times are wanted: the
     * instructions between two counters' reads (which one counter counts of the other's
     * window) are then the same for every read of the set. */
    for (int i = 0; i < ctx->n; i++) {
        uint64_t c;
        if (!user_count(ctx->ev[i].page, &c))
            return 0;
        out[i].value = c;
    }
    if (!times)
        return 1;
    uint64_t c, en = 0, ru = 0;
    for (int i = 0; i < ctx->n; i++) {
        const struct pe_event *e = &ctx->ev[i];
        if (e->time_from < 0 && !perf_user_read(e->page, &c, &en, &ru))
            return 0;
        out[i].time_enabled = en;
        out[i].time_running = ru;
    }
    return 1;
}

/* values from the counts just read (component.h: read_values). */
static inline __attribute__((always_inline)) void subtract(const struct cmp_count *c, int n,
                                                           uint64_t *base, long long *values,
                                                           int mode)
{
    const struct cmp_count *end = c + n;
    if (__builtin_expect(!(mode & CMP_READ_ACCUM), 1)) {
        for (; c < end; c++)
            *values++ = (long long)(c->value - *base++);
        return;
    }
    for (; c < end; c++, base++) {
        *values++ += (long long)(c->value - *base);
        *base = c->value;
    }
}

/* Anything but a user read without carries: read() (or user reads plus the carries of
 * reopened events). Times always: read() gives them anyway. A set sampling into rings
 * reads here (pe_start): its rings are emptied first, unless the sampler thread is at it. */
static __attribute__((noinline)) int read_slots_slow(const struct cmp_context *ctx,
                                                     struct cmp_count *out)
{
    if (ctx->sampling_on)
        pe_sampler_drain_now(ctx);
    if (ctx->fast_reader == papi_thread_pointer() && user_read_slots(ctx, out, 1)) {
        for (int i = 0; i < ctx->n; i++) {
            out[i].value += ctx->ev[i].carry.value;
            out[i].time_enabled += ctx->ev[i].carry.time_enabled;
            out[i].time_running += ctx->ev[i].carry.time_running;
        }
        return PAPI_OK;
    }
    return pe_read_groups(ctx, out);
}

/* One group, nothing carried, no ring (a set read without user access): one read() and
 * the values straight from its buffer. */
static __attribute__((noinline)) int read_values_group(const struct cmp_context *ctx,
                                                       struct cmp_count *out, uint64_t *base,
                                                       long long *values, int mode)
{
    uint64_t buf[3 + PE_MAX_EVENTS]; /* nr, time_enabled, time_running, counts */
    int n = ctx->n;
    size_t want = (3 + (size_t)n) * sizeof(uint64_t);
    long got = pe_sys_read(ctx->ev[0].fd, buf, want);
    if (__builtin_expect(got != (long)want, 0))
        return read_failed(got, want);
    const uint64_t *v = buf + 3;
    if (mode & CMP_READ_TIMES)
        for (int i = 0; i < n; i++) {
            out[i].time_enabled = buf[1];
            out[i].time_running = buf[2];
        }
    if (__builtin_expect(!(mode & CMP_READ_ACCUM), 1)) {
        for (int i = 0; i < n; i++) {
            out[i].value = v[i];
            values[i] = (long long)(v[i] - base[i]);
        }
        return PAPI_OK;
    }
    for (int i = 0; i < n; i++) {
        out[i].value = v[i];
        values[i] += (long long)(v[i] - base[i]);
        base[i] = v[i];
    }
    return PAPI_OK;
}

static __attribute__((noinline)) int read_values_slow(struct cmp_context *ctx,
                                                      struct cmp_count *out, uint64_t *base,
                                                      long long *values, int mode)
{
    if (ctx->wrap) /* its fast paths are off: it comes here (hybrid_sets.c) */
        return ctx->wrap->read_values(ctx, out, base, values, mode);
    if (ctx->one_group && !ctx->carried && !ctx->sampling_on &&
        ctx->fast_reader != papi_thread_pointer())
        return read_values_group(ctx, out, base, values, mode);
    int ret = read_slots_slow(ctx, out);
    if (ret == PAPI_OK)
        subtract(out, ctx->n, base, values, mode);
    return ret;
}

/* The counts of a stopped set (pe_stop: ctx->frozen), from its pages. Disabling an event
 * takes it off its counter, and the arm64 driver then writes the page (armpmu_del calls
 * perf_event_update_userpage once the count is updated): index 0 and offset = the count
 * that read() returns, exactly (tests/pmu: pmu_exact_count, pmu_read_semantics). Any
 * later change of a count off its counter (a reset) writes the page too, and an event
 * put back on a counter gets an index again, so a page with index 0 holds the count.
 * The times are the page's, as a user read of the running set takes them. Where the
 * page still shows an index (a driver that does not write it when the event leaves its
 * counter), or on another architecture (not checked there), 0: read() then. */
static __attribute__((noinline)) int frozen_slots(const struct cmp_context *ctx,
                                                  struct cmp_count *out)
{
#if defined(__aarch64__)
    uint64_t en = 0, ru = 0;
    for (int i = 0; i < ctx->n; i++) {
        const struct perf_event_mmap_page *pc = ctx->ev[i].page;
        uint32_t seq, index;
        uint64_t caps, c, e, r;
        do {
            seq = PERF_USER_ONCE(pc->lock);
            PERF_USER_BARRIER();
            caps = PERF_USER_ONCE(pc->capabilities);
            index = PERF_USER_ONCE(pc->index);
            c = (uint64_t)PERF_USER_ONCE(pc->offset);
            e = PERF_USER_ONCE(pc->time_enabled);
            r = PERF_USER_ONCE(pc->time_running);
            PERF_USER_BARRIER();
        } while (PERF_USER_ONCE(pc->lock) != seq);
        if (index != 0 || !(caps & PERF_USER_CAP_RDPMC))
            return 0;
        if (ctx->ev[i].time_from < 0) { /* a member takes its leader's times, as read() */
            en = e;
            ru = r;
        }
        out[i].value = c + ctx->ev[i].carry.value;
        out[i].time_enabled = en + ctx->ev[i].carry.time_enabled;
        out[i].time_running = ru + ctx->ev[i].carry.time_running;
    }
    return 1;
#else
    (void)ctx, (void)out;
    return 0;
#endif
}

/* The general read (PAPI_stop, PAPI_reset, overflow dispatch): counts and times. */
int pe_read(struct cmp_context *ctx, struct cmp_count *out)
{
    uintptr_t me = papi_thread_pointer();
    if (ctx->fast_reader == me && !ctx->carried &&
        __builtin_expect(user_read_slots(ctx, out, 1), 1))
        return PAPI_OK;
    if (ctx->frozen == me && frozen_slots(ctx, out))
        return PAPI_OK;
    return read_slots_slow(ctx, out);
}

/* PAPI_read and PAPI_accum of a plain set: a leaf function for user reads of the calling
 * thread's own counters with nothing carried (without times for PAPI_read: the seqlock
 * loop around the counter alone), anything else a tail call. */
int pe_read_values(struct cmp_context *ctx, struct cmp_count *out, uint64_t *base,
                   long long *values, int mode)
{
    if (__builtin_expect(ctx->fast1 == papi_thread_pointer(), 1) && !(mode & CMP_READ_TIMES)) {
        uint64_t c; /* one event, no times: the common case of PAPI_read */
        if (__builtin_expect(user_count(ctx->page1, &c), 1)) {
            out->value = c;
            if (__builtin_expect(!(mode & CMP_READ_ACCUM), 1)) {
                *values = (long long)(c - *base);
            } else {
                *values += (long long)(c - *base);
                *base = c;
            }
            return PAPI_OK;
        }
    } else if (ctx->fast_reader == papi_thread_pointer() && !ctx->carried) {
        int ok =
            mode & CMP_READ_TIMES ? user_read_slots(ctx, out, 1) : user_read_slots(ctx, out, 0);
        if (__builtin_expect(ok, 1)) {
            subtract(out, ctx->n, base, values, mode);
            return PAPI_OK;
        }
    }
    return read_values_slow(ctx, out, base, values, mode);
}
