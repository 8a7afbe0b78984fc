/* test_sde_bad_input.c: libsde refuses bad input with SDE_EINVAL and changes nothing:
 * library and event names with ':::' or white space, empty or NULL; a counter
 * registered twice; NULL handles, counters, callbacks and pointers; unknown modes,
 * types and group flags; a recorder fed the wrong size; removing what a counting set
 * does not hold; any call through a library's handle after its shutdown. Then the
 * registry libpapi reads still lists exactly the events that were accepted. */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "papi_test.h"
#include "sde_lib.h"

static long long var;
static long long junk[32]; /* memory that is no handle of libsde's (and big enough to read) */

static long long cb(void *p)
{
    return *(long long *)p;
}

static void names(papi_handle_t h)
{
    CHECK(papi_sde_init(NULL) == NULL, "NULL library name accepted");
    CHECK(papi_sde_init("") == NULL, "empty library name accepted");
    CHECK(papi_sde_init("bad lib") == NULL, "library name with a space accepted");
    CHECK(papi_sde_init("bad:::lib") == NULL, "library name with ':::' accepted");
    CHECK(papi_sde_init("badlib") == h, "a second init of a library gives another handle");
    CHECK_RET(papi_sde_register_counter(h, "a b", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "a:::b", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "tab\there", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "", PAPI_SDE_RO, PAPI_SDE_long_long, &var), SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, NULL, PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
}

static void registrations(papi_handle_t h)
{
    void *c = NULL;
    CHECK_RET(papi_sde_register_counter(h, "ok", PAPI_SDE_RO, PAPI_SDE_long_long, &var), SDE_OK);
    CHECK_RET(papi_sde_register_counter(h, "ok", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_create_counter(h, "ok", PAPI_SDE_DELTA, &c), SDE_EINVAL);
    CHECK(c == NULL, "a refused create_counter set the handle");
    CHECK_RET(papi_sde_register_counter(NULL, "x", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(&var, "x", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "x", PAPI_SDE_RO, PAPI_SDE_long_long, NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "x", 0x42, PAPI_SDE_long_long, &var), SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "x", PAPI_SDE_RO, 9, &var), SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter_cb(h, "x", PAPI_SDE_RO, PAPI_SDE_long_long, NULL, &var),
              SDE_EINVAL);
    CHECK_RET(papi_sde_create_counter(h, "x", PAPI_SDE_DELTA, NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_describe_counter(h, "nothing", "text"), SDE_EINVAL);
    CHECK_RET(papi_sde_describe_counter(h, "ok", NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_unregister_counter(h, "nothing"), SDE_EINVAL);
    CHECK_RET(papi_sde_add_counter_to_group(h, "ok", "g", 7), SDE_EINVAL);
    CHECK_RET(papi_sde_add_counter_to_group(h, "nothing", "g", PAPI_SDE_SUM), SDE_EINVAL);
    CHECK_RET(papi_sde_add_counter_to_group(h, "ok", "g", PAPI_SDE_SUM), SDE_OK);
    CHECK_RET(papi_sde_add_counter_to_group(h, "ok", "g", PAPI_SDE_SUM), SDE_EINVAL);
    CHECK_RET(papi_sde_add_counter_to_group(h, "ok", "g", PAPI_SDE_MAX), SDE_EINVAL);
    CHECK(papi_sde_get_counter_handle(h, "ok") == NULL, "a registered counter has a handle");
    CHECK(papi_sde_get_counter_handle(NULL, "ok") == NULL, "a NULL library has a handle");
}

static void handles(papi_handle_t h)
{
    void *rec = NULL, *set = NULL, *c = NULL;
    int i = 1;
    CHECK_RET(papi_sde_inc_counter(NULL, 1), SDE_EINVAL);
    CHECK_RET(papi_sde_inc_counter(junk, 1), SDE_EINVAL);
    CHECK_RET(papi_sde_reset_counter(NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_record(NULL, sizeof i, &i), SDE_EINVAL);
    CHECK_RET(papi_sde_reset_recorder(NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(NULL, sizeof i, sizeof i, &i, 0), SDE_EINVAL);
    CHECK_RET(papi_sde_create_recorder(h, "rec", sizeof i, NULL, NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_create_recorder(h, "rec", sizeof i, papi_sde_compare_int, &rec), SDE_OK);
    CHECK_RET(papi_sde_record(rec, sizeof(long long), &var), SDE_EINVAL);
    CHECK_RET(papi_sde_record(rec, sizeof i, NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_create_counting_set(h, "set", &set), SDE_OK);
    CHECK_RET(papi_sde_counting_set_remove(set, sizeof i, &i, 0), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(set, sizeof i, 2 * sizeof i, &i, 0), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(set, sizeof i, sizeof i, NULL, 0), SDE_EINVAL);
    CHECK_RET(papi_sde_create_counter(h, "made", PAPI_SDE_DELTA, &c), SDE_OK);
    CHECK(papi_sde_get_counter_handle(h, "made") == c, "get_counter_handle of a created one");
    CHECK_RET(papi_sde_register_counter_cb(h, "cb", PAPI_SDE_RO, PAPI_SDE_long_long, cb, &var),
              SDE_OK);
    /* Shut down: every handle of the library is refused from now on. */
    CHECK_RET(papi_sde_shutdown(h), SDE_OK);
    CHECK_RET(papi_sde_shutdown(h), SDE_EINVAL);
    CHECK_RET(papi_sde_shutdown(NULL), SDE_EINVAL);
    CHECK_RET(papi_sde_inc_counter(c, 1), SDE_EINVAL);
    CHECK_RET(papi_sde_record(rec, sizeof i, &i), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(set, sizeof i, sizeof i, &i, 0), SDE_EINVAL);
    CHECK_RET(papi_sde_register_counter(h, "late", PAPI_SDE_RO, PAPI_SDE_long_long, &var),
              SDE_EINVAL);
}

/* Events PAPI lists of the sde component. */
static int listed(void)
{
    int cidx = PAPI_get_component_index("sde"), code = PAPI_NATIVE_MASK, n = 0;
    if (cidx >= 0 && PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
        do
            n++;
        while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

int main(void)
{
    init_or_die();
    papi_handle_t h = papi_sde_init("badlib");
    CHECK(h != NULL, "papi_sde_init(\"badlib\") failed");
    if (!h)
        return test_done("test_sde_bad_input");
    names(h);
    registrations(h);
    CHECK_EQ_LL(listed(), 2); /* ok and the group g */
    handles(h);
    CHECK_EQ_LL(listed(), 0);
    PAPI_shutdown();
    return test_done("test_sde_bad_input");
}
