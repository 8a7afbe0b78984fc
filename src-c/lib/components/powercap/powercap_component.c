/* powercap_component.c: the powercap component (component.h) over the zones that
 * powercap_zones.c finds. Energy counters are system-wide (a socket's energy, whoever
 * spends it): a slot counts the microjoules consumed while its set runs, from the
 * difference between readings at start and now, unwrapped through max_energy_range_uj.
 * Limits, ranges and windows are instantaneous values (PAPI_VALUETYPE_ABSOLUTE). The core
 * reports a slot's count minus its count at PAPI_start, so an absolute slot counts as
 * (its count frozen at the last stop) + (the value now): PAPI_read then gives the value
 * now. One descriptor per zone counter of a slot (a sum has one per member zone, each
 * unwrapped on its own), kept open, re-read with pread. Zones whose energy cannot be
 * read are left out with the reason (the component's caveat); a sum asked for that is
 * not offered, or any event of a disabled component, is refused with its reason. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "component.h"
#include "fsroot.h"
#include "powercap_zones.h"

#define POWERCAP_PREFIX "powercap:::"

static struct powercap_tree tree; /* filled by probe, emptied by shutdown */
static char disabled_why[1024];   /* the probe's reason when disabled, else "" */

struct powercap_slot {
    int event; /* index in tree.events */
    int nfd;   /* 1, or a sum's members */
    int fd[POWERCAP_MAX_MEMBERS];
    uint64_t start_raw[POWERCAP_MAX_MEMBERS]; /* energy_uj at start (running energy slots) */
    uint64_t counted; /* energy: uJ of earlier start..stop periods; absolute: the
                           count frozen at the stop before the last start */
    uint64_t at_stop; /* absolute: the value read at the last stop */
    uint64_t ns;      /* ns of earlier start..stop periods */
};

