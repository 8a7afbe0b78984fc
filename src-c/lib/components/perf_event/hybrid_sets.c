/* hybrid_sets.c: the event sets of a machine with several core types (native_hybrid.c),
 * where a slot the core sees may be one event per core PMU, counted and read as one
 * (summed). A constant table of the context callbacks (pe_hybrid_sets): perf_component.c
 * makes a hybrid context on such a machine and hands every call on a context that names
 * this table to it; the table's callbacks work on an inner context of perf_context.c.
 * Elsewhere contexts are perf_context.c's own and PAPI_read's hot path is not lengthened
 * where there is nothing to sum. */
#include <stdlib.h>
#include <string.h>

#include "hybrid_sets.h"
#include "perf_context.h"
#include "perf_read.h"
#include "sysfs_pmus.h"

/* The core's context on a hybrid machine: a context of perf_context.c's type that is
 * never started (its fast paths stay off) and names this table in `wrap`, so that
 * perf_component.c and pe_read_values hand every call on it here; perf_context.c's
 * callbacks get the inner context only. */
struct hy_slot {
    int first, count; /* slots of the inner context */
};
struct hy_ctx {
    struct cmp_context head; /* first: a struct cmp_context * is one of these */
    struct cmp_context *inner;
    struct hy_slot *slot;
    int n, cap;
    int cpu; /* the one CPU counted, or -1 */
};

static struct hy_ctx *hy(struct cmp_context *c)
{
    return (struct hy_ctx *)(void *)c;
}

static int hy_ctx_create(const struct papi_component *self, const struct cmp_target *t,
                         struct cmp_context **out)
{
    struct hy_ctx *h = calloc(1, sizeof *h);
    if (!h)
        return papi_error(PAPI_ENOMEM, "no memory for the perf_event state of an event set");
    int ret = pe_ctx_create(self, t, &h->inner);
    if (ret != PAPI_OK) {
        free(h);
        return ret;
    }
    h->cpu = t->cpu;
    h->head.wrap = &pe_hybrid_sets;
    *out = &h->head;
    return PAPI_OK;
}

static void hy_ctx_destroy(struct cmp_context *c)
{
    if (!c)
        return;
    pe_ctx_destroy(hy(c)->inner);
    free(hy(c)->slot);
    free(c);
}

static int hy_add(struct cmp_context *c, int local, int *slot)
{
    struct hy_ctx *h = hy(c);
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 4;
        struct hy_slot *s = realloc(h->slot, (size_t)cap * sizeof *s);
        if (!s)
            return papi_error(PAPI_ENOMEM, "no memory for %d event slots", cap);
        h->slot = s;
        h->cap = cap;
    }
    int subs[NATIVE_MAX_CORE_TYPES];
    int n = native_hybrid_subs(local, subs, NATIVE_MAX_CORE_TYPES);
    if (!n) {
        subs[0] = local;
        n = 1;
    }
    struct hy_slot *s = &h->slot[h->n];
    s->first = h->n ? h->slot[h->n - 1].first + h->slot[h->n - 1].count : 0;
    s->count = 0;
    for (int i = 0; i < n; i++) {
        const struct native_event *e = native_lookup(subs[i]);
        if (n > 1 && h->cpu >= 0 && e && e->sysfs_pmu >= 0 &&
            !sysfs_pmu_has_cpu(sysfs_pmu_brief(e->sysfs_pmu), h->cpu))
            continue; /* counting one CPU: only its own core type's event opens there */
        int inner_slot;
        int ret = pe_add(h->inner, subs[i], &inner_slot);
        if (ret != PAPI_OK) {
            while (s->count > 0)
                pe_remove(h->inner, s->first + --s->count);
            return ret;
        }
        s->count++;
    }
    if (!s->count)
        return papi_error(PAPI_ENOEVNT, "no core type of this event counts on CPU %d", h->cpu);
    *slot = h->n++;
    return PAPI_OK;
}

static int hy_remove(struct cmp_context *c, int slot)
{
    struct hy_ctx *h = hy(c);
    if (slot < 0 || slot >= h->n)
        return papi_error(PAPI_EBUG, "perf_event: no event in slot %d", slot);
    struct hy_slot s = h->slot[slot];
    for (int i = s.count - 1; i >= 0; i--) {
        int ret = pe_remove(h->inner, s.first + i);
        if (ret != PAPI_OK)
            return ret;
    }
    memmove(&h->slot[slot], &h->slot[slot + 1], (size_t)(h->n - slot - 1) * sizeof *h->slot);
    h->n--;
    for (int k = slot; k < h->n; k++)
        h->slot[k].first -= s.count;
    return PAPI_OK;
}

static int hy_start(struct cmp_context *c)
{
    return pe_start(hy(c)->inner);
}

static int hy_stop(struct cmp_context *c)
{
    return pe_stop(hy(c)->inner);
}

