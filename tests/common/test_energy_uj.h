/* test_energy_uj.h: a replayed powercap zone's energy counter (DIR/ZONE/energy_uj)
 * rewritten in place, as the hardware's grows, for the tests that put known energy
 * between two reads. Header-only, for tests. */
#ifndef PAPI_TEST_ENERGY_UJ_H
#define PAPI_TEST_ENERGY_UJ_H

#include <stdio.h>

/* energy_uj of zone becomes uj (add: grows by uj); 0, or 1 with the reason on stderr. */
static inline int test_energy_uj_rewrite(const char *dir, const char *zone, unsigned long long uj,
                                         int add)
{
    char p[1024];
    unsigned long long v = 0;
    snprintf(p, sizeof p, "%s/%s/energy_uj", dir, zone);
    FILE *f = fopen(p, "r");
    int ok = f && fscanf(f, "%llu", &v) == 1;
    if (f)
        fclose(f);
    f = ok ? fopen(p, "w") : NULL; /* in place: the readers' open descriptors see it */
    if (!f) {
        fprintf(stderr, "cannot rewrite %s\n", p);
        return 1;
    }
    fprintf(f, "%llu\n", add ? v + uj : uj);
    fclose(f);
    return 0;
}

#endif
