/* test_hwloc_dl.c: the static library's run-time hwloc (hwinfo_hwloc_dl.c), white box.
 * 1. With a library name that cannot load, the hardware information still has this
 *    machine's CPU count (from sysconf and sysfs), says why hwloc was not used, and
 *    counting works (perf::PAGE-FAULTS, one fault per fresh page).
 * 2. A library without hwloc's functions is refused with the missing function named.
 * 3. The real libhwloc.so.15 loads. */
#include <papi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hwinfo_hwloc_dl.h"
#include "papi_test.h"

static long long faults_of(long pages)
{
    int es = PAPI_NULL;
    long long n = -1;
    page_fault_set(&es);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(pages);
    CHECK_RET(PAPI_stop(es, &n), PAPI_OK);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return n;
}

int main(void)
{
    hwinfo_hwloc_dl_soname = "libhwloc-absent.so.15";
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    const char *src = PAPI_get_hardware_info_topology_source();
    printf("without hwloc: totalcpus %d, from %s\n", hw ? hw->totalcpus : -1, src);
    CHECK(hw && hw->totalcpus == (int)sysconf(_SC_NPROCESSORS_CONF), "CPU count from sysconf");
    CHECK(strncmp(src, "sysconf and sysfs (", 19) == 0, "source: %s", src);
    CHECK(strstr(src, "libhwloc-absent.so.15") != NULL, "the reason names the library");
    long long n = faults_of(300);
    printf("300 fresh pages: %lld page faults\n", n);
    CHECK_EQ_LL(n, 300LL);
    PAPI_shutdown();

    const char *why = hwinfo_hwloc_dl_try("libc.so.6");
    printf("libc.so.6: %s\n", why ? why : "(loaded)");
    CHECK(why && strstr(why, "has no hwloc_get_api_version"), "libc.so.6 refused");
    why = hwinfo_hwloc_dl_try(HWINFO_HWLOC_SONAME);
    if (why)
        test_skip(why);
    printf("%s loads\n", HWINFO_HWLOC_SONAME);
    return test_done("test_hwloc_dl");
}
