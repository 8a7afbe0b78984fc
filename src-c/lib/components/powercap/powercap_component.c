/* powercap_component.c: the powercap component (component.h) over the zones that
 * powercap_zones.c finds. Energy counters are system-wide (a socket's energy, whoever
 * spends it): a slot counts the microjoules consumed while its set runs, from the
 * difference between readings at start and now, unwrapped through max_energy_range_uj.
 * Limits, ranges and windows are instantaneous values (PAPI_VALUETYPE_ABSOLUTE). The core
 * reports a slot's count minus its count at PAPI_start, so an absolute slot counts as
 * (its count frozen at the last stop) + (the value now): PAPI_read then gives the value
 * now (the slot engine's counting, slot_engine.h; this file is the table and the read
 * function). One descriptor per zone counter of a slot (a sum has one per member zone,
 * each unwrapped on its own), kept open, re-read with pread. Zones whose energy cannot be
 * read are left out with the reason (the component's caveat); a sum asked for that is
 * not offered, or any event of a disabled component, is refused with its reason. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "component.h"
#include "fsroot.h"
#include "powercap_zones.h"
#include "slot_engine.h"

#define POWERCAP_PREFIX "powercap:::"

static struct powercap_tree tree; /* filled by probe, emptied by shutdown */
static char disabled_why[1024];   /* the probe's reason when disabled, else "" */

/* A slot's data (the engine counts it: slot_engine.h): one descriptor per zone counter,
 * and the energy counters' readings at the last start, from which the read function
 * gives the energy since then. */
struct powercap_slot {
    int event; /* index in tree.events */
    int nfd;   /* 1, or a sum's members */
    int fd[POWERCAP_MAX_MEMBERS];
    uint64_t start_raw[POWERCAP_MAX_MEMBERS]; /* energy_uj at start (energy slots) */
};

static int is_energy(int event)
{
    return tree.events[event].attr == POWERCAP_ENERGY_UJ;
}

static int valid_local(int local)
{
    return local >= 0 && local < tree.nevents;
}

/* The zone event whose file is member j of event (itself for a zone's event). */
static const struct powercap_event *member(int event, int j)
{
    const struct powercap_event *ev = &tree.events[event];
    return ev->nmembers ? &tree.events[ev->member[j]] : ev;
}

static void close_fds(struct powercap_slot *s)
{
    for (int j = 0; j < s->nfd; j++)
        close(s->fd[j]);
}

/* Why a read failed: PAPI_ESYS, with the reason naming the member's file (f->where) and,
 * for a reading above its range, the value and the range. */
static int read_error(const struct cmp_context *c, const struct slot_fail *f)
{
    const struct powercap_slot *s = slot_data(c, f->slot);
    const struct powercap_event *m = member(s->event, f->where);
    if (f->err == -EINVAL)
        return papi_error(PAPI_ESYS, "cannot read %s: not a number", m->path);
    if (f->err == -EOVERFLOW)
        return papi_error(PAPI_ESYS,
                          "cannot read %s: %llu uJ is above its max_energy_range_uj %llu uJ, "
                          "which the counter never passes (a driver or firmware fault): no "
                          "energy can be counted from it",
                          m->path, (unsigned long long)f->value,
                          (unsigned long long)m->max_energy_uj);
    if (f->err == -ERANGE)
        return papi_error(PAPI_ESYS,
                          "cannot read %s: the counter went back and the zone has no "
                          "max_energy_range_uj to undo a wrap with (or the value is too large)",
                          m->path);
    return papi_error(PAPI_ESYS, "cannot read %s: %s", m->path, strerror(-f->err));
}

/* The slot's value now: the energy since start_raw (each member unwrapped, summed) or
 * the setting; the members' readings in raw. 0 or -errno with f->where the member that
 * failed (-EOVERFLOW: a reading above the counter's range, which no wrap explains).
 * Async-signal-safe. */
