/* test_hybrid: hybrid core PMUs (cpu_core + cpu_atom), white box.
 *
 * On the recorded hybrid client (PAPI_FSROOT=tests/machines/mtl_hybrid, set by ctest):
 *  - names without a PMU resolve to one event per core PMU: "instructions" (libpfm4's
 *    generic event: the PMU type in config bits 32-63), raw fields "event=0xc0,umask=0x0"
 *    and "topdown-retiring" (sysfs events both PMUs have, with their own encodings); an
 *    event only one core type has (topdown-heavy-ops) is refused with the reason;
 *  - PAPI_start's scheduling check, fed the read results of a context: a group that was
 *    enabled and did not run is a conflict, except for a group of the core type the
 *    thread is not on (cpu_atom's while on CPU 0, cpu_core's while on CPU 12);
 *  - the component lists both core PMUs.
 * Then on this machine (no replay): a context of the summing event-set table
 * (pe_hybrid_sets, constant), driven through the perf_event component's own callbacks,
 * counts a slot made of two software events (page faults and minor faults: 2N for N
 * fresh pages) next to a plain slot, through read, accum, remove; overflow on a summed
 * slot is refused with the reason; PAPI_reset and ring sampling are refused quietly
 * (PAPI_ENOSUPP: the core then moves its baselines, profiling takes the signals), where
 * perf_context.c's reset and sampling once read the summing context as their own. */
#include <linux/perf_event.h>

#include "events.h"
#include "papi_globals.h"
#include "perf_context.h"
#include "hybrid_sets.h"
#include "papi_test.h"

extern struct papi_component perf_event_component;

/* The per-core-PMU events name resolves to, as (type, config) pairs in PMU name order. */
static int resolve(const char *name, unsigned *type, unsigned long long *config, int max)
{
    int code;
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK)
        return -1;
    int subs[NATIVE_MAX_CORE_TYPES];
    int n = native_hybrid_subs(cmp_local(code), subs, NATIVE_MAX_CORE_TYPES);
    for (int i = 0; i < n && i < max; i++) {
        const struct native_event *e = native_lookup(subs[i]);
        type[i] = e->attr.type;
        config[i] = e->attr.config;
        printf("%-24s -> %-40s type %u config 0x%llx\n", name, e->name, type[i], config[i]);
    }
    return n;
}

static void expect_pair(const char *name, unsigned t0, unsigned long long c0, unsigned t1,
                        unsigned long long c1)
{
    unsigned type[4];
    unsigned long long config[4];
    int n = resolve(name, type, config, 4);
    CHECK(n == 2, "%s: %d events, want one per core PMU (2): %s", name, n, papi_last_error_detail());
    if (n == 2)
        CHECK(type[0] == t0 && config[0] == c0 && type[1] == t1 && config[1] == c1,
              "%s: (%u, 0x%llx) (%u, 0x%llx), want (%u, 0x%llx) (%u, 0x%llx)", name, type[0],
              config[0], type[1], config[1], t0, c0, t1, c1);
}

/* One group per leader attr; read results before and now as a context would read them. */
static int unscheduled(const struct perf_event_attr *lead, uint64_t ran_before,
                       uint64_t ran_now, int cpu)
{
    struct pe_event ev;
    struct pe_group grp = {.leader = 0, .nmembers = 1};
    struct cmp_context ctx;
    memset(&ev, 0, sizeof ev);
    memset(&ctx, 0, sizeof ctx);
    ev.attr = *lead;
    ctx.ev = &ev;
    ctx.grp = &grp;
    ctx.n = ctx.ngrp = 1;
    struct cmp_count before = {0, 1000, ran_before}, now = {0, 2000, ran_now};
    return pe_group_unscheduled(&ctx, 0, &before, &now, cpu);
}

