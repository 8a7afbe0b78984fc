/* regions.c: the PAPI 7 high-level style, marked regions.
 *
 * Each thread's regions accumulate the events named in PAPI_EVENTS (comma-separated,
 * e.g. PAPI_EVENTS="PAPI_TOT_INS,perf::PAGE-FAULTS"); without it a default set is
 * counted, or perf::TASK-CLOCK and perf::PAGE-FAULTS where no hardware counter exists.
 * At exit the report goes to papi_hl_output/rank_XXXXXX.json under
 * PAPI_OUTPUT_DIRECTORY (default: here); PAPI_REPORT=1 also prints a summary. */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double work(size_t n)
{
    double *x = malloc(n * sizeof *x), s = 0.0;
    if (!x)
        return 0.0;
    for (size_t i = 0; i < n; i++)
        x[i] = (double)i * 0.5;
    for (size_t i = 0; i < n; i++)
        s += x[i] * x[i];
    free(x);
    return s;
}

int main(void)
{
    double s = 0.0;
    if (PAPI_hl_region_begin("computation") != PAPI_OK) {
        PAPI_perror("PAPI_hl_region_begin");
        return 1;
    }
    for (int step = 0; step < 3; step++) {
        PAPI_hl_region_begin("step"); /* repeated and nested: counts add up */
        s += work(1u << 20);
        PAPI_hl_region_end("step");
    }
    if (PAPI_hl_region_end("computation") != PAPI_OK) {
        PAPI_perror("PAPI_hl_region_end");
        return 1;
    }
    printf("sum %g; the region report is written at exit\n", s);
    return 0;
}
