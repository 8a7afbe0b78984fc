/* energy_regions_workload: the region API around energy a test writes into a replayed
 * powercap tree (check_energy_regions.py). Usage: energy_regions_workload POWERCAP_DIR
 * OP... with OP one of begin:NAME, end:NAME (PAPI_hl_region_begin/end), add:ZONE:UJ
 * (energy_uj of zone intel-rapl:... grows by UJ, rewritten in place), set:ZONE:UJ. The
 * region report is written at exit (PAPI_OUTPUT_DIRECTORY). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "test_energy_uj.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: energy_regions_workload POWERCAP_DIR OP...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        char op[256], *arg, *val;
        snprintf(op, sizeof op, "%s", argv[i]);
        arg = strchr(op, ':');
        if (!arg)
            return 2;
        *arg++ = '\0';
        if (!strcmp(op, "begin") || !strcmp(op, "end")) {
            int r = op[0] == 'b' ? PAPI_hl_region_begin(arg) : PAPI_hl_region_end(arg);
            if (r != PAPI_OK) {
                fprintf(stderr, "%s %s: %s\n", op, arg, PAPI_strerror(r));
                return 1;
            }
            continue;
        }
        val = strrchr(arg, ':');
        if (!val || (strcmp(op, "add") && strcmp(op, "set")))
            return 2;
        *val++ = '\0';
        if (test_energy_uj_rewrite(argv[1], arg, strtoull(val, NULL, 10), op[0] == 'a'))
            return 1;
    }
    return 0;
}
