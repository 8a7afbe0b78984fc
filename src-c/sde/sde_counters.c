/* sde_counters.c: the calls that register, create, describe, group and unregister
 * counters, and the two hot ones, papi_sde_inc_counter and papi_sde_reset_counter
 * (one atomic operation each, no lock). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

static int mode_ok(int mode)
{
    if (mode & ~(PAPI_SDE_RW | PAPI_SDE_INSTANT))
        return sde_fail(SDE_EINVAL, "mode 0x%x is not PAPI_SDE_RO/RW | PAPI_SDE_DELTA/INSTANT",
                        (unsigned)mode);
    return SDE_OK;
}

static int type_ok(int type)
{
    if (type < PAPI_SDE_long_long || type > PAPI_SDE_float)
        return sde_fail(SDE_EINVAL,
                        "type %d is not one of PAPI_SDE_long_long, _int, _double, "
                        "_float",
                        type);
    return SDE_OK;
}

/* Adds proto as lib::event_name when the handle is live (under the lock); *cntr_handle
 * (when not NULL) is the new counter's handle, taken while its slot cannot change. */
static int add_checked(papi_handle_t handle, const char *event_name,
                       const struct sde_counter *proto, struct sde_counter **out,
                       void **cntr_handle)
{
    struct sde_counter *c = NULL;
    sde_lock();
    struct sde_library *lib = sde_library_checked(handle);
    int ret = lib ? sde_add_counter(lib, event_name, proto, &c)
                  : sde_fail(SDE_EINVAL, "the handle is not a library's live handle (%s)",
                             event_name ? event_name : "NULL");
    if (ret == SDE_OK && cntr_handle)
        *cntr_handle = sde_handle_of(c);
    sde_unlock();
    if (out)
        *out = c;
    return ret;
}

int papi_sde_register_counter(papi_handle_t handle, const char *event_name, int cntr_mode,
                              int cntr_type, void *counter)
{
    int ret;
    if ((ret = mode_ok(cntr_mode)) != SDE_OK || (ret = type_ok(cntr_type)) != SDE_OK)
        return ret;
    if (!counter)
        return sde_fail(SDE_EINVAL, "the counter of %s is NULL", event_name ? event_name : "");
    struct sde_counter proto = {
        .kind = SDE_REGISTERED, .mode = cntr_mode, .type = cntr_type, .ptr = counter};
    return add_checked(handle, event_name, &proto, NULL, NULL);
}

int papi_sde_register_counter_cb(papi_handle_t handle, const char *event_name, int cntr_mode,
                                 int cntr_type, papi_sde_fptr_t callback, void *param)
{
    int ret;
    if ((ret = mode_ok(cntr_mode)) != SDE_OK || (ret = type_ok(cntr_type)) != SDE_OK)
        return ret;
    if (!callback)
        return sde_fail(SDE_EINVAL, "the callback of %s is NULL", event_name ? event_name : "");
    struct sde_counter proto = {.kind = SDE_CALLBACK,
                                .mode = cntr_mode,
                                .type = cntr_type,
                                .ptr = param,
                                .callback = callback};
    return add_checked(handle, event_name, &proto, NULL, NULL);
}

int papi_sde_create_counter(papi_handle_t handle, const char *event_name, int cntr_mode,
                            void **cntr_handle)
{
    int ret;
    if ((ret = mode_ok(cntr_mode)) != SDE_OK)
        return ret;
    if (!cntr_handle)
        return sde_fail(SDE_EINVAL, "cntr_handle of %s is NULL", event_name ? event_name : "");
    struct sde_counter proto = {.kind = SDE_CREATED, .mode = cntr_mode, .type = PAPI_SDE_long_long};
    struct sde_counter *c = NULL;
    ret = add_checked(handle, event_name, &proto, &c, cntr_handle);
    return ret;
}

int papi_sde_inc_counter(void *cntr_handle, long long int increment)
{
    /* The handle is the counter's slot and generation (sde_internal.h): a lookup in the
     * table, one test. */
    uintptr_t h = (uintptr_t)cntr_handle;
    struct sde_counter *c = sde_handle_counter(h);
    if (__builtin_expect(!c || __atomic_load_n(&c->inc_gen, __ATOMIC_RELAXED) != sde_handle_gen(h),
                         0)) {
        int err;
        sde_handle_checked(cntr_handle, SDE_CREATED, &err);
        return err == SDE_OK ? sde_fail(SDE_EINVAL, "the handle's event was just unregistered")
                             : err;
    }
    sde_counter_lock(c);
    /* Tested again under the lock, which the unregistration takes once the counter is
     * gone: an add that raced with it never lands in the slot's next counter. */
    int live = __atomic_load_n(&c->inc_gen, __ATOMIC_RELAXED) == sde_handle_gen(h);
    if (live)
        __atomic_store_n(&c->value, __atomic_load_n(&c->value, __ATOMIC_RELAXED) + increment,
                         __ATOMIC_RELAXED);
    sde_counter_unlock(c);
    return live ? SDE_OK : sde_fail(SDE_EINVAL, "the handle's event was just unregistered");
}

