/* ompt_named.c: parallel regions nested under the region API's named regions
 * (check_ompt_regions.py, case named). One parallel loop, one code address, run in three
 * places: inside the named region "imbalanced" thread t of 4 works (t+1) units (load
 * balance 2.5/4 = 0.625), inside "balanced" each works one unit (1.0), and outside any
 * named region one unit each. Each place is a row of its own in the tool's file, under
 * its named region; the region file's region_totals entry of each named region carries
 * its OpenMP table, with the loop's constructs (each thread stores its work in a critical
 * section once). Prints the loop's line, each named region's serialization by its
 * own clock (-1: the region API refused the region) and each thread's work in each place
 * (work_ms) as JSON. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "ompt_stamp.h"
#include "papi.h"

static int loop_line;
/* Each thread's work in each place (ms) by the program's own clock: a loaded machine
 * wakes a sleeper late, and the tool's load balance is judged against what ran. It and
 * the loop's arguments cross threads as atomics: libomp's fork and join order them, but
 * invisibly to TSan (Debian's libomp is not instrumented: the TSan lane). */
static double work_ms[3][4];
static int spread_imbalanced, spread_place;

static void spread(int imbalanced, int place)
{
    __atomic_store_n(&spread_imbalanced, imbalanced, __ATOMIC_RELAXED);
    __atomic_store_n(&spread_place, place, __ATOMIC_RELAXED);
    loop_line = __LINE__ + 1;
#pragma omp parallel for schedule(static) num_threads(4)
    for (int i = 0; i < 4; i++) {
        int unbalanced = __atomic_load_n(&spread_imbalanced, __ATOMIC_RELAXED);
        double took = sleep_ms_timed(UNIT_MS * (unbalanced ? i + 1 : 1));
#pragma omp critical /* each thread once: a construct of the region (issue 73) */
        __atomic_store(&work_ms[__atomic_load_n(&spread_place, __ATOMIC_RELAXED)][i], &took,
                       __ATOMIC_RELAXED);
    }
}

/* The named region's serialization by the program's own clock (time in the parallel
 * loop over the region's wall time); -1 when the region API refused it. */
static double named(const char *name, int imbalanced, int serial_ms, int place)
{
    if (PAPI_hl_region_begin(name) != PAPI_OK)
        return -1;
    double t = omp_get_wtime(); /* the region's time: after its begin, to before its end */
    sleep_ms(serial_ms);        /* serial time inside the named region */
    double fork = omp_get_wtime();
    spread(imbalanced, place);
    double join = omp_get_wtime();
    if (PAPI_hl_region_end(name) != PAPI_OK)
        return -1;
    return (join - fork) / (join - t);
}

int main(void)
{
    (void)omp_get_max_threads(); /* the runtime, and with it the tool, starts here */
    double imb = named("imbalanced", 1, 0, 0);
    PAPI_hl_region_begin("outer"); /* no parallel region of its own: balanced's, nested */
    double bal = named("balanced", 0, 2 * UNIT_MS, 1);
    PAPI_hl_region_end("outer");
    spread(0, 2);
    printf("{\"file\": \"%s\", \"loop_line\": %d, \"imbalanced_serialization\": %.4f, "
           "\"balanced_serialization\": %.4f, \"work_ms\": {",
           __FILE__, loop_line, imb, bal);
    static const char *place[3] = {"imbalanced", "balanced", "outside"};
    for (int p = 0; p < 3; p++)
        printf("%s\"%s\": [%.3f, %.3f, %.3f, %.3f]", p ? ", " : "", place[p],
               read_stamp(&work_ms[p][0]), read_stamp(&work_ms[p][1]), read_stamp(&work_ms[p][2]),
               read_stamp(&work_ms[p][3]));
    printf("}}\n");
    return 0;
}
