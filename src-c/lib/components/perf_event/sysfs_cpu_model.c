/* sysfs_cpu_model.c: which preset table fits a CPU that libpfm4 does not know, when the
 * kernel describes its core PMU in sysfs. The CPU is named by its cpuid vendor, family and
 * model as the hardware information reads them (/proc/cpuinfo, under the file-access
 * root: a recorded machine is named by its own files). Table names follow libpfm4's names
 * for these PMUs where it has one (later libpfm4 releases: amd64_fam1ah_zen5, gnr), so a
 * newer libpfm4 that detects the CPU picks the same table. */
#include <string.h>

#include "sysfs_cpu_model.h"
#include "sysfs_pmus.h"

struct model_range {
    int vendor, family, first, last; /* cpuid family and model range, inclusive */
    const char *table;
    const char *core_pmu; /* the sysfs PMU the table's events are written for */
};

/* Models from the vendors' documentation (AMD PPR for family 1Ah; Intel SDM vol. 4 /
 * perfmon CPU list), as Linux's arch/x86 model lists name them. */
static const struct model_range models[] = {
    {PAPI_VENDOR_AMD, 0x1A, 0x00, 0x2F, "amd64_fam1ah_zen5", "cpu"},
    {PAPI_VENDOR_AMD, 0x1A, 0x40, 0x4F, "amd64_fam1ah_zen5", "cpu"},
    {PAPI_VENDOR_AMD, 0x1A, 0x60, 0x7F, "amd64_fam1ah_zen5", "cpu"},
    {PAPI_VENDOR_INTEL, 6, 0xAD, 0xAE, "gnr", "cpu"},      /* Granite Rapids X / D */
    {PAPI_VENDOR_INTEL, 6, 0xCF, 0xCF, "emr", "cpu"},      /* Emerald Rapids */
    {PAPI_VENDOR_INTEL, 6, 0xAA, 0xAA, "mtl", "cpu_core"}, /* Meteor Lake (hybrid) */
    {PAPI_VENDOR_INTEL, 6, 0xAC, 0xAC, "mtl", "cpu_core"},
};

const char *sysfs_cpu_model_table(void)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    if (!hw)
        return NULL;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        const struct model_range *m = &models[i];
        if (hw->vendor == m->vendor && hw->cpuid_family == m->family &&
            hw->cpuid_model >= m->first && hw->cpuid_model <= m->last &&
            sysfs_pmu_find(m->core_pmu, NULL))
            return m->table;
    }
    return NULL;
}