int papi_sde_reset_counter(void *cntr_handle)
{
    int ret;
    struct sde_counter *c = sde_handle_checked(cntr_handle, SDE_CREATED, &ret);
    if (c) {
        sde_counter_lock(c);
        if (__atomic_load_n(&c->inc_gen, __ATOMIC_RELAXED) ==
            sde_handle_gen((uintptr_t)cntr_handle))
            __atomic_store_n(&c->value, 0, __ATOMIC_RELAXED);
        else
            ret = sde_fail(SDE_EINVAL, "the handle's event was just unregistered");
        sde_counter_unlock(c);
    }
    return ret;
}

/* The live counter lib::event_name of a live handle, under the lock (NULL with *err). */
static struct sde_counter *find_checked(papi_handle_t handle, const char *event_name, int *err)
{
    char full[SDE_NAME_MAX];
    struct sde_library *lib = sde_library_checked(handle);
    if (!lib) {
        *err = sde_fail(SDE_EINVAL, "the handle is not a library's live handle");
        return NULL;
    }
    if ((*err = sde_full_name(lib, event_name, full)) != SDE_OK)
        return NULL;
    struct sde_counter *c = sde_find_registered(full);
    if (!c)
        *err = sde_fail(SDE_EINVAL, "no event %s is registered", full);
    return c;
}

void *papi_sde_get_counter_handle(papi_handle_t handle, const char *event_name)
{
    int err;
    sde_lock();
    struct sde_counter *c = find_checked(handle, event_name, &err);
    void *h = c && c->kind == SDE_CREATED ? sde_handle_of(c) : NULL;
    sde_unlock();
    return h;
}

int papi_sde_describe_counter(papi_handle_t handle, const char *event_name,
                              const char *event_description)
{
    int err;
    if (!event_description)
        return sde_fail(SDE_EINVAL, "the description of %s is NULL", event_name ? event_name : "");
    char *text = strdup(event_description);
    if (!text)
        return sde_fail(SDE_ENOMEM, "no memory for a description");
    sde_lock();
    struct sde_counter *c = find_checked(handle, event_name, &err);
    if (c) {
        free(c->desc);
        c->desc = text;
        text = NULL;
    }
    sde_unlock();
    free(text);
    return c ? SDE_OK : err;
}

/* Marks gone the counter and, for a recorder, its statistics (same object). */
int papi_sde_unregister_counter(void *handle, const char *event_name)
{
    int err;
    sde_lock();
    struct sde_counter *c = find_checked(handle, event_name, &err);
    if (c) {
        int n = sde_counter_count();
        for (int slot = 0; slot < n; slot++) {
            struct sde_counter *o = sde_counter_at(slot);
            if (o && o != c && c->obj && o->obj == c->obj && o->obj_gen == c->obj_gen)
                sde_mark_gone(o);
        }
        sde_mark_gone(c);
    }
    sde_unlock();
    return c ? SDE_OK : err;
}

/* Appends member c to group g by its key (locked): a member gone is left out for good,
 * whatever takes its slot. */
static int add_member(struct sde_counter *g, const struct sde_counter *c)
{
    long long key = sde_key_of_id(c->id);
    for (int i = 0; i < g->nmembers; i++)
        if (g->members[i] == key)
            return sde_fail(SDE_EINVAL, "the event is in the group %s already", g->name);
    if (g->nmembers == g->capmembers) {
        int cap = g->capmembers ? 2 * g->capmembers : 4;
        long long *m = realloc(g->members, (size_t)cap * sizeof *m);
        if (!m)
            return sde_fail(SDE_ENOMEM, "no memory for the group %s", g->name);
        g->members = m;
        g->capmembers = cap;
    }
    g->members[g->nmembers++] = key;
    return SDE_OK;
}

/* The group lib::group_name, made when new (locked). */
static struct sde_counter *group_of(papi_handle_t handle, const char *group_name, uint32_t flags,
                                    const struct sde_counter *first, int *err)
{
    struct sde_counter *g = find_checked(handle, group_name, err);
    if (g) {
        if (g->kind != SDE_GROUP || g->group_flags != flags) {
            *err = sde_fail(SDE_EINVAL, "%s is not a group of flags %u", g->name, flags);
            return NULL;
        }
        return g;
    }
    if (*err != SDE_EINVAL || !sde_library_checked(handle))
        return NULL;
    struct sde_counter proto = {
        .kind = SDE_GROUP, .mode = first->mode, .type = first->type, .group_flags = flags};
    *err = sde_add_counter(sde_library_checked(handle), group_name, &proto, &g);
    return *err == SDE_OK ? g : NULL;
}

int papi_sde_add_counter_to_group(papi_handle_t handle, const char *event_name,
                                  const char *group_name, uint32_t group_flags)
{
    int err;
    if (group_flags != PAPI_SDE_SUM && group_flags != PAPI_SDE_MAX && group_flags != PAPI_SDE_MIN)
        return sde_fail(SDE_EINVAL, "group flags %u are not PAPI_SDE_SUM, _MAX or _MIN",
                        group_flags);
    sde_lock();
    struct sde_counter *c = find_checked(handle, event_name, &err);
    struct sde_counter *g = c ? group_of(handle, group_name, group_flags, c, &err) : NULL;
    if (g && g == c)
        err = sde_fail(SDE_EINVAL, "the group %s cannot contain itself", g->name);
    else if (g)
        err = add_member(g, c);
    sde_unlock();
    return err;
}
