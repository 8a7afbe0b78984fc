/* test_example_component: the template component (src-c/lib/components/example/), and
 * through it the slot engine every software component counts with (slot_engine.h),
 * driven by its callbacks (white box, linked to papi_static; the template is compiled
 * into this test, not into libpapi):
 *  - its table: names, enumeration, a name that is not its own refused quietly;
 *  - a 64-bit counter counts what grew from start, frozen while stopped, carried over a
 *    restart; a 32-bit counter that wrapped between start and read counts right;
 *  - an instantaneous value reads as it is now while running and as it was at stop while
 *    stopped; the core's difference from a restart is the value now;
 *  - a register that does not answer: refused at add with the reason; while running,
 *    read() fails quietly (only recorded) and read_reason says which event; the stop
 *    fails and the set still runs, and stops once the register answers again;
 *  - slots shift on remove, 64 at most, times equal (never multiplexed). */
#include <string.h>

#include "component.h"
#include "example_component.h"
#include "papi_test.h"

extern struct papi_component example_component;
static struct papi_component *const pc = &example_component;

static int code_of(const char *name)
{
    int local = -1;
    CHECK(pc->name_to_code(pc, name, &local) == PAPI_OK, "%s is an event", name);
    return local;
}

static struct cmp_context *context(void)
{
    struct cmp_context *ctx = NULL;
    CHECK_RET(pc->ctx_create(pc, &(struct cmp_target){.cpu = -1}, &ctx), PAPI_OK);
    return ctx;
}

static void test_naming(void)
{
    char name[PAPI_MAX_STR_LEN];
    int local = -1, n = 0;
    CHECK_RET(pc->code_to_name(pc, code_of("example:::COUNTER32"), name, sizeof name), PAPI_OK);
    CHECK(!strcmp(name, "example:::COUNTER32"), "name %s", name);
    for (int r = pc->enumerate(pc, &local, PAPI_ENUM_FIRST); r == PAPI_OK;
         r = pc->enumerate(pc, &local, PAPI_ENUM_EVENTS))
        n++;
    CHECK_EQ_LL(n, EXAMPLE_NREGS);
    CHECK_RET(pc->name_to_code(pc, "net:::eth0:rx:bytes", &local), PAPI_ENOEVNT);
}

static void test_counts(void)
{
    struct cmp_context *ctx = context();
    int s0 = -1, s1 = -1, s2 = -1;
    example_registers[EXAMPLE_COUNTER] = 100;
    example_registers[EXAMPLE_COUNTER32] = 0xFFFFFFF0u;
    example_registers[EXAMPLE_TEMPERATURE] = 40;
    CHECK_RET(pc->add(ctx, code_of("example:::COUNTER"), &s0), PAPI_OK);
    CHECK_RET(pc->add(ctx, code_of("example:::COUNTER32"), &s1), PAPI_OK);
    CHECK_RET(pc->add(ctx, code_of("example:::TEMPERATURE"), &s2), PAPI_OK);
    CHECK(s0 == 0 && s1 == 1 && s2 == 2, "slots %d %d %d", s0, s1, s2);
    struct cmp_count v[3];
    CHECK_RET(pc->start(ctx), PAPI_OK);
    example_registers[EXAMPLE_COUNTER] = 150;
    example_registers[EXAMPLE_COUNTER32] = 0x10; /* wrapped once */
    example_registers[EXAMPLE_TEMPERATURE] = 42;
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 50);
    CHECK_EQ_LL(v[1].value, 0x20);
    CHECK_EQ_LL(v[2].value, 42);
    CHECK(v[0].time_enabled == v[0].time_running && v[0].time_enabled > 0, "times");
    example_registers[EXAMPLE_COUNTER] = 170;
    example_registers[EXAMPLE_TEMPERATURE] = 43;
    CHECK_RET(pc->stop(ctx), PAPI_OK);
    example_registers[EXAMPLE_COUNTER] = 500; /* while stopped: not counted */
    example_registers[EXAMPLE_TEMPERATURE] = 99;
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 70);
    CHECK_EQ_LL(v[2].value, 43); /* frozen at stop */
    CHECK_RET(pc->start(ctx), PAPI_OK);
    example_registers[EXAMPLE_COUNTER] = 510;
    example_registers[EXAMPLE_TEMPERATURE] = 45;
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 80);
    CHECK_EQ_LL(v[2].value, 43 + 45); /* the core's count since this start: 45, the value now */
    CHECK_RET(pc->stop(ctx), PAPI_OK);
    CHECK_RET(pc->remove(ctx, 0), PAPI_OK);
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 0x20); /* the later slots moved down */
    CHECK_RET(pc->remove(ctx, 7), PAPI_EINVAL);
    CHECK_RET(pc->add(ctx, 4242, &s0), PAPI_ENOEVNT);
    pc->ctx_destroy(ctx);
}

