/* region_sample_unload_lib.c: the library region_sample_unload loads, samples in and
 * unloads before its report (issue 69 N9): region "in_lib" around 0.3 s of CPU in
 * rs_lib_work, a static function (named from the file's symbol table). */
#include <papi.h>
#include <time.h>

static volatile double sink;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void rs_lib_work(double seconds)
{
    double end = cpu_seconds() + seconds, x = sink;
    while (cpu_seconds() < end)
        for (int i = 0; i < 100000; i++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

__attribute__((visibility("default"))) int rs_lib_run(void)
{
    if (PAPI_hl_region_begin("in_lib") != PAPI_OK)
        return 1;
    rs_lib_work(0.3);
    return PAPI_hl_region_end("in_lib") != PAPI_OK;
}
