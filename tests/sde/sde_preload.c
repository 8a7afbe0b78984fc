/* sde_preload.c: a library that registers an SDE with a description when it is loaded;
 * test_sde_native_avail preloads it into papi_native_avail, which must list both. */
#include "sde_lib.h"

static long long loaded;

__attribute__((constructor)) static void register_at_load(void)
{
    papi_handle_t h = papi_sde_init("preloaded");
    papi_sde_register_counter(h, "loads", PAPI_SDE_DELTA, PAPI_SDE_long_long, &loaded);
    papi_sde_describe_counter(h, "loads", "Registered when the library was loaded");
}
