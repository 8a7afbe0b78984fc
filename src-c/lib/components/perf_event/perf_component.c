/* perf_component.c: the perf_event component's two instances, "perf_event" (core and
 * software PMUs, per thread) and "perf_event_uncore" (uncore PMUs, per CPU): their
 * availability probe, their PAPI_component_info_t and their event naming. Moved here
 * from core/library_init.c (component_init, fill_counts) and events/event_codes.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "perf_context.h"
#include "hybrid_sets.h"
#include "native_pfm.h"
#include "perf_read.h"
#include "pmu_access.h"
#include "perf_user_read.h"
#include "perf_mhz.h"
#include "perf_clone_watch.h"
#include "hwinfo.h"
#include "sysfs_pmus.h"

/* Whether this machine has several core types: its event sets are then hybrid_sets.c's
 * (found at each probe; the callbacks below never change). */
static bool hybrid_sets;

static char *perf_pmu_names[] = {"perf", "perf_raw", NULL};

/* The library's lifecycle (papi_sdk.h): the native table goes at shutdown, except in a
 * forked child, which keeps its parent's (same machine, pages still shared). */
static void pe_lifecycle(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN && !ev->keep_machine)
        native_shutdown();
}

static int pe_probe(struct papi_component *self, struct cmp_status *st)
{
    hwinfo_mhz_meter = perf_measure_mhz; /* hwinfo asks only where nothing publishes the clock */
    memset(st, 0, sizeof *st);
    int ret = papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, pe_lifecycle);
    if (ret != PAPI_OK)
        return ret;
    if (pe_class_of(self) == PE_CORE) {
        pmu_access_probe(&g_pmu);
        hybrid_sets = native_is_hybrid(); /* several core types: slots summed over them */
        papi_strcpy(st->reason, sizeof st->reason, g_pmu.reason);
        /* Software events still count when the hardware is missing; only a refusal of
         * perf_event_open itself (seccomp, perf_event_paranoid, no perf events in the
         * kernel) disables the component. */
        if (g_pmu.sw_errno)
            st->disabled = g_pmu.sw_errno == ENOSYS ? PAPI_ENOSUPP : PAPI_EPERM;
        return PAPI_OK;
    }
    /* Uncore PMUs are known only once libpfm4 is loaded (lazily): fill_info enables. */
    st->disabled = PAPI_ECMP_DISABLED;
    papi_strcpy(st->reason, sizeof st->reason, "No uncore PMU is known to libpfm4 on this machine");
    return PAPI_OK;
}

static void common_info(PAPI_component_info_t *c)
{
    struct utsname u;
    papi_strcpy(c->version, sizeof c->version, "7.0.0");
    snprintf(c->support_version, sizeof c->support_version, "libpfm4");
    if (uname(&u) == 0)
        papi_strcpy(c->kernel_version, sizeof c->kernel_version, u.release);
    c->default_domain = PAPI_DOM_USER;
    c->available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
    c->default_granularity = PAPI_GRN_THR;
    c->available_granularities = PAPI_GRN_THR | PAPI_GRN_PROC | PAPI_GRN_SYS;
    c->hardware_intr_sig = SIGRTMIN + 2;
    c->kernel_multiplex = 1;
    c->fast_real_timer = 1;
    c->fast_virtual_timer = 1;
    c->attach = 1;
    c->attach_must_ptrace = 1; /* as PAPI 7: attach tests stop their target with ptrace first */
    c->cpu = 1;
    c->inherit = 1;
    c->cntr_umasks = 1;
    c->grouped_cntrs = 1;
    c->multiplex_timer_us = 10000;
    c->num_mpx_cntrs = 128;
}

/* The core PMUs after libpfm4's generic ones: libpfm4's model name where it knows the
 * CPU, else the kernel's core PMUs (both core types of a hybrid machine). */
static void core_pmu_names(PAPI_component_info_t *c)
{
    static char sysfs_names[NATIVE_MAX_CORE_TYPES][64];
    int k = c->pmu_names[1] ? 2 : 1;
    if (native_pfm_knows_core()) {
        c->pmu_names[k] = (char *)native_core_pmu_name();
        return;
    }
    for (int i = 0, n = sysfs_pmu_count(), j = 0; i < n && j < NATIVE_MAX_CORE_TYPES; i++) {
        const struct sysfs_pmu *p = sysfs_pmu_brief(i);
        if (p->kind != SYSFS_PMU_CORE || k >= PAPI_PMU_MAX)
            continue;
        papi_strcpy(sysfs_names[j], sizeof sysfs_names[j], p->name);
        c->pmu_names[k++] = sysfs_names[j++];
    }
}

