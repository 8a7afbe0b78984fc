/* sde_testlib.c: the test library of sde_testlib.h. Its events, all sdetest::NAME:
 *   REG_LL   registered long long, DELTA     REG_INT  registered int, INSTANT
 *   REG_DBL  registered double, DELTA        CB       callback counter, DELTA
 *   CREATED  created counter, DELTA          LEVEL    created counter, INSTANT
 *   TOTAL    SUM group of REG_LL and CREATED BIGGEST / SMALLEST  MAX / MIN of the same
 *   LAT      recorder of long long (LAT:CNT, LAT:MIN, :Q1, :MED, :Q3, :MAX)
 *   KEYS     counting set of int keys */
#include <stddef.h>

#include "sde_lib.h"
#include "sde_testlib.h"

static papi_handle_t handle;
static long long reg_ll, cb_state;
static int reg_int, rounds;
static double reg_dbl;
static void *created, *level, *recorder, *keys;

static long long twice(void *p)
{
    return 2 * *(long long *)p;
}

static int groups(void)
{
    static const char *const members[] = {"REG_LL", "CREATED"};
    int ret = SDE_OK;
    for (int m = 0; m < 2 && ret == SDE_OK; m++) {
        ret = papi_sde_add_counter_to_group(handle, members[m], "TOTAL", PAPI_SDE_SUM);
        if (ret == SDE_OK)
            ret = papi_sde_add_counter_to_group(handle, members[m], "BIGGEST", PAPI_SDE_MAX);
        if (ret == SDE_OK)
            ret = papi_sde_add_counter_to_group(handle, members[m], "SMALLEST", PAPI_SDE_MIN);
    }
    return ret;
}

int sdetest_setup(void)
{
    int ret;
    handle = papi_sde_init("sdetest");
    if (!handle)
        return SDE_EINVAL;
    if ((ret = papi_sde_register_counter(handle, "REG_LL", PAPI_SDE_RO | PAPI_SDE_DELTA,
                                         PAPI_SDE_long_long, &reg_ll)) ||
        (ret = papi_sde_register_counter(handle, "REG_INT", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                         PAPI_SDE_int, &reg_int)) ||
        (ret = papi_sde_register_counter(handle, "REG_DBL", PAPI_SDE_RO | PAPI_SDE_DELTA,
                                         PAPI_SDE_double, &reg_dbl)) ||
        (ret = papi_sde_register_counter_cb(handle, "CB", PAPI_SDE_RO | PAPI_SDE_DELTA,
                                            PAPI_SDE_long_long, twice, &cb_state)) ||
        (ret = papi_sde_create_counter(handle, "CREATED", PAPI_SDE_DELTA, &created)) ||
        (ret = papi_sde_create_counter(handle, "LEVEL", PAPI_SDE_INSTANT, &level)) ||
        (ret = papi_sde_create_recorder(handle, "LAT", sizeof(long long),
                                        papi_sde_compare_long_long, &recorder)) ||
        (ret = papi_sde_create_counting_set(handle, "KEYS", &keys)) || (ret = groups()))
        return ret;
    ret = papi_sde_describe_counter(handle, "REG_LL", "Rounds of work done");
    if (ret == SDE_OK)
        ret = papi_sde_describe_counter(handle, "CREATED", "Twice the rounds, created");
    return ret;
}

void sdetest_work(int n)
{
    for (int i = 0; i < n; i++, rounds++) {
        long long value = rounds;
        int key = rounds % 3;
        reg_ll += 1;
        cb_state += 3;
        reg_dbl += 0.5;
        reg_int = rounds + 1;
        papi_sde_inc_counter(created, 2);
        papi_sde_inc_counter(level, 1);
        papi_sde_record(recorder, sizeof value, &value);
        papi_sde_counting_set_insert(keys, sizeof key, sizeof key, &key, 7);
    }
}

int sdetest_shutdown(void)
{
    return papi_sde_shutdown(handle);
}
