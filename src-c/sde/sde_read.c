/* sde_read.c: a counter's value now, as libpapi's sde component reads it through the
 * registry (sde_registry.h): the variable, the callback's result, the created count, a
 * group's SUM, MIN or MAX over its members, a recorder's or counting set's value. */
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

#define GROUP_DEPTH 16 /* groups of groups; deeper (a cycle) is an error */

static long long bits_of_double(double d)
{
    long long v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static long long bits_of_float(float f)
{
    long long v = 0;
    memcpy(&v, &f, sizeof f);
    return v;
}

static double double_of(long long bits, int type)
{
    if (type == PAPI_SDE_double) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static long long variable_value(const void *p, int type)
{
    switch (type) {
    case PAPI_SDE_int:
        return *(const volatile int *)p;
    case PAPI_SDE_double:
        return bits_of_double(*(const volatile double *)p);
    case PAPI_SDE_float:
        return bits_of_float(*(const volatile float *)p);
    default:
        return *(const volatile long long *)p;
    }
}

static int read_depth(int id, struct sde_reading *out, int depth);

/* Folds one member's value into the group's (in the group's type). */
static void fold(const struct sde_counter *g, long long *acc, long long v, int first)
{
    int fp = g->type == PAPI_SDE_double || g->type == PAPI_SDE_float;
    if (first) {
        *acc = v;
    } else if (fp) {
        double a = double_of(*acc, g->type), b = double_of(v, g->type);
        double r = g->group_flags == PAPI_SDE_SUM   ? a + b
                   : g->group_flags == PAPI_SDE_MAX ? (b > a ? b : a)
                                                    : (b < a ? b : a);
        *acc = g->type == PAPI_SDE_double ? bits_of_double(r) : bits_of_float((float)r);
    } else if (g->group_flags == PAPI_SDE_SUM) {
        *acc += v;
    } else if (g->group_flags == PAPI_SDE_MAX ? v > *acc : v < *acc) {
        *acc = v;
    }
}

/* The members' ids now are taken from their keys under the lock, then read without it
 * (a callback may call libsde). Members that are gone are left out (-1). */
static int read_group(int id, const struct sde_counter *g, long long *value, int depth)
{
    if (depth >= GROUP_DEPTH)
        return sde_fail(SDE_EINVAL, "the group of id %d contains itself", id);
    sde_lock();
    if (g->id != id || !g->alive) { /* its slot was reused since */
        sde_unlock();
        return SDE_ENOEVNT;
    }
    struct sde_counter head = {.type = g->type, .group_flags = g->group_flags};
    int n = g->nmembers;
    int *ids = malloc(((size_t)n + 1) * sizeof *ids);
    for (int i = 0; ids && i < n; i++)
        ids[i] = sde_id_of_key(g->members[i]);
    sde_unlock();
    if (!ids)
        return sde_fail(SDE_ENOMEM, "no memory to read the group of id %d", id);
    g = &head;
    int counted = 0, ret = SDE_OK;
    *value = 0;
    for (int i = 0; i < n && ret == SDE_OK; i++) {
        struct sde_reading r;
        int rr = ids[i] < 0 ? SDE_ENOEVNT : read_depth(ids[i], &r, depth + 1);
        if (rr == SDE_OK)
            fold(g, value, r.value, counted++ == 0);
        else if (rr != SDE_ENOEVNT)
            ret = rr;
    }
    free(ids);
    return ret;
}

/* What a read needs of c, taken while c is id's: a slot reused meanwhile (seq moved)
 * reads as gone. */
static int snapshot(int id, struct sde_counter *c, struct sde_counter *s)
{
    unsigned seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
    if ((seq & 1) || __atomic_load_n(&c->id, __ATOMIC_ACQUIRE) != id ||
        !__atomic_load_n(&c->alive, __ATOMIC_ACQUIRE))
        return SDE_ENOEVNT;
    s->kind = __atomic_load_n(&c->kind, __ATOMIC_ACQUIRE); /* a placeholder filled: kind last */
    s->type = __atomic_load_n(&c->type, __ATOMIC_RELAXED);
    s->mode = __atomic_load_n(&c->mode, __ATOMIC_RELAXED);
    s->ptr = __atomic_load_n(&c->ptr, __ATOMIC_RELAXED);
    s->callback = __atomic_load_n(&c->callback, __ATOMIC_RELAXED);
    s->obj = __atomic_load_n(&c->obj, __ATOMIC_RELAXED);
    s->obj_gen = __atomic_load_n(&c->obj_gen, __ATOMIC_RELAXED);
    s->stat = __atomic_load_n(&c->stat, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&c->seq, __ATOMIC_RELAXED) == seq ? SDE_OK : SDE_ENOEVNT;
}

static int read_depth(int id, struct sde_reading *out, int depth)
{
    struct sde_counter *c = sde_counter_of(id), s;
    if (!c || snapshot(id, c, &s) != SDE_OK)
        return SDE_ENOEVNT;
    out->type = s.type;
    out->mode = s.mode;
    switch (s.kind) {
    case SDE_PLACEHOLDER:
        out->value = 0;
        return SDE_OK;
    case SDE_REGISTERED:
        out->value = variable_value(s.ptr, s.type);
        return SDE_OK;
    case SDE_CALLBACK:
        out->value = s.callback(s.ptr);
        return SDE_OK;
    case SDE_CREATED:
        out->value = __atomic_load_n(&c->value, __ATOMIC_RELAXED);
        return SDE_OK;
    case SDE_GROUP:
        return read_group(id, c, &out->value, depth);
    /* The object may have gone since the snapshot: its generation then says so. */
    case SDE_RECORDER_COUNT:
        return sde_recorder_count(s.obj, s.obj_gen, &out->value);
    case SDE_RECORDER_DATA:
        return sde_recorder_data(s.obj, s.obj_gen, &out->value);
    case SDE_RECORDER_STAT:
        return sde_recorder_stat(s.obj, s.obj_gen, s.stat, &out->value);
    case SDE_COUNTING_SET:
        return sde_cset_snapshot(s.obj, s.obj_gen, &out->value);
    }
    return SDE_ENOEVNT;
}

int sde_read_counter(int id, struct sde_reading *out)
{
    if (!out)
        return SDE_EINVAL;
    return read_depth(id, out, 0);
}
