/* perf_user_access.c: whether counters may be read from user space here, and how to ask.
 *
 * x86 allows rdpmc of one's own events by default (/sys/bus/event_source/devices/cpu/rdpmc
 * = 1). arm64 allows it only with kernel.perf_user_access = 1 and for events opened with
 * the config1 bit that the PMU's sysfs format file "rdpmc" names ("config1:1" on 6.1).
 * Either way the kernel's mmap page of each event (cap_user_rdpmc, index) has the last
 * word, per read. PAPI_USER_READ=0 in the environment turns user reads off (every read
 * then takes a read() system call); it is read at PAPI_library_init. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_user_access.h"
#include "pmu_state.h"
#include "sysfs_pmus.h"

/* The PMU that has a "rdpmc" format: its type and the config1 bit, found once. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int rdpmc_type = -1;
static int rdpmc_bit = -1;

static void find_rdpmc_format(void)
{
    for (int i = 0, n = sysfs_pmu_count(); i < n && rdpmc_bit < 0; i++) {
        if (sysfs_pmu_brief(i)->kind != SYSFS_PMU_CORE)
            continue; /* only a core PMU (arm64's) has the format */
        const struct sysfs_pmu *p = sysfs_pmu_at(i);
        const struct sysfs_format *f = sysfs_pmu_format(p, "rdpmc");
        if (f && f->config == 1 && f->nranges == 1 && f->lo[0] == f->hi[0]) {
            rdpmc_type = p->type;
            rdpmc_bit = f->lo[0];
        }
    }
}

void pe_user_access_attr(struct perf_event_attr *attr)
{
    pthread_once(&once, find_rdpmc_format);
    if (rdpmc_bit < 0)
        return;
    /* The generic hardware types are served by the CPU PMU, which is the one with the
     * format; an event of another PMU type gets the bit only from its own PMU. */
    int generic = attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
                  attr->type == PERF_TYPE_RAW;
    if (generic || (int)attr->type == rdpmc_type)
        attr->config1 |= UINT64_C(1) << rdpmc_bit;
}

bool pe_user_read_enabled(void)
{
    return g_pmu.user_read_allowed;
}
