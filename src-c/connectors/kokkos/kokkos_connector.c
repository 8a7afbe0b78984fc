/* kokkos_connector.c: libpapi_kokkos.so, a Kokkos Tools library that makes every Kokkos
 * kernel (parallel_for, parallel_reduce, parallel_scan) and every profile region
 * (Kokkos::Profiling::pushRegion) a region of PAPI's region API, named as in Kokkos.
 * PAPI_EVENTS / PAPI_METRICS choose what is counted and the region report is written at
 * exit (papi_hl_report(5)). Kokkos launches kernels from its master thread, usually
 * main, whose regions also get all-thread totals (the thread pool's counts summed:
 * PAPI_HL_ALL_THREADS); the kernels' own values are the master thread's. */
#include <papi.h>

#include "kokkos_regions.h"
#include "kokkos_tools_interface.h"

void kokkosp_init_library(int loadSeq, uint64_t interfaceVer, uint32_t devInfoCount,
                          void *deviceInfo)
{
    (void)loadSeq;
    (void)interfaceVer;
    (void)devInfoCount;
    (void)deviceInfo;
}

void kokkosp_finalize_library(void)
{
    kr_end_all();
}

static void begin(const char *name, uint64_t *kID)
{
    uint64_t id = kr_begin(KR_KERNEL, name);
    if (kID)
        *kID = id;
}

void kokkosp_begin_parallel_for(const char *name, uint32_t devID, uint64_t *kID)
{
    (void)devID;
    begin(name, kID);
}

void kokkosp_end_parallel_for(uint64_t kID)
{
    kr_end(kID);
}

void kokkosp_begin_parallel_reduce(const char *name, uint32_t devID, uint64_t *kID)
{
    (void)devID;
    begin(name, kID);
}

void kokkosp_end_parallel_reduce(uint64_t kID)
{
    kr_end(kID);
}

void kokkosp_begin_parallel_scan(const char *name, uint32_t devID, uint64_t *kID)
{
    (void)devID;
    begin(name, kID);
}

void kokkosp_end_parallel_scan(uint64_t kID)
{
    kr_end(kID);
}

void kokkosp_push_profile_region(const char *name)
{
    kr_begin(KR_PROFILE, name);
}

void kokkosp_pop_profile_region(void)
{
    kr_pop_profile();
}
