/* install_sdelib.c: a library written for PAPI 7's sde_lib.h, as a user writes one:
 * "ilib" exports a registered counter, a created counter, a callback counter and a SUM
 * group of the first two. Built by test_sde_install.sh against the installed headers. */
#include <sde_lib.h>

static papi_handle_t sde;
static long long ops;
static long long bytes;
static void *calls;

static long long read_bytes(void *arg)
{
    return *(long long *)arg;
}

int ilib_init(void)
{
    sde = papi_sde_init("ilib");
    if (!sde)
        return -1;
    int r = papi_sde_register_counter(sde, "ops", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
                                      &ops);
    r |= papi_sde_describe_counter(sde, "ops", "Operations done");
    r |= papi_sde_create_counter(sde, "calls", PAPI_SDE_DELTA, &calls);
    r |= papi_sde_register_counter_cb(sde, "bytes", PAPI_SDE_RO | PAPI_SDE_DELTA,
                                      PAPI_SDE_long_long, read_bytes, &bytes);
    r |= papi_sde_add_counter_to_group(sde, "ops", "all", PAPI_SDE_SUM);
    r |= papi_sde_add_counter_to_group(sde, "calls", "all", PAPI_SDE_SUM);
    return r;
}

void ilib_work(int n)
{
    papi_sde_inc_counter(calls, 1);
    for (int i = 0; i < n; i++) {
        ops += 3;
        bytes += 8;
    }
}
