/* sde_papi7.c: the registry (sde_registry.h) over a PAPI 7 libsde that is not ours, e.g.
 * Debian's libsde1 when a library found it before ours (a library linked -lsde without
 * a run path, on a machine with libsde1 installed). PAPI 7's libpapi reads its counters
 * through libsde's tools interface, the sde_ti_* calls; so do we. That interface gives a
 * counter's raw value, its name and description, but not its mode or type: every
 * counter is counted as a PAPI_SDE_DELTA long long (registered, created, callback
 * counters and groups of long long count exactly; an INSTANT or floating-point counter
 * of that libsde does not). An unknown name becomes that libsde's own placeholder. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "sde_lib.h"
#include "sde_papi7.h"

static struct {
    int (*read_counter)(uint32_t id, long long *value);
    int (*name_to_code)(const char *name, uint32_t *id);
    int (*num_events)(void);
    char *(*event_name)(int id);
    char *(*event_description)(int id);
} ti;

static int papi7_next(int id)
{
    int n = ti.num_events();
    for (id = id < 0 ? 0 : id + 1; id < n; id++)
        if (ti.event_name(id))
            return id;
    return -1;
}

static int papi7_find(const char *name)
{
    uint32_t id;
    return name && ti.name_to_code(name, &id) == 0 && id <= INT32_MAX ? (int)id : -1;
}

static int papi7_text(char *(*get)(int), int id, char *out, size_t len)
{
    const char *text = id >= 0 && id < ti.num_events() ? get(id) : NULL;
    if (!text || !out || !len)
        return SDE_ENOEVNT;
    snprintf(out, len, "%s", text);
    return SDE_OK;
}

static int papi7_name(int id, char *out, size_t len)
{
    return papi7_text(ti.event_name, id, out, len);
}

static int papi7_describe(int id, char *out, size_t len)
{
    return papi7_text(ti.event_description, id, out, len);
}

static int papi7_read(int id, struct sde_reading *out)
{
    long long v = 0; /* a placeholder's read leaves it as it was */
    if (id < 0 || !ti.event_name(id) || ti.read_counter((uint32_t)id, &v) != 0)
        return SDE_ENOEVNT;
    out->value = v;
    out->type = PAPI_SDE_long_long;
    out->mode = PAPI_SDE_DELTA;
    return SDE_OK;
}

static const struct sde_registry_api papi7 = {
    .version = SDE_REGISTRY_VERSION,
    .next = papi7_next,
    .find = papi7_find,
    .name = papi7_name,
    .describe = papi7_describe,
    .read = papi7_read,
};

const struct sde_registry_api *sde_papi7_registry(void *handle)
{
#define FIND(field, sym)                             \
    if (!(*(void **)&ti.field = dlsym(handle, sym))) \
        return NULL;
    FIND(read_counter, "sde_ti_read_counter")
    FIND(name_to_code, "sde_ti_name_to_code")
    FIND(num_events, "sde_ti_get_num_reg_events")
    FIND(event_name, "sde_ti_get_event_name")
    FIND(event_description, "sde_ti_get_event_description")
#undef FIND
    return &papi7;
}