static void pe_fill_info(const struct papi_component *self, PAPI_component_info_t *c)
{
    common_info(c);
    if (pe_class_of(self) == PE_UNCORE) {
        papi_strcpy(c->name, sizeof c->name, "perf_event_uncore");
        papi_strcpy(c->short_name, sizeof c->short_name, "peu");
        papi_strcpy(c->description, sizeof c->description,
                    "Linux perf_event uncore (socket-level) counters");
        c->default_granularity = PAPI_GRN_SYS;
        c->available_granularities = PAPI_GRN_SYS;
        if (c->num_native_events == 0)
            c->num_native_events = native_count_for_class(PE_UNCORE);
        if (c->num_native_events > 0 && c->disabled == PAPI_ECMP_DISABLED) {
            c->disabled = 0;
            c->disabled_reason[0] = '\0';
        }
        return;
    }
    papi_strcpy(c->name, sizeof c->name, "perf_event");
    papi_strcpy(c->short_name, sizeof c->short_name, "perf");
    papi_strcpy(c->description, sizeof c->description,
                "Linux perf_event CPU counters and software events");
    c->hardware_intr = g_pmu.hw_open_works;
    /* User-space reads (rdpmc, arm64 user access) of the calling thread's hardware
     * events, when the kernel allows them and PAPI_USER_READ is not 0. */
    c->fast_counter_read = PERF_USER_READ_ARCH && g_pmu.hw_open_works && g_pmu.user_read_allowed;
    c->pmu_names[0] = perf_pmu_names[0];
    /* With only software PMUs, libpfm4 is limited to "perf" (native_events.c). */
    if (!g_pmu.software_pmus_only)
        c->pmu_names[1] = perf_pmu_names[1];
    core_pmu_names(c);
    if (c->num_native_events == 0)
        c->num_native_events = native_count_for_class(PE_CORE);
    /* Counters are claimed only when a hardware event really opens. */
    if (g_pmu.hw_open_works)
        c->num_cntrs = c->num_mpx_cntrs = native_core_counters();
}

static const char *pe_preset_pmu(const struct papi_component *self)
{
    return pe_class_of(self) == PE_CORE ? native_core_pmu_name() : NULL;
}

/* ---- events ------------------------------------------------------------------------- */

static int pe_name_to_code(const struct papi_component *self, const char *name, int *local)
{
    int idx;
    int ret = native_name_to_code(name, &idx);
    if (ret != PAPI_OK)
        return ret;
    if (native_lookup(idx)->cls != pe_class_of(self))
        return PAPI_ENOEVNT; /* the other instance's: quietly */
    *local = idx;
    return PAPI_OK;
}

static int pe_code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    const struct native_event *e = native_lookup(local);
    if (!e || e->cls != pe_class_of(self))
        return papi_error(PAPI_ENOEVNT, "%s has no native event 0x%x", self->name, (unsigned)local);
    return native_code_to_name(local, out, len);
}

static int pe_enumerate(const struct papi_component *self, int *local, int modifier)
{
    return native_enum(local, modifier, pe_class_of(self));
}

static int pe_event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    const struct native_event *e = native_lookup(local);
    if (!e || e->cls != pe_class_of(self))
        return papi_error(PAPI_ENOEVNT, "%s has no native event 0x%x", self->name, (unsigned)local);
    int ret = native_get_info(local, info);
    if (ret == PAPI_OK) {
        info->component_index = self->cidx;
        info->location = e->cls == PE_UNCORE ? PAPI_LOCATION_UNCORE : PAPI_LOCATION_CORE;
    }
    return ret;
}

static int pe_event_scale(const struct papi_component *self, int local, double *scale, char *unit,
                          size_t len)
{
    const struct native_event *e = native_lookup(local);
    if (!e || e->cls != pe_class_of(self))
        return PAPI_ENOEVNT;
    return native_get_scale(local, scale, unit, len);
}