static void test_no_answer(void)
{
    struct cmp_context *ctx = context();
    int slot = -1;
    example_registers[EXAMPLE_COUNTER] = EXAMPLE_NO_ANSWER;
    CHECK_RET(pc->add(ctx, code_of("example:::COUNTER"), &slot), PAPI_ESYS);
    CHECK(strstr(PAPI_strerror_detail(), "example:::COUNTER: the device did not answer"),
          "add's reason: %s", PAPI_strerror_detail());
    example_registers[EXAMPLE_COUNTER] = 7;
    example_registers[EXAMPLE_TEMPERATURE] = 30;
    CHECK_RET(pc->add(ctx, code_of("example:::TEMPERATURE"), &slot), PAPI_OK);
    CHECK_RET(pc->add(ctx, code_of("example:::COUNTER"), &slot), PAPI_OK);
    CHECK_EQ_LL(slot, 1);
    CHECK_RET(pc->start(ctx), PAPI_OK);
    example_registers[EXAMPLE_COUNTER] = EXAMPLE_NO_ANSWER;
    papi_error(PAPI_OK, "marker: no reason since");
    struct cmp_count v[2];
    CHECK_RET(pc->read(ctx, v), PAPI_ESYS);
    CHECK(!strcmp(PAPI_strerror_detail(), "marker: no reason since"),
          "read() wrote a reason itself: %s", PAPI_strerror_detail());
    pc->read_reason(ctx);
    CHECK(strstr(PAPI_strerror_detail(), "example:::COUNTER: the device did not answer"),
          "read's reason: %s", PAPI_strerror_detail());
    CHECK_RET(pc->stop(ctx), PAPI_ESYS); /* and the set still runs */
    example_registers[EXAMPLE_COUNTER] = 9;
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[1].value, 2);
    CHECK_RET(pc->stop(ctx), PAPI_OK);
    pc->ctx_destroy(ctx);
}

static void test_limit(void)
{
    struct cmp_context *ctx = context();
    int slot = -1, local = code_of("example:::COUNTER");
    example_registers[EXAMPLE_COUNTER] = 1;
    for (int i = 0; i < 64; i++)
        CHECK_RET(pc->add(ctx, local, &slot), PAPI_OK);
    CHECK_EQ_LL(slot, 63);
    CHECK_RET(pc->add(ctx, local, &slot), PAPI_ECOUNT);
    CHECK(strstr(PAPI_strerror_detail(), "at most 64"), "reason: %s", PAPI_strerror_detail());
    pc->ctx_destroy(ctx);
}

int main(void)
{
    init_or_die();
    struct cmp_status st;
    memset(&st, 0, sizeof st);
    CHECK_RET(pc->probe(pc, &st), PAPI_OK);
    CHECK(!st.disabled, "enabled: %s", st.reason);
    CHECK_EQ_LL(st.num_counters, EXAMPLE_NREGS);
    test_naming();
    test_counts();
    test_no_answer();
    test_limit();
    PAPI_shutdown();
    return test_done("test_example_component");
}
