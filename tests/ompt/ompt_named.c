/* ompt_named.c: parallel regions nested under the region API's named regions
 * (check_ompt_regions.py, case named). One parallel loop, one code address, run in three
 * places: inside the named region "imbalanced" thread t of 4 works (t+1) units (load
 * balance 2.5/4 = 0.625), inside "balanced" each works one unit (1.0), and outside any
 * named region one unit each. Each place is a row of its own in the tool's file, under
 * its named region; the region file's region_totals entry of each named region carries
 * its OpenMP table. Prints the loop's line and each named region's serialization by its
 * own clock (-1: the region API refused the region) as JSON. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "papi.h"

static int loop_line;

static void spread(int imbalanced)
{
    loop_line = __LINE__ + 1;
#pragma omp parallel for schedule(static) num_threads(4)
    for (int i = 0; i < 4; i++)
        sleep_ms(UNIT_MS * (imbalanced ? i + 1 : 1));
}

/* The named region's serialization by the program's own clock (time in the parallel
 * loop over the region's wall time); -1 when the region API refused it. */
static double named(const char *name, int imbalanced, int serial_ms)
{
    if (PAPI_hl_region_begin(name) != PAPI_OK)
        return -1;
    double t = omp_get_wtime(); /* the region's time: after its begin, to before its end */
    sleep_ms(serial_ms);        /* serial time inside the named region */
    double fork = omp_get_wtime();
    spread(imbalanced);
    double join = omp_get_wtime();
    if (PAPI_hl_region_end(name) != PAPI_OK)
        return -1;
    return (join - fork) / (join - t);
}

int main(void)
{
    (void)omp_get_max_threads(); /* the runtime, and with it the tool, starts here */
    double imb = named("imbalanced", 1, 0);
    PAPI_hl_region_begin("outer"); /* no parallel region of its own: balanced's, nested */
    double bal = named("balanced", 0, 2 * UNIT_MS);
    PAPI_hl_region_end("outer");
    spread(0);
    printf("{\"file\": \"%s\", \"loop_line\": %d, \"imbalanced_serialization\": %.4f, "
           "\"balanced_serialization\": %.4f}\n",
           __FILE__, loop_line, imb, bal);
    return 0;
}