static void replayed_hybrid(void)
{
    /* cpu_core is type 4 (cpus 0-11), cpu_atom type 10 (cpus 12-21) in mtl_hybrid. */
    expect_pair("instructions", PERF_TYPE_HARDWARE, 1ULL | 10ULL << 32, PERF_TYPE_HARDWARE,
                1ULL | 4ULL << 32);
    expect_pair("event=0xc0,umask=0x0", 10, 0xc0, 4, 0xc0);
    expect_pair("topdown-retiring", 10, 0xc2, 4, 0x8000);
    int code;
    CHECK_RET(PAPI_event_name_to_code("topdown-heavy-ops", &code), PAPI_ENOEVNT);
    CHECK(strstr(papi_last_error_detail(), "cpu_atom lacks it") != NULL, "reason: %s",
          papi_last_error_detail());
    /* A PMU-qualified name stays one event. */
    unsigned type[4];
    unsigned long long config[4];
    CHECK(resolve("cpu_atom::instructions", type, config, 4) == 0, "cpu_atom::instructions summed");

    struct perf_event_attr core, atom, generic_atom, soft;
    memset(&core, 0, sizeof core);
    atom = generic_atom = soft = core;
    core.type = 4;
    core.config = 0xc0;
    atom.type = 10;
    atom.config = 0xc0;
    generic_atom.type = PERF_TYPE_HARDWARE;
    generic_atom.config = 1ULL | 10ULL << 32;
    soft.type = 8; /* msr: not a core PMU */
    CHECK(!unscheduled(&atom, 100, 100, 0), "cpu_atom group idle while on P-core CPU 0: conflict");
    CHECK(!unscheduled(&generic_atom, 100, 100, 3), "generic event on cpu_atom idle on CPU 3");
    CHECK(unscheduled(&atom, 100, 100, 12), "cpu_atom group idle on E-core CPU 12: no conflict");
    CHECK(unscheduled(&core, 100, 100, 0), "cpu_core group idle on CPU 0: no conflict");
    CHECK(!unscheduled(&core, 100, 100, 12), "cpu_core group idle on E-core CPU 12: conflict");
    CHECK(!unscheduled(&core, 100, 100, -1), "CPU unknown: idle core-type group called a conflict");
    CHECK(unscheduled(&soft, 100, 100, 0), "msr group idle: no conflict");
    CHECK(!unscheduled(&core, 100, 900, 0), "a group that ran: conflict");

    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    int seen = 0;
    for (int i = 0; c && i < PAPI_PMU_MAX && c->pmu_names[i]; i++)
        seen += !strcmp(c->pmu_names[i], "cpu_core") || !strcmp(c->pmu_names[i], "cpu_atom");
    CHECK(seen == 2, "perf_event's pmu_names do not list cpu_core and cpu_atom");
}

static void live_summing(void)
{
    int pf = 0, minor = 0;
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf) != PAPI_OK ||
        PAPI_event_name_to_code("perf::MINOR-FAULTS", &minor) != PAPI_OK)
        test_skip("perf::PAGE-FAULTS does not resolve here");
    int subs[2] = {cmp_local(pf), cmp_local(minor)};
    int both = native_intern_hybrid("test::faults-summed", subs, 2);
    CHECK(both >= 0, "native_intern_hybrid: %d", both);
    const struct papi_component c = perf_event_component;
    struct cmp_target t = {.domain = PAPI_DOM_USER, .granularity = PAPI_GRN_THR, .cpu = -1};
    struct cmp_context *ctx = NULL;
    int s_sum = -1, s_plain = -1;
    CHECK_RET(pe_hybrid_sets.ctx_create(&c, &t, &ctx), PAPI_OK);
    CHECK_RET(c.add(ctx, cmp_local(pf), &s_plain), PAPI_OK);
    if (c.add(ctx, both, &s_sum) != PAPI_OK)
        test_skip("software events do not open here");
    CHECK(s_plain == 0 && s_sum == 1, "slots %d %d", s_plain, s_sum);
    /* Overflow needs one counter: a summed slot refuses it and says why. */
    CHECK_RET(c.set_overflow(ctx, s_sum, 1000), PAPI_ECNFLCT);
    CHECK(strstr(papi_last_error_detail(), "core types") != NULL, "reason: %s",
          papi_last_error_detail());
    CHECK_RET(c.set_sampling(ctx, s_plain, 1000), PAPI_ENOSUPP);

    struct cmp_count out[2];
    uint64_t base[2];
    long long v[2];
    warm_up();
    CHECK_RET(c.read(ctx, out), PAPI_OK);
    base[0] = out[0].value;
    base[1] = out[1].value;
    CHECK_RET(c.start(ctx), PAPI_OK);
    touch_pages(100);
    CHECK_RET(c.read_values(ctx, out, base, v, 0), PAPI_OK);
    CHECK_EQ_LL(v[0], 100);
    CHECK_EQ_LL(v[1], 200); /* 100 page faults + 100 minor faults */
    CHECK(out[1].time_running <= out[1].time_enabled && out[1].time_enabled > 0,
          "summed times: enabled %llu running %llu", (unsigned long long)out[1].time_enabled,
          (unsigned long long)out[1].time_running);
    v[0] = v[1] = 0;
    touch_pages(50);
    CHECK_RET(c.read_values(ctx, out, base, v, CMP_READ_ACCUM), PAPI_OK);
    CHECK_EQ_LL(v[0], 150);
    CHECK_EQ_LL(v[1], 300);
    CHECK_RET(c.reset(ctx), PAPI_ENOSUPP);
    CHECK_RET(c.stop(ctx), PAPI_OK);
    /* Removing the plain slot shifts the summed one down, still summed. */
    CHECK_RET(c.remove(ctx, 0), PAPI_OK);
    CHECK_RET(c.read(ctx, out), PAPI_OK);
    CHECK_EQ_LL(out[0].value - base[1], 0); /* accum moved the baseline; stopped since */
    c.ctx_destroy(ctx);
}

int main(void)
{
    const char *root = getenv("PAPI_FSROOT");
    if (!root || !*root)
        test_skip("PAPI_FSROOT is not set (ctest sets it to tests/machines/mtl_hybrid)");
    init_or_die();
    replayed_hybrid();
    PAPI_shutdown();
    unsetenv("PAPI_FSROOT");
    init_or_die();
    live_summing();
    PAPI_shutdown();
    return test_done("test_hybrid");
}
