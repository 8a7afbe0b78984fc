/* sde_registry.c: the registry entry that libpapi's sde component looks up at run time
 * (sde_registry.h): the live counters by id, found by name (a placeholder made for a
 * well-formed name no library registered yet), their names, descriptions and values. */
#include <stdio.h>
#include <string.h>

#include "sde_internal.h"

static int registry_next(int id)
{
    int n = sde_counter_count();
    for (int slot = id < 0 ? 0 : (id & ((1 << SDE_SLOT_BITS) - 1)) + 1; slot < n; slot++) {
        struct sde_counter *c = sde_counter_at(slot);
        if (c && __atomic_load_n(&c->alive, __ATOMIC_ACQUIRE) && sde_kind_of(c) != SDE_PLACEHOLDER)
            return __atomic_load_n(&c->id, __ATOMIC_ACQUIRE);
    }
    return -1;
}

/* "LIB::COUNTER" with both parts names libsde accepts. */
static int full_sde_name_ok(const char *name)
{
    const char *sep = strstr(name, "::");
    return sep && sep != name && sep[2] && strlen(name) <= SDE_PAPI_NAME_MAX &&
           sde_name_ok("the event name", name) == SDE_OK;
}

/* The counter of that name, or a placeholder that its library's registration will
 * fill (PAPI may name an event before the library registers it, as PAPI 7 allows). */
static int registry_find(const char *name)
{
    if (!name || !full_sde_name_ok(name))
        return -1;
    sde_lock();
    struct sde_counter *c = sde_find_locked(name);
    struct sde_counter proto = {.kind = SDE_PLACEHOLDER, .type = PAPI_SDE_long_long};
    if (!c && sde_new_counter(name, &proto, &c) != SDE_OK)
        c = NULL;
    int id = c ? c->id : -1;
    sde_unlock();
    return id;
}

/* The name or description of a live counter, copied under the lock. */
static int registry_text(int id, char *out, size_t len, int description)
{
    if (!out || !len)
        return SDE_ENOEVNT;
    sde_lock();
    struct sde_counter *c = sde_counter_of(id);
    int live = c && __atomic_load_n(&c->alive, __ATOMIC_ACQUIRE);
    if (live)
        snprintf(out, len, "%s", description ? (c->desc ? c->desc : "") : c->name);
    sde_unlock();
    return live ? SDE_OK : SDE_ENOEVNT;
}

static int registry_name(int id, char *out, size_t len)
{
    return registry_text(id, out, len, 0);
}

static int registry_describe(int id, char *out, size_t len)
{
    return registry_text(id, out, len, 1);
}

static long long registry_key(int id)
{
    return sde_key_of_id(id);
}

static int registry_read_key(long long key, struct sde_reading *out)
{
    int id = sde_id_of_key(key);
    return id < 0 ? SDE_ENOEVNT : sde_read_counter(id, out);
}

const struct sde_registry_api sde_registry = {
    .version = SDE_REGISTRY_VERSION,
    .next = registry_next,
    .find = registry_find,
    .name = registry_name,
    .describe = registry_describe,
    .read = sde_read_counter,
};

const struct sde_registry_keys sde_registry_keys = {
    .key = registry_key,
    .read_key = registry_read_key,
};