static int slot_now(const struct powercap_slot *s, uint64_t *raw, uint64_t *value,
                    struct slot_fail *f)
{
    uint64_t sum = 0;
    for (int j = 0; j < s->nfd; j++) {
        f->where = j;
        int r = powercap_read_fd(s->fd[j], &raw[j]);
        if (r < 0)
            return r;
        uint64_t range = member(s->event, j)->max_energy_uj;
        if (!is_energy(s->event))
            continue;
        if (range && raw[j] > range) { /* start_raw passed this test at start */
            f->value = raw[j];
            return -EOVERFLOW;
        }
        if (powercap_unwrappable(s->start_raw[j], raw[j], range))
            return -ERANGE; /* went back, and no range to undo the wrap with */
        sum += powercap_energy_delta(s->start_raw[j], raw[j], range);
    }
    *value = is_energy(s->event) ? sum : raw[0];
    return 0;
}

/* The read function: an energy slot's energy since start (0 at start, which takes the
 * members' readings), an absolute slot's setting, for slots from .. from + n - 1. One
 * pread per zone counter. */
static int read_slots(struct cmp_context *c, enum slot_phase phase, int from, int n,
                      uint64_t *value, struct slot_fail *f)
{
    for (int i = 0; i < n; i++) {
        struct powercap_slot *s = slot_data(c, from + i);
        uint64_t raw[POWERCAP_MAX_MEMBERS];
        f->slot = from + i;
        if ((f->err = slot_now(s, raw, &value[i], f)) < 0)
            return PAPI_ESYS;
        if (phase == SLOT_START) {
            memcpy(s->start_raw, raw, sizeof s->start_raw);
            if (is_energy(s->event))
                value[i] = 0;
        }
    }
    return PAPI_OK;
}

/* The library's lifecycle (papi_sdk.h): the zones are found again at the next probe, in
 * a forked child too (the tree is small, and zones may come and go). */
static void powercap_lifecycle(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN)
        powercap_tree_free(&tree);
}

static int probe(struct papi_component *self, struct cmp_status *out)
{
    int ret = papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, powercap_lifecycle);
    if (ret != PAPI_OK)
        return ret;
    (void)self;
    powercap_tree_free(&tree);
    char dir[512];
    out->disabled = powercap_dir(dir, sizeof dir, out->reason, sizeof out->reason);
    if (!out->disabled)
        out->disabled = powercap_discover(dir, &tree, out->reason, sizeof out->reason);
    out->num_counters = out->disabled ? 0 : tree.nevents;
    if (!out->disabled && tree.note[0]) /* the caveat: what was left out */
        snprintf(out->reason, sizeof out->reason, "%s", tree.note);
    papi_strcpy(disabled_why, sizeof disabled_why, out->disabled ? out->reason : "");
    return out->disabled;
}

static void fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    snprintf(info->name, sizeof info->name, "%s", self->name);
    snprintf(info->short_name, sizeof info->short_name, "%s", self->name);
    snprintf(info->description, sizeof info->description,
             "Linux powercap energy counters and power limits (intel-rapl zones, Intel "
             "and AMD; sums per kind of zone)");
    info->num_native_events = info->disabled ? 0 : tree.nevents;
    info->num_cntrs = info->num_mpx_cntrs = info->num_native_events;
    info->default_domain = info->available_domains = PAPI_DOM_ALL;
    info->default_granularity = info->available_granularities = PAPI_GRN_SYS;
}

static int name_to_code(const struct papi_component *self, const char *name, int *local)
{
    (void)self;
    if (strncmp(name, POWERCAP_PREFIX, strlen(POWERCAP_PREFIX)) == 0)
        name += strlen(POWERCAP_PREFIX);
    for (int i = 0; i < tree.nevents; i++)
        if (strcmp(name, tree.events[i].name) == 0) {
            *local = i;
            return PAPI_OK;
        }
    if (strncmp(name, "ENERGY_UJ:", 10) != 0 || (!disabled_why[0] && !tree.events))
        return PAPI_ENOEVNT; /* quietly: the core asks every component */
    if (disabled_why[0])     /* one of ours, on a machine where energy cannot be read */
        return papi_error(PAPI_ENOEVNT, "powercap is disabled: %s", disabled_why);
    for (int k = 0; k < POWERCAP_NUM_KINDS; k++) {
        const char *kn = powercap_kind_name((enum powercap_kind)k);
        size_t n = strlen(kn);
        if (strncmp(name + 10, kn, n) != 0 || (name[10 + n] && strncmp(name + 10 + n, ":PKG", 4)))
            continue;
        if (tree.sum_why[k][0])
            return papi_error(PAPI_ENOEVNT, "not offered on this machine: %s", tree.sum_why[k]);
        return papi_error(PAPI_ENOEVNT,
                          "not offered on this machine: no such package, or (TOTAL, PSYS) a "
                          "psys zone covers the platform, which is not split by package");
    }
    return PAPI_ENOEVNT;
}

