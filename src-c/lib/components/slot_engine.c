/* slot_engine.c: the counter-slot engine of the software components (slot_engine.h):
 * their event-set contexts over a read function. read() may run in a signal handler
 * (component.h): it only calls the read function and does arithmetic; a failure is
 * recorded (atomic stores) and its reason given by read_reason, which the core calls
 * right after, or at the next call on the context outside the read path. */
#include <stdlib.h>
#include <string.h>

#include "mono_clock.h"
#include "slot_engine.h"

/* ---- the context and its parts ------------------------------------------------------- */
int slot_ctx_create(const struct papi_component *self, const struct slot_ops *ops, const char *name,
                    struct cmp_context **ctx)
{
    *ctx = calloc(1, sizeof **ctx + ops->own_size);
    if (!*ctx)
        return papi_error(PAPI_ENOMEM, "no memory for a %s context", self->name);
    (*ctx)->ops = ops;
    (*ctx)->name = name;
    return PAPI_OK;
}

void slot_set_kind(struct cmp_context *c, int slot, const struct slot_kind *kind)
{
    c->slots[slot].kind = *kind;
}

/* ---- values ---------------------------------------------------------------------------- */
static uint64_t bits_of_double(double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static uint64_t bits_of_float(float f)
{
    uint64_t v = 0;
    memcpy(&v, &f, sizeof f);
    return v;
}

static uint64_t growth(const struct slot_kind *k, uint64_t start, uint64_t now)
{
    double a, b;
    float fa, fb;
    switch (k->growth) {
    case SLOT_U32:
        return (uint32_t)(now - start);
    case SLOT_CLAMP:
        return now >= start ? now - start : 0;
    case SLOT_F64:
        memcpy(&a, &start, sizeof a);
        memcpy(&b, &now, sizeof b);
        return bits_of_double(b - a);
    case SLOT_F32:
        memcpy(&fa, &start, sizeof fa);
        memcpy(&fb, &now, sizeof fb);
        return bits_of_float(fb - fa);
    default:
        return now - start;
    }
}

static uint64_t scaled(const struct slot_kind *k, uint64_t v)
{
    return k->scale ? v * k->scale : v;
}

/* A running slot whose raw number is raw now (slot_running_value's other kinds); a
 * stopped one. */
uint64_t slot_running_value_slow(const struct slot *s, uint64_t raw)
{
    const struct slot_kind *k = &s->kind;
    return s->counted + scaled(k, k->instant ? raw : growth(k, s->start, raw));
}

static uint64_t stopped_value(const struct slot *s)
{
    return s->counted + (s->kind.instant ? s->at_stop : 0);
}

/* ---- failures -------------------------------------------------------------------------- */
static int record(struct cmp_context *c, const struct slot_fail *f, int ret)
{
    atomic_store_explicit(&c->failed_slot, f->slot, memory_order_relaxed);
    atomic_store_explicit(&c->failed_where, f->where, memory_order_relaxed);
    atomic_store_explicit(&c->failed_value, f->value, memory_order_relaxed);
    atomic_store_explicit(&c->failed, f->err, memory_order_relaxed);
    return ret;
}

/* The core asks right after a failed read (component.h); every other call on the
 * context asks first, for a read that failed in a signal handler. */
void slot_read_reason(struct cmp_context *c)
{
    int err = atomic_exchange_explicit(&c->failed, 0, memory_order_relaxed);
    if (!err)
        return;
    struct slot_fail f = {err, atomic_load(&c->failed_slot), atomic_load(&c->failed_where),
                          atomic_load(&c->failed_value)};
    c->ops->explain(c, &f);
}

/* ---- reading --------------------------------------------------------------------------- */
/* Every slot's count now into out[], with the times when asked: PAPI_OK, or the read
 * function's code with *f. The read path: nothing of c is written. */
static int counts(struct cmp_context *c, struct cmp_count *out, int times, struct slot_fail *f)
{
    uint64_t raw[SLOT_READ_MAX], ns = 0;
    const int n = c->nslots;
    if (times)
        ns = c->ns + (c->running ? mono_clock_ns() - c->start_ns : 0);
    for (int from = 0; from < n; from += SLOT_READ_MAX) {
        int k = n - from < SLOT_READ_MAX ? n - from : SLOT_READ_MAX, ret;
        if (c->running && (ret = c->ops->read(c, SLOT_READ, from, k, raw, f)) != PAPI_OK)
            return ret;
        for (int j = 0; j < k; j++) {
            const struct slot *s = &c->slots[from + j];
            out[from + j].value = c->running ? slot_running_value(s, raw[j]) : stopped_value(s);
            if (times)
                out[from + j].time_enabled = out[from + j].time_running = ns;
        }
    }
    return PAPI_OK;
}

int slot_read(struct cmp_context *c, struct cmp_count *out)
{
    struct slot_fail f = {0};
    int ret = counts(c, out, 1, &f);
    return ret == PAPI_OK ? PAPI_OK : record(c, &f, ret);
}

int slot_read_values_slow(struct cmp_context *c, struct cmp_count *out, uint64_t *baseline,
                          long long *values, int mode)
{
    struct slot_fail f = {0};
    if (counts(c, out, mode & CMP_READ_TIMES, &f) != PAPI_OK)
        return c->ops->explain(c, &f);
    for (int i = 0; i < c->nslots; i++)
        slot_take(out[i].value, &baseline[i], &values[i], mode);
    return PAPI_OK;
}

/* Outside the read path (add, start, stop, reset): every slot's raw number now into its
 * .now; a failure's reason is given at once. */
static int read_now(struct cmp_context *c, enum slot_phase phase)
{
    slot_read_reason(c);
    struct slot_fail f = {0};
    uint64_t raw[SLOT_READ_MAX];
    int ret = PAPI_OK;
    for (int from = 0; ret == PAPI_OK && from < c->nslots; from += SLOT_READ_MAX) {
        int k = c->nslots - from < SLOT_READ_MAX ? c->nslots - from : SLOT_READ_MAX;
        ret = c->ops->read(c, phase, from, k, raw, &f);
        for (int j = 0; ret == PAPI_OK && j < k; j++)
            c->slots[from + j].now = raw[j];
    }
    for (int i = 0; i < c->nslots; i++)
        c->slots[i].lost = 0;
    return ret == PAPI_OK ? PAPI_OK : c->ops->explain(c, &f);
}

/* A stop that stops all the same: each slot read on its own, a lost one marked; the
 * first failure's reason, unless the component freezes them quietly. */
static int read_lenient(struct cmp_context *c)
{
    slot_read_reason(c);
    struct slot_fail first = {0};
    int bad = 0;
    for (int i = 0; i < c->nslots; i++) {
        struct slot_fail f = {0};
        struct slot *s = &c->slots[i];
        s->lost = c->ops->read(c, SLOT_STOP, i, 1, &s->now, &f) != PAPI_OK;
        if (s->lost && !bad++)
            first = f;
    }
    if (!bad || c->ops->lost == SLOT_LOST_FREEZES)
        return PAPI_OK;
    return c->ops->explain(c, &first);
}

/* ---- the context callbacks ------------------------------------------------------------- */
void slot_ctx_destroy(struct cmp_context *c)
{
    if (!c)
        return;
    slot_read_reason(c);
    for (int i = 0; c->ops->close && i < c->nslots; i++)
        c->ops->close(c, slot_data(c, i));
    if (c->ops->release)
        c->ops->release(c, slot_own(c));
    free(c->slots);
    free(c->data);
    free(c);
}

/* Room for one more slot (add only: never while the read path may run). */
static int room(struct cmp_context *c)
{
    if (c->nslots < c->cap)
        return PAPI_OK;
    int cap = c->cap ? 2 * c->cap : 8;
    size_t size = c->ops->slot_size ? c->ops->slot_size : 1;
    struct slot *slots = realloc(c->slots, (size_t)cap * sizeof *slots);
    if (slots)
        c->slots = slots;
    char *data = slots ? realloc(c->data, (size_t)cap * size) : NULL;
    if (!data)
        return papi_error(PAPI_ENOMEM, "no memory for a %s slot", c->name);
    c->data = data;
    c->cap = cap;
    return PAPI_OK;
}

int slot_add(struct cmp_context *c, int local, int *slot)
{
    slot_read_reason(c);
    if (c->ops->max_slots && c->nslots == c->ops->max_slots)
        return papi_error(PAPI_ECOUNT, "%s counts at most %d events per set", c->name,
                          c->ops->max_slots);
    int ret = room(c), i = c->nslots;
    if (ret != PAPI_OK)
        return ret;
    void *data = memset(slot_data(c, i), 0, c->ops->slot_size);
    c->slots[i] = (struct slot){.event = local};
    if ((ret = c->ops->open(c, local, data, &c->slots[i].kind)) != PAPI_OK)
        return ret;
    c->nslots++;
    if (c->ops->read_at_add && (ret = read_now(c, SLOT_ADD)) != PAPI_OK) {
        c->nslots--;
        if (c->ops->close)
            c->ops->close(c, data);
        return ret;
    }
    *slot = i;
    return PAPI_OK;
}

int slot_remove(struct cmp_context *c, int slot)
{
    slot_read_reason(c);
    if (slot < 0 || slot >= c->nslots)
        return papi_error(PAPI_EINVAL, "%s context has no slot %d", c->name, slot);
    if (c->ops->close)
        c->ops->close(c, slot_data(c, slot));
    size_t later = (size_t)(c->nslots - slot - 1);
    memmove(&c->slots[slot], &c->slots[slot + 1], later * sizeof *c->slots);
    memmove(slot_data(c, slot), slot_data(c, slot + 1), later * c->ops->slot_size);
    c->nslots--;
    return PAPI_OK;
}

/* Every slot from its raw number now: at start, an instant's value frozen at the last
 * stop joins what it counted; at reset, every count starts again from 0. */
static int rebase(struct cmp_context *c, enum slot_phase phase)
{
    int ret = read_now(c, phase);
    for (int i = 0; ret == PAPI_OK && i < c->nslots; i++) {
        struct slot *s = &c->slots[i];
        s->start = s->now;
        s->counted = phase == SLOT_RESET ? 0 : s->counted + s->at_stop; /* at_stop: instants */
        s->at_stop = 0;
    }
    return ret;
}

int slot_start(struct cmp_context *c)
{
    int ret = rebase(c, SLOT_START);
    if (ret != PAPI_OK)
        return ret;
    c->start_ns = mono_clock_ns();
    c->running = 1;
    return PAPI_OK;
}

/* A stopped context stops at once (a stop that failed may be asked again). */
int slot_stop(struct cmp_context *c)
{
    if (!c->running)
        return PAPI_OK;
    int fails = c->ops->lost == SLOT_LOST_FAILS;
    int ret = fails ? read_now(c, SLOT_STOP) : read_lenient(c);
    if (ret != PAPI_OK && fails)
        return ret;
    for (int i = 0; i < c->nslots; i++) {
        struct slot *s = &c->slots[i];
        if (s->kind.instant)
            s->at_stop = s->lost ? 0 : scaled(&s->kind, s->now);
        else if (!s->lost)
            s->counted += scaled(&s->kind, growth(&s->kind, s->start, s->now));
    }
    c->ns += mono_clock_ns() - c->start_ns;
    c->running = 0;
    return ret;
}

/* A running context's counts start again from 0; the times go on. */
int slot_reset(struct cmp_context *c)
{
    return rebase(c, SLOT_RESET);
}
