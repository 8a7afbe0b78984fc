/* pfm_shared_object.c: the shared object pbdPAPI (an R package) or a preloaded tool
 * builds from the installed archives (test_static_line.sh): `cc -shared -fPIC
 * pfm_shared_object.c <prefix>/lib/libpfm.a`, and with -DWITH_PAPI `... libpapi.a
 * libpfm.a`. Loaded with dlopen, run() returns 0 when libpfm4 initialised (and, with
 * PAPI, the library initialised libpfm4 and counted perf::PAGE-FAULTS: one fault per
 * fresh page). */
#include <perfmon/pfmlib.h>
#include <stdio.h>

#ifdef WITH_PAPI
#include <papi.h>

#include "test_workload.h" /* touch_pages: exactly one fault per fresh page */

int run(void);
int run(void)
{
    int es = PAPI_NULL;
    long long faults = -1;
    enum { PAGES = 100 };
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK) {
        PAPI_perror("pfm_shared_object");
        return 1;
    }
    warm_up();
    PAPI_start(es);
    touch_pages(PAGES);
    PAPI_stop(es, &faults);
    printf("shared object with libpapi.a and libpfm.a: %lld page faults for %d pages\n", faults,
           PAGES);
    /* The name lookup initialised the shared object's own libpfm4 (else PFM_ERR_NOINIT). */
    int idx = pfm_find_event("perf::PAGE-FAULTS");
    printf("pfm_find_event after PAPI's lookup: %s\n", idx >= 0 ? "found" : pfm_strerror(idx));
    return faults >= PAGES && faults <= PAGES + PAGES / 20 && idx >= 0 ? 0 : 1;
}
#else
int run(void);
int run(void)
{
    pfm_err_t rc = pfm_initialize();
    printf("shared object with libpfm.a: pfm_initialize: %s\n", pfm_strerror(rc));
    return rc == PFM_SUCCESS ? 0 : 1;
}
#endif