static int pe_query(const struct papi_component *self, int local, int domain)
{
    struct perf_event_attr attr;
    const struct native_event *e = native_lookup(local);
    if (!e || e->cls != pe_class_of(self))
        return papi_error(PAPI_ENOEVNT, "%s has no native event 0x%x", self->name, (unsigned)local);
    return native_encode(local, domain, &attr);
}

/* ---- event-set contexts: perf_context.c's, or those of a wrapper table -------------- */

static int set_create(const struct papi_component *self, const struct cmp_target *t,
                      struct cmp_context **ctx)
{
    if (hybrid_sets && pe_class_of(self) == PE_CORE)
        return pe_hybrid_sets.ctx_create(self, t, ctx);
    return pe_ctx_create(self, t, ctx);
}

static void set_destroy(struct cmp_context *c)
{
    if (c && c->wrap)
        c->wrap->ctx_destroy(c);
    else
        pe_ctx_destroy(c);
}

/* Each callback: the wrapper's when the context names one, else perf_context.c's. */
#define SET_CALL(fn, pe_fn, ...) \
    return c->wrap ? c->wrap->fn(c, __VA_ARGS__) : pe_fn(c, __VA_ARGS__)
static int set_add(struct cmp_context *c, int local, int *slot)
{
    SET_CALL(add, pe_add, local, slot);
}
static int set_remove(struct cmp_context *c, int slot)
{
    SET_CALL(remove, pe_remove, slot);
}
static int set_start(struct cmp_context *c)
{
    return c->wrap ? c->wrap->start(c) : pe_start(c);
}
static int set_stop(struct cmp_context *c)
{
    return c->wrap ? c->wrap->stop(c) : pe_stop(c);
}
static int set_read(struct cmp_context *c, struct cmp_count *out)
{
    SET_CALL(read, pe_read, out);
}
static int set_reset(struct cmp_context *c)
{
    return c->wrap ? c->wrap->reset(c) : pe_reset(c);
}
static int set_overflow(struct cmp_context *c, int slot, uint64_t period)
{
    SET_CALL(set_overflow, pe_set_overflow, slot, period);
}
static int set_arm_overflow(struct cmp_context *c, int slot, int signo, pid_t tid, int *source)
{
    SET_CALL(arm_overflow, pe_arm_overflow, slot, signo, tid, source);
}
static int set_retune_overflow(const struct cmp_context *c, int slot, uint64_t period)
{
    SET_CALL(retune_overflow, pe_retune_overflow, slot, period);
}
static int set_counts_ns(const struct cmp_context *c, int slot)
{
    SET_CALL(counts_ns, pe_counts_ns, slot);
}
static int set_sampling(struct cmp_context *c, int slot, uint64_t period)
{
    SET_CALL(set_sampling, pe_set_sampling, slot, period);
}
static int set_arm_sampling(struct cmp_context *c, int slot, cmp_sample_fn fn, void *arg)
{
    SET_CALL(arm_sampling, pe_arm_sampling, slot, fn, arg);
}

/* read_values is pe_read_values itself, PAPI_read's hot path: a wrapped context, never
 * started, reaches its slow path, which hands it on. */
#define PE_CALLBACKS                                                                             \
    .probe = pe_probe, .fill_info = pe_fill_info, .preset_pmu = pe_preset_pmu,                   \
    .name_to_code = pe_name_to_code, .code_to_name = pe_code_to_name, .enumerate = pe_enumerate, \
    .event_info = pe_event_info, .query = pe_query, .event_scale = pe_event_scale,               \
    .ctx_create = set_create, .ctx_destroy = set_destroy, .add = set_add, .remove = set_remove,  \
    .start = set_start, .stop = set_stop, .read = set_read, .read_values = pe_read_values,       \
    .reset = set_reset, .set_overflow = set_overflow, .arm_overflow = set_arm_overflow,          \
    .retune_overflow = set_retune_overflow, .counts_ns = set_counts_ns,                          \
    .set_sampling = set_sampling, .arm_sampling = set_arm_sampling, .clone_watch = pe_clone_watch

struct papi_component perf_event_component PAPI_INTERNAL = {
    .name = "perf_event", .instance = (void *)(intptr_t)PE_CORE, PE_CALLBACKS};
struct papi_component perf_event_uncore_component PAPI_INTERNAL = {
    .name = "perf_event_uncore", .instance = (void *)(intptr_t)PE_UNCORE, PE_CALLBACKS};
