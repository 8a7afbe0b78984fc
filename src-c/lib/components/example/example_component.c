/* example_component.c: the template of a software component (PAPI's habit of a
 * components/example): a table of events and a read function; the contexts and the
 * counting are the slot engine's (../slot_engine.h), the naming callbacks the table's
 * (../event_table.h). It compiles with the library's flags but is not in libpapi:
 * src-c/CMakeLists.txt leaves components/example/ out and registry.c does not list it;
 * tests/components/test_example_component.c drives it. To make a component of it, copy
 * the folder, find your events in example_probe, read your device in read_register, and
 * add one line to registry.c (HACKING.md, "Adding a component").
 *
 * Its device is example_registers[]: a 64-bit counter, a 32-bit counter that wraps, and
 * an instantaneous value (a temperature). The counters count what grew from PAPI_start
 * (the 32-bit one unwrapped once); the temperature reads as it is now, and as it was at
 * PAPI_stop while the set is stopped. */
#include <stdio.h>

#include "event_table.h"
#include "example_component.h"
#include "slot_engine.h"

uint64_t example_registers[EXAMPLE_NREGS] PAPI_INTERNAL;

/* The events, local code = register: name (after "example:::"), what it counts. */
static const struct {
    const char *name, *descr, *units;
    int instant;
    enum slot_growth growth;
} events[EXAMPLE_NREGS] = {
    [EXAMPLE_COUNTER] = {"COUNTER", "A 64-bit counter of the example device", "events", 0,
                         SLOT_U64},
    [EXAMPLE_COUNTER32] = {"COUNTER32", "A 32-bit counter of the example device (wraps)", "events",
                           0, SLOT_U32},
    [EXAMPLE_TEMPERATURE] = {"TEMPERATURE", "The example device's temperature now", "C", 1,
                             SLOT_U64},
};

/* The instance's table (event_table.h): filled at probe, named "example:::NAME". */
static struct table_source source = {
    .prefix = "example:::",
    .description = "The template of a software component (not registered)",
};

/* Find the events (a real component looks in /sys, asks its library ...). A component
 * that finds none is disabled with the reason (out->disabled, out->reason). */
static int example_probe(struct papi_component *self, struct cmp_status *out)
{
    int ret = table_probe_begin(self);
    for (int i = 0; ret == PAPI_OK && i < EXAMPLE_NREGS; i++) {
        struct table_event e = {.name = (char *)events[i].name,
                                .descr = (char *)events[i].descr,
                                .units = events[i].units,
                                .instant = events[i].instant};
        ret = event_table_add(&source.table, &e, sizeof e);
    }
    if (ret != PAPI_OK) {
        out->disabled = ret;
        snprintf(out->reason, sizeof out->reason, "example: no memory for its events");
    }
    table_probe_end(self, out);
    return PAPI_OK;
}

/* ---- the read function and what the engine needs besides ------------------------------ */
/* The registers of slots from .. from + n - 1 now. Async-signal-safe, nothing written
 * (slot_engine.h): on failure only f is filled, and explain gives the reason later. */
static int read_registers(struct cmp_context *c, enum slot_phase phase, int from, int n,
                          uint64_t *raw, struct slot_fail *f)
{
    (void)phase;
    for (int i = 0; i < n; i++) {
        raw[i] = __atomic_load_n(&example_registers[slot_event(c, from + i)], __ATOMIC_RELAXED);
        if (raw[i] == EXAMPLE_NO_ANSWER) {
            *f = (struct slot_fail){.err = 1, .slot = from + i};
            return PAPI_ESYS;
        }
    }
    return PAPI_OK;
}

static int explain(const struct cmp_context *c, const struct slot_fail *f)
{
    return papi_error(PAPI_ESYS, "example:::%s: the device did not answer",
                      events[slot_event(c, f->slot)].name);
}

/* A new slot: the event checked (table_open_slot: a file's path, were there one) and
 * what it counts. */
static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    int ret = table_open_slot(c, local, data);
    if (ret == PAPI_OK)
        *kind =
            (struct slot_kind){.instant = events[local].instant, .growth = events[local].growth};
    return ret;
}

static const struct slot_ops example_ops = {
    TABLE_SLOT_OPS, /* a register that does not answer is refused at PAPI_add_event */
    .lost = SLOT_LOST_FAILS, .open = open_slot, .read = read_registers, .explain = explain,
};

/* The targets it counts: the device's numbers, the same for every thread and CPU. */
static int example_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                              struct cmp_context **ctx)
{
    (void)target;
    return table_ctx_create(self, &example_ops, ctx);
}

/* The instance (registry.c would list it as X(example_component)). */
struct papi_component example_component PAPI_INTERNAL = {
    .name = "example",
    .instance = &source,
    .probe = example_probe,
    TABLE_NAMING_CALLBACKS,
    .ctx_create = example_ctx_create,
    SLOT_ENGINE_CALLBACKS,
};