/* A slot's reading: the sum of its events' counts. Each is enabled all along and runs
 * while the thread is on its core type, so the running times add up (to at most the
 * enabled time) and multiplex scaling stays right. Async-signal-safe, ctx unchanged. */
static int hy_read(struct cmp_context *c, struct cmp_count *out)
{
    const struct hy_ctx *h = hy(c);
    struct cmp_count in[PE_MAX_EVENTS];
    int ret = pe_read(h->inner, in);
    if (ret != PAPI_OK)
        return ret;
    for (int s = 0; s < h->n; s++) {
        const struct cmp_count *p = &in[h->slot[s].first];
        struct cmp_count sum = p[0];
        for (int i = 1; i < h->slot[s].count; i++) {
            sum.value += p[i].value;
            sum.time_running += p[i].time_running;
            if (p[i].time_enabled > sum.time_enabled)
                sum.time_enabled = p[i].time_enabled;
        }
        if (sum.time_running > sum.time_enabled)
            sum.time_running = sum.time_enabled;
        out[s] = sum;
    }
    return PAPI_OK;
}

static int hy_read_values(struct cmp_context *c, struct cmp_count *out, uint64_t *base,
                          long long *values, int mode)
{
    int ret = hy_read(c, out);
    if (ret != PAPI_OK)
        return ret;
    for (int s = 0; s < hy(c)->n; s++) {
        long long d = (long long)(out[s].value - base[s]);
        if (mode & CMP_READ_ACCUM) {
            values[s] += d;
            base[s] = out[s].value;
        } else {
            values[s] = d;
        }
    }
    return PAPI_OK;
}

static int one_event(const struct hy_ctx *h, int slot)
{
    if (slot < 0 || slot >= h->n)
        return papi_error(PAPI_EBUG, "perf_event: no event in slot %d", slot);
    if (h->slot[slot].count != 1)
        return papi_error(PAPI_ECNFLCT,
                          "the event is summed over %d core types (one event per core PMU): "
                          "overflow needs one counter; name the event of one core PMU "
                          "(<pmu>::<event>, or perf::<EVENT>@<core pmu>)",
                          h->slot[slot].count);
    return PAPI_OK;
}

static int hy_set_overflow(struct cmp_context *c, int slot, uint64_t period)
{
    struct hy_ctx *h = hy(c);
    int ret = one_event(h, slot);
    if (ret != PAPI_OK)
        return period ? ret : PAPI_OK;
    return pe_set_overflow(h->inner, h->slot[slot].first, period);
}

static int hy_retune_overflow(const struct cmp_context *c, int slot, uint64_t period)
{
    const struct hy_ctx *h = (const struct hy_ctx *)(const void *)c;
    if (slot < 0 || slot >= h->n || h->slot[slot].count != 1)
        return PAPI_EINVAL;
    return pe_retune_overflow(h->inner, h->slot[slot].first, period);
}

static int hy_counts_ns(const struct cmp_context *c, int slot)
{
    const struct hy_ctx *h = (const struct hy_ctx *)(const void *)c;
    return slot >= 0 && slot < h->n && h->slot[slot].count == 1 &&
           pe_counts_ns(h->inner, h->slot[slot].first);
}

static int hy_arm_overflow(struct cmp_context *c, int slot, int signo, pid_t tid, int *source)
{
    struct hy_ctx *h = hy(c);
    int ret = one_event(h, slot);
    if (ret != PAPI_OK)
        return ret;
    return pe_arm_overflow(h->inner, h->slot[slot].first, signo, tid, source);
}

/* PAPI_reset: the core reads and moves its baselines (perf_context.c's reset works on the
 * inner context's groups, which the summed slots do not map to). */
static int hy_reset(struct cmp_context *c)
{
    (void)c;
    return PAPI_ENOSUPP;
}

/* Profiling takes the overflow signals: a ring per summed slot would be several. */
static int hy_set_sampling(struct cmp_context *c, int slot, uint64_t period)
{
    (void)c, (void)slot, (void)period;
    return PAPI_ENOSUPP;
}

static int hy_arm_sampling(struct cmp_context *c, int slot, cmp_sample_fn fn, void *arg)
{
    (void)c, (void)fn, (void)arg;
    return papi_error(PAPI_EBUG, "perf_event: slot %d of a hybrid set does not sample into a ring",
                      slot);
}

const struct papi_component pe_hybrid_sets = {
    .name = "perf_event (summed over core types)",
    .ctx_create = hy_ctx_create,
    .ctx_destroy = hy_ctx_destroy,
    .add = hy_add,
    .remove = hy_remove,
    .start = hy_start,
    .stop = hy_stop,
    .read = hy_read,
    .read_values = hy_read_values,
    .reset = hy_reset,
    .set_overflow = hy_set_overflow,
    .arm_overflow = hy_arm_overflow,
    .retune_overflow = hy_retune_overflow,
    .counts_ns = hy_counts_ns,
    .set_sampling = hy_set_sampling,
    .arm_sampling = hy_arm_sampling,
};