static int code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    (void)self;
    if (!valid_local(local))
        return papi_error(PAPI_ENOEVNT, "powercap has no event %d", local);
    snprintf(out, len, POWERCAP_PREFIX "%s", tree.events[local].name);
    return PAPI_OK;
}

static int enumerate(const struct papi_component *self, int *local, int modifier)
{
    (void)self;
    if (modifier == PAPI_ENUM_FIRST) {
        if (tree.nevents == 0)
            return PAPI_ENOEVNT;
        *local = 0;
        return PAPI_OK;
    }
    if (modifier == PAPI_ENUM_EVENTS) {
        if (!valid_local(*local + 1))
            return PAPI_ENOEVNT;
        (*local)++;
        return PAPI_OK;
    }
    return PAPI_ENOEVNT; /* no qualifiers (umasks) on powercap events */
}

static int event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    if (!valid_local(local))
        return papi_error(PAPI_ENOEVNT, "powercap has no event %d", local);
    const struct powercap_event *ev = &tree.events[local];
    snprintf(info->symbol, sizeof info->symbol, POWERCAP_PREFIX "%s", ev->name);
    snprintf(info->short_descr, sizeof info->short_descr, "%.63s", ev->description);
    snprintf(info->long_descr, sizeof info->long_descr, "%s", ev->description);
    snprintf(info->units, sizeof info->units, "%s", ev->units);
    info->component_index = self->cidx;
    info->data_type = PAPI_DATATYPE_UINT64;
    info->value_type = is_energy(local) ? PAPI_VALUETYPE_RUNNING_SUM : PAPI_VALUETYPE_ABSOLUTE;
    info->timescope = is_energy(local) ? PAPI_TIMESCOPE_SINCE_START : PAPI_TIMESCOPE_POINT;
    return PAPI_OK;
}

/* Energy in Joules for the named metrics (counts stay in uJ in event sets). */
static int event_scale(const struct papi_component *self, int local, double *scale, char *unit,
                       size_t len)
{
    (void)self;
    if (!valid_local(local) || !is_energy(local))
        return PAPI_ENOEVNT;
    *scale = 1e-6;
    snprintf(unit, len, "J");
    return PAPI_OK;
}

static int query(const struct papi_component *self, int local, int domain)
{
    (void)self, (void)domain;
    return valid_local(local) ? PAPI_OK : PAPI_ENOEVNT;
}

static void close_slot(struct cmp_context *c, void *data)
{
    (void)c;
    close_fds(data);
}

static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    (void)c;
    if (!valid_local(local))
        return papi_error(PAPI_ENOEVNT, "powercap has no event %d", local);
    struct powercap_slot *s = data;
    s->event = local;
    int n = tree.events[local].nmembers ? tree.events[local].nmembers : 1;
    for (; s->nfd < n; s->nfd++) {
        const char *path = member(local, s->nfd)->path;
        s->fd[s->nfd] = fsroot_open_file(path, O_RDONLY);
        if (s->fd[s->nfd] < 0) {
            int e = errno;
            close_fds(s);
            return papi_error(e == EACCES ? PAPI_EPERM : PAPI_ESYS, "cannot open %s: %s", path,
                              strerror(e));
        }
    }
    kind->instant = !is_energy(local); /* energy: the read function unwraps it */
    return PAPI_OK;
}

static const struct slot_ops powercap_ops = {
    .slot_size = sizeof(struct powercap_slot),
    .lost = SLOT_LOST_FAILS,
    .open = open_slot,
    .close = close_slot,
    .read = read_slots,
    .explain = read_error,
};

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    (void)target; /* energy is system-wide: any target sees the same zones */
    return slot_ctx_create(self, &powercap_ops, "powercap", ctx);
}

/* The instance the registry lists (components/registry.c). */
struct papi_component powercap_component PAPI_INTERNAL = {
    .name = "powercap",
    SLOT_COMPONENT_CALLBACKS,
    .event_scale = event_scale,
};
