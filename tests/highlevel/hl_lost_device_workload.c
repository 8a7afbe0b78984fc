/* hl_lost_device_workload: regions that count perf::PAGE-FAULTS beside a GPU's energy
 * and power (nvml, on the test double of libnvidia-ml.so.1 this program is linked with:
 * tests/components/nvml_double.c), while the GPU falls off the bus inside a region.
 * check_hl_lost_device.py runs it with PAPI_EVENTS naming those events and reads the
 * region report: the page faults of that region and of every later one, the GPU's
 * energy before the loss, and the loss said once with its reason. Exits non-zero when a
 * region call fails. */
#include "papi_test.h"
#include "test_workload.h"

void nvml_double_lose(unsigned int dev);
int nvml_double_set(unsigned int dev, const char *what, unsigned long long v);

#define LATER 3

static void region(const char *name, long pages, unsigned long long energy_mj, int lose)
{
    CHECK_RET(PAPI_hl_region_begin(name), PAPI_OK);
    touch_pages(pages);
    if (energy_mj)
        nvml_double_set(0, "energy", energy_mj);
    if (lose)
        nvml_double_lose(0);
    CHECK_RET(PAPI_hl_region_end(name), PAPI_OK);
}

int main(void)
{
    warm_up();
    nvml_double_set(0, "energy", 1000000);
    /* A first region takes the one-time costs (set-up, first touches). */
    region("warm", 1, 0, 0);
    region("before", 10, 1001234, 0); /* 1234 mJ in it */
    region("vanish", 20, 1002000, 1); /* lost before its end */
    for (int i = 0; i < LATER; i++)
        region("after", 30, 0, 0);
    return test_done("hl_lost_device_workload");
}
