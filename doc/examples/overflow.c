/* Example: a handler called every 100 page faults.
 * Shows: PAPI_overflow PAPI_get_overflow_event_index PAPI_profil PAPI_sprofil */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

static int calls;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    int idx[4], n = 4;
    (void)address, (void)context;
    if (PAPI_get_overflow_event_index(EventSet, overflow_vector, idx, &n) == PAPI_OK && n > 0)
        calls++; /* idx[0] is the event that overflowed */
}

int main(void)
{
    int es = PAPI_NULL, code;
    long long faults;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    PAPI_create_eventset(&es);
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &code) != PAPI_OK ||
        PAPI_add_event(es, code) != PAPI_OK) {
        PAPI_perror("perf::PAGE-FAULTS");
        return 0;
    }
    if (PAPI_overflow(es, code, 100, 0, handler) != PAPI_OK) {
        PAPI_perror("PAPI_overflow");
        return 1;
    }
    PAPI_start(es);
    char *p = malloc(1000 * 4096);
    for (int i = 0; p && i < 1000; i++)
        p[i * 4096] = 1;
    PAPI_stop(es, &faults);
    free(p);
    PAPI_overflow(es, code, 0, 0, NULL); /* threshold 0: off */
    printf("%lld page faults, handler called %d times\n", faults, calls);
    return 0;
}
