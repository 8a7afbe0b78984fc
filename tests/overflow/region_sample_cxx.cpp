// region_sample_cxx.cpp: PAPI_SAMPLE's names for C++ (check_region_sample.py --names): a
// method spends 0.3 s of CPU in region "cxx"; its samples must read
// "shapes::Crunch::run(double)", demangled, not _ZN6shapes6Crunch3runEd.
#include <papi.h>
#include <time.h>

namespace shapes
{
struct Crunch {
    volatile double x = 1;
    __attribute__((noinline)) void run(double seconds);
};

static double cpu_seconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void Crunch::run(double seconds)
{
    double end = cpu_seconds() + seconds, v = x;
    while (cpu_seconds() < end)
        for (int i = 0; i < 100000; i++)
            v = v * 1.0000001 + 1e-9;
    x = v;
}
} // namespace shapes

int main()
{
    shapes::Crunch c;
    if (PAPI_hl_region_begin("cxx") != PAPI_OK)
        return 1;
    c.run(0.3);
    return PAPI_hl_region_end("cxx") != PAPI_OK;
}
