/* install_sdeprog.c: a program that counts install_sdelib.c's events through PAPI,
 * linked -lpapi -lsde against the install (test_sde_install.sh): exact counts. */
#include <papi.h>
#include <stdio.h>

int ilib_init(void);
void ilib_work(int n);

int main(void)
{
    static const char *const events[] = {"sde:::ilib::ops", "sde:::ilib::calls",
                                         "sde:::ilib::bytes", "sde:::ilib::all"};
    static const long long want[] = {3 * 1000, 10, 8 * 1000, 3 * 1000 + 10};
    long long v[4];
    int es = PAPI_NULL, failed = 0;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || ilib_init() != 0 ||
        PAPI_create_eventset(&es) != PAPI_OK) {
        printf("FAIL: initialisation\n");
        return 1;
    }
    for (int e = 0; e < 4; e++)
        if (PAPI_add_named_event(es, events[e]) != PAPI_OK) {
            printf("FAIL: cannot add %s\n", events[e]);
            return 1;
        }
    ilib_work(7); /* before start: not counted */
    if (PAPI_start(es) != PAPI_OK)
        return 1;
    for (int i = 0; i < 10; i++)
        ilib_work(100);
    if (PAPI_stop(es, v) != PAPI_OK)
        return 1;
    for (int e = 0; e < 4; e++) {
        printf("%s %lld (want %lld)\n", events[e], v[e], want[e]);
        failed |= v[e] != want[e];
    }
    printf("install_sdeprog: %s\n", failed ? "FAILED" : "PASSED");
    return failed;
}