struct cmp_context {
    struct powercap_slot *slots;
    int nslots;
    int running;
    uint64_t start_ns;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

static void close_slot(struct powercap_slot *s)
{
    for (int j = 0; j < s->nfd; j++)
        close(s->fd[j]);
}

/* A failed reading of a slot: the member's file and, for a reading above its range,
 * the value and the range (the reason names all three). */
struct slot_fail {
    const char *path;
    uint64_t value, range;
};

/* Why a read failed: PAPI_ESYS, with the reason naming the file (and the values). */
static int read_error(int r, const struct slot_fail *f)
{
    if (r == -EINVAL)
        return papi_error(PAPI_ESYS, "cannot read %s: not a number", f->path);
    if (r == -EOVERFLOW)
        return papi_error(PAPI_ESYS,
                          "cannot read %s: %llu uJ is above its max_energy_range_uj %llu uJ, "
                          "which the counter never passes (a driver or firmware fault): no "
                          "energy can be counted from it",
                          f->path, (unsigned long long)f->value, (unsigned long long)f->range);
    if (r == -ERANGE)
        return papi_error(PAPI_ESYS,
                          "cannot read %s: the counter went back and the zone has no "
                          "max_energy_range_uj to undo a wrap with (or the value is too large)",
                          f->path);
    return papi_error(PAPI_ESYS, "cannot read %s: %s", f->path, strerror(-r));
}

/* The slot's value now: the energy since start_raw (each member unwrapped, summed) or
 * the setting. 0 or -errno with *f the member that failed (-EOVERFLOW: a reading above
 * the counter's range, which no wrap explains). Async-signal-safe. */
static int slot_now(const struct powercap_slot *s, uint64_t *raw, uint64_t *value,
                    struct slot_fail *f)
{
    uint64_t sum = 0;
    for (int j = 0; j < s->nfd; j++) {
        f->path = member(s->event, j)->path;
        int r = powercap_read_fd(s->fd[j], &raw[j]);
        if (r < 0)
            return r;
        uint64_t range = member(s->event, j)->max_energy_uj;
        if (!is_energy(s->event))
            continue;
        if (range && raw[j] > range) { /* start_raw passed this test at start */
            f->value = raw[j];
            f->range = range;
            return -EOVERFLOW;
        }
        if (powercap_unwrappable(s->start_raw[j], raw[j], range))
            return -ERANGE; /* went back, and no range to undo the wrap with */
        sum += powercap_energy_delta(s->start_raw[j], raw[j], range);
    }
    *value = is_energy(s->event) ? sum : raw[0];
    return 0;
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

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    (void)self, (void)target; /* energy is system-wide: any target sees the same zones */
    *ctx = calloc(1, sizeof **ctx);
    return *ctx ? PAPI_OK : papi_error(PAPI_ENOMEM, "no memory for a powercap context");
}

static void ctx_destroy(struct cmp_context *ctx)
{
    if (!ctx)
        return;
    for (int i = 0; i < ctx->nslots; i++)
        close_slot(&ctx->slots[i]);
    free(ctx->slots);
    free(ctx);
}

static int add(struct cmp_context *ctx, int local, int *slot)
{
    if (!valid_local(local))
        return papi_error(PAPI_ENOEVNT, "powercap has no event %d", local);
    struct powercap_slot s = {.event = local};
    int n = tree.events[local].nmembers ? tree.events[local].nmembers : 1;
    for (; s.nfd < n; s.nfd++) {
        const char *path = member(local, s.nfd)->path;
        s.fd[s.nfd] = fsroot_open_file(path, O_RDONLY);
        if (s.fd[s.nfd] < 0) {
            int e = errno;
            close_slot(&s);
            return papi_error(e == EACCES ? PAPI_EPERM : PAPI_ESYS, "cannot open %s: %s", path,
                              strerror(e));
        }
    }
    struct powercap_slot *grown = realloc(ctx->slots, (size_t)(ctx->nslots + 1) * sizeof *grown);
    if (!grown) {
        close_slot(&s);
        return papi_error(PAPI_ENOMEM, "no memory for a powercap slot");
    }
    ctx->slots = grown;
    ctx->slots[ctx->nslots] = s;
    *slot = ctx->nslots++;
    return PAPI_OK;
}

static int remove_slot(struct cmp_context *ctx, int slot)
{
    if (slot < 0 || slot >= ctx->nslots)
        return papi_error(PAPI_EINVAL, "powercap context has no slot %d", slot);
    close_slot(&ctx->slots[slot]);
    memmove(&ctx->slots[slot], &ctx->slots[slot + 1],
            (size_t)(ctx->nslots - slot - 1) * sizeof *ctx->slots);
    ctx->nslots--;
    return PAPI_OK;
}

/* Every slot's raw member readings and value now, in new arrays (the caller frees
 * raw), or NULL with *err; nothing in ctx changes. */
static uint64_t (*values_now(const struct cmp_context *ctx, uint64_t **value,
                             int *err))[POWERCAP_MAX_MEMBERS]
{
    uint64_t(*raw)[POWERCAP_MAX_MEMBERS] = calloc((size_t)ctx->nslots + 1, sizeof *raw);
    *value = calloc((size_t)ctx->nslots + 1, sizeof **value);
    if (!raw || !*value) {
        free(raw);
        free(*value);
        *err = papi_error(PAPI_ENOMEM, "no memory to read powercap counters");
        return NULL;
    }
    for (int i = 0; i < ctx->nslots; i++) {
        struct slot_fail f = {"", 0, 0};
        int r = slot_now(&ctx->slots[i], raw[i], &(*value)[i], &f);
        if (r < 0) {
            *err = read_error(r, &f);
            free(raw);
            free(*value);
            return NULL;
        }
    }
    return raw;
}

static int start(struct cmp_context *ctx)
{
    int err;
    uint64_t *value;
    uint64_t(*raw)[POWERCAP_MAX_MEMBERS] = values_now(ctx, &value, &err);
    if (!raw)
        return err;
    for (int i = 0; i < ctx->nslots; i++) {
        struct powercap_slot *s = &ctx->slots[i];
        memcpy(s->start_raw, raw[i], sizeof s->start_raw);
        if (!is_energy(s->event)) {
            s->counted += s->at_stop;
            s->at_stop = 0;
        }
    }
    ctx->start_ns = now_ns();
    ctx->running = 1;
    free(raw);
    free(value);
    return PAPI_OK;
}

static int stop(struct cmp_context *ctx)
{
    int err;
    uint64_t *value;
    uint64_t(*raw)[POWERCAP_MAX_MEMBERS] = values_now(ctx, &value, &err);
    if (!raw)
        return err;
    uint64_t ns = now_ns() - ctx->start_ns;
    for (int i = 0; i < ctx->nslots; i++) {
        struct powercap_slot *s = &ctx->slots[i];
        if (is_energy(s->event))
            s->counted += value[i];
        else
            s->at_stop = value[i];
        s->ns += ns;
    }
    ctx->running = 0;
    free(raw);
    free(value);
    return PAPI_OK;
}

/* The hot path: one pread per zone counter of a running set, nothing written to ctx. */
static int read_slots(struct cmp_context *ctx, struct cmp_count *out)
{
    uint64_t ns = ctx->running ? now_ns() - ctx->start_ns : 0;
    for (int i = 0; i < ctx->nslots; i++) {
        const struct powercap_slot *s = &ctx->slots[i];
        uint64_t v = 0, raw[POWERCAP_MAX_MEMBERS];
        if (ctx->running) {
            struct slot_fail f = {"", 0, 0};
            int r = slot_now(s, raw, &v, &f);
            if (r < 0)
                return read_error(r, &f);
        } else if (!is_energy(s->event)) {
            v = s->at_stop;
        }
        out[i].value = s->counted + v;
        out[i].time_enabled = out[i].time_running = s->ns + ns;
    }
    return PAPI_OK;
}

/* The instance the registry lists (components/registry.c). */
struct papi_component powercap_component PAPI_INTERNAL = {
    .name = "powercap",
    .probe = probe,
    .fill_info = fill_info,
    .name_to_code = name_to_code,
    .code_to_name = code_to_name,
    .enumerate = enumerate,
    .event_info = event_info,
    .query = query,
    .event_scale = event_scale,
    .ctx_create = ctx_create,
    .ctx_destroy = ctx_destroy,
    .add = add,
    .remove = remove_slot,
    .start = start,
    .stop = stop,
    .read = read_slots,
};
