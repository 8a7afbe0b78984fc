/* sde_hooklib: a library whose events a tool lists without running it, the way PAPI 7's
 * libraries offer them: papi_sde_hook_list_events registers every counter through the
 * function pointers the tool hands in (papi_native_avail -sde FILE). */
#include <sde_lib.h>
#include <stddef.h>

static long long items, bytes;

papi_handle_t papi_sde_hook_list_events(papi_sde_fptr_struct_t *f)
{
    papi_handle_t h = f->init("hooklib");
    f->register_counter(h, "ITEMS", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &items);
    f->describe_counter(h, "ITEMS", "Items the library processed");
    f->register_counter(h, "BYTES", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &bytes);
    f->describe_counter(h, "BYTES", "Bytes the library moved");
    return h;
}
