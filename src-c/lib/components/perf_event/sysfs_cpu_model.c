/* sysfs_cpu_model.c: which preset table fits a CPU that libpfm4 does not know, when the
 * kernel describes its core PMU in sysfs. The CPU is named by its cpuid vendor, family and
 * model as the hardware information reads them (/proc/cpuinfo, under the file-access
 * root: a recorded machine is named by its own files). Table names follow libpfm4's names
 * for these PMUs where it has one (later libpfm4 releases: amd64_fam1ah_zen5, gnr), so a
 * newer libpfm4 that detects the CPU picks the same table. */
#include <string.h>

#include "fsroot.h"
#include "sysfs_cpu_model.h"
#include "sysfs_pmus.h"

struct model_range {
    int vendor, family, first, last; /* cpuid family and model range, inclusive */
    const char *table;
    const char *core_pmu; /* the sysfs PMU the table's events are written for */
    int replay_only;      /* libpfm4 describes the CPU when it runs here; a recorded one
                           * (PAPI_FSROOT) still gets its table (its metrics' sysfs events
                           * resolve, its libpfm4-named presets say why they do not) */
};

/* Models from the vendors' documentation (AMD PPR for family 1Ah; Intel SDM vol. 4 /
 * perfmon CPU list), as Linux's arch/x86 model lists name them. */
static const struct model_range models[] = {
    {PAPI_VENDOR_AMD, 0x1A, 0x00, 0x2F, "amd64_fam1ah_zen5", "cpu", 0},
    {PAPI_VENDOR_AMD, 0x1A, 0x40, 0x4F, "amd64_fam1ah_zen5", "cpu", 0},
    {PAPI_VENDOR_AMD, 0x1A, 0x60, 0x7F, "amd64_fam1ah_zen5", "cpu", 0},
    {PAPI_VENDOR_INTEL, 6, 0xAD, 0xAE, "gnr", "cpu", 0},      /* Granite Rapids X / D */
    {PAPI_VENDOR_INTEL, 6, 0xCF, 0xCF, "emr", "cpu", 0},      /* Emerald Rapids */
    {PAPI_VENDOR_INTEL, 6, 0xAA, 0xAA, "mtl", "cpu_core", 0}, /* Meteor Lake (hybrid) */
    {PAPI_VENDOR_INTEL, 6, 0xAC, 0xAC, "mtl", "cpu_core", 0},
    {PAPI_VENDOR_INTEL, 6, 0x8F, 0x8F, "spr", "cpu", 1},                  /* Sapphire Rapids */
    {PAPI_VENDOR_INTEL, 6, 0x7D, 0x7E, "icl", "cpu", 1},                  /* Ice Lake client */
    {PAPI_VENDOR_INTEL, 6, 0x8C, 0x8D, "icl", "cpu", 1},                  /* Tiger Lake */
    {PAPI_VENDOR_INTEL, 6, 0x1A, 0x1A, "nhm", "cpu", 1},                  /* Nehalem-EP */
    {PAPI_VENDOR_INTEL, 6, 0x1E, 0x1F, "nhm", "cpu", 1},                  /* Nehalem */
    {PAPI_VENDOR_AMD, 0x17, 0x00, 0x0F, "amd64_fam17h_zen1", "cpu", 1},   /* Zen 1 (Naples) */
    {PAPI_VENDOR_ARM_ARM, 8, 0xD49, 0xD49, "arm_n2", "armv8_pmuv3_0", 1}, /* Neoverse N2 */
    {PAPI_VENDOR_ARM_ARM, 8, 0xD40, 0xD40, "arm_v1", "armv8_pmuv3_0", 1}, /* Neoverse V1 */
    {PAPI_VENDOR_ARM_ARM, 8, 0xD4F, 0xD4F, "arm_v2", "armv8_pmuv3_0", 1}, /* Neoverse V2 */
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
            (!m->replay_only || fsroot_replaying()) && sysfs_pmu_find(m->core_pmu, NULL))
            return m->table;
    }
    return NULL;
}
