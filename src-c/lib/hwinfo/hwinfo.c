/* hwinfo.c: PAPI_get_hardware_info. Counts and caches come from the topology
 * (hwinfo_topology.c, hwloc); vendor, model, clock and hypervisor from /proc/cpuinfo,
 * cpufreq and cpuid when the topology is this machine's or a recorded machine's files
 * (PAPI_FSROOT, fsroot.h: cpuid, which can only describe this CPU, is then left out),
 * from the topology's own description when it is a replayed XML (HWLOC_XMLFILE).
 * Loaded once, on first use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsroot.h"
#include "hwinfo.h"
#include "hwinfo_freq.h"
#include "hwinfo_topology.h"
#include "hwinfo_x86.h"

static PAPI_hw_info_t hw;
static struct hwinfo_numa numa;
/* The CPU's own name for the sysdetect API (PAPI 7 reads it from cpuid, not cpuinfo). */
static char cpu_name[PAPI_MAX_STR_LEN];
static int hw_valid;
static bool cpu_name_from_cpuid; /* cpu_name still to be asked of cpuid (this machine) */
static const char *mhz_source = "none";
static pthread_mutex_t hw_lock = PTHREAD_MUTEX_INITIALIZER;

struct cpuinfo_fields {
    char vendor[PAPI_MAX_STR_LEN];
    char model[PAPI_MAX_STR_LEN];
    int family, model_number, stepping; /* -1 when absent */
    float mhz;
    int hypervisor_flag;
    int arm_implementer, arm_part, arm_variant, arm_revision; /* -1 when absent */
};

/* Only the first processor's block: all CPUs of a node are alike for PAPI's purposes,
 * and large machines have megabytes of /proc/cpuinfo. */
static void read_cpuinfo(struct cpuinfo_fields *ci)
{
    memset(ci, 0, sizeof *ci);
    ci->family = ci->model_number = ci->stepping = -1;
    ci->arm_implementer = ci->arm_part = ci->arm_variant = ci->arm_revision = -1;
    FILE *f = fsroot_fopen("/proc/cpuinfo");
    if (!f)
        return;
    char line[4096];
    int seen_key = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') {
            if (seen_key)
                break;
            continue;
        }
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        seen_key = 1;
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        val[strcspn(val, "\n")] = '\0';
        size_t klen = (size_t)(colon - line);
        while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
            klen--;
        line[klen] = '\0';
        if (!strcmp(line, "vendor_id"))
            papi_strcpy(ci->vendor, sizeof ci->vendor, val);
        else if (!strcmp(line, "model name"))
            papi_strcpy(ci->model, sizeof ci->model, val);
        else if (!strcmp(line, "cpu family"))
            ci->family = atoi(val);
        else if (!strcmp(line, "model"))
            ci->model_number = atoi(val);
        else if (!strcmp(line, "stepping"))
            ci->stepping = atoi(val);
        else if (!strcmp(line, "cpu MHz"))
            ci->mhz = (float)atof(val);
        else if (!strcmp(line, "flags"))
            ci->hypervisor_flag = strstr(val, "hypervisor") != NULL;
        else if (!strcmp(line, "CPU implementer"))
            ci->arm_implementer = (int)strtol(val, NULL, 0);
        else if (!strcmp(line, "CPU part"))
            ci->arm_part = (int)strtol(val, NULL, 0);
        else if (!strcmp(line, "CPU variant"))
            ci->arm_variant = (int)strtol(val, NULL, 0);
        else if (!strcmp(line, "CPU revision"))
            ci->arm_revision = (int)strtol(val, NULL, 0);
    }
    fclose(f);
}

static const char *arm_part_name(int implementer, int part)
{
    static const struct {
        int part;
        const char *name;
    } arm[] = {
        {0xd03, "Cortex-A53"},  {0xd04, "Cortex-A35"},  {0xd05, "Cortex-A55"},
        {0xd07, "Cortex-A57"},  {0xd08, "Cortex-A72"},  {0xd09, "Cortex-A73"},
        {0xd0a, "Cortex-A75"},  {0xd0b, "Cortex-A76"},  {0xd0c, "Neoverse-N1"},
        {0xd0d, "Cortex-A77"},  {0xd40, "Neoverse-V1"}, {0xd41, "Cortex-A78"},
        {0xd49, "Neoverse-N2"}, {0xd4f, "Neoverse-V2"}, {0xd8e, "Neoverse-N3"},
    };
    if (implementer == PAPI_VENDOR_ARM_ARM)
        for (size_t i = 0; i < sizeof arm / sizeof arm[0]; i++)
            if (arm[i].part == part)
                return arm[i].name;
    return NULL;
}

static int vendor_code(const char *v)
{
    if (!strcmp(v, "GenuineIntel"))
        return PAPI_VENDOR_INTEL;
    if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine"))
        return PAPI_VENDOR_AMD;
    if (!strncmp(v, "IBM", 3))
        return PAPI_VENDOR_IBM;
    return PAPI_VENDOR_UNKNOWN;
}

/* Hypervisor name when cpuid cannot say (not x86): Xen's sysfs node, then DMI. */
static int hypervisor_from_sysfs(char *name, size_t len)
{
    char buf[PAPI_MAX_STR_LEN];
    if (fsroot_read_line("/sys/hypervisor/type", buf, sizeof buf) == 0 && buf[0]) {
        papi_strcpy(name, len, buf);
        return 1;
    }
    static const char *dmi[] = {"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name"};
    static const char *known[] = {"QEMU",      "KVM",     "VMware",     "Xen",
                                  "Microsoft", "innotek", "Amazon EC2", "Google"};
    for (size_t i = 0; i < 2; i++) {
        if (fsroot_read_line(dmi[i], buf, sizeof buf) != 0)
            continue;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strstr(buf, known[k])) {
                papi_strcpy(name, len, known[k]);
                return 1;
            }
    }
    return 0;
}

/* Vendor, model and cpuid numbers as the topology (hwloc) records them. */
static void take_topology_cpu(PAPI_hw_info_t *h, const struct hwinfo_cpu_desc *topo)
{
    papi_strcpy(h->vendor_string, sizeof h->vendor_string, topo->vendor);
    papi_strcpy(h->model_string, sizeof h->model_string, topo->model);
    h->vendor = vendor_code(topo->vendor);
    h->cpuid_family = topo->family;
    h->cpuid_model = h->model = topo->model_number;
    h->cpuid_stepping = topo->stepping;
}

static void describe_this_machine(PAPI_hw_info_t *h, const struct hwinfo_cpu_desc *topo)
{
    struct cpuinfo_fields ci;
    read_cpuinfo(&ci);
    if (ci.vendor[0]) {
        papi_strcpy(h->vendor_string, sizeof h->vendor_string, ci.vendor);
        papi_strcpy(h->model_string, sizeof h->model_string, ci.model[0] ? ci.model : topo->model);
        h->vendor = vendor_code(ci.vendor);
        h->cpuid_family = ci.family;
        h->cpuid_model = h->model = ci.model_number;
        h->cpuid_stepping = ci.stepping;
        h->revision = (float)(ci.stepping > 0 ? ci.stepping : 0);
    } else if (ci.arm_implementer >= 0) {
        /* arm64: the implementer code is PAPI's vendor code (0x41 = ARM). */
        h->vendor = ci.arm_implementer;
        papi_strcpy(h->vendor_string, sizeof h->vendor_string,
                    ci.arm_implementer == PAPI_VENDOR_ARM_ARM ? "ARM" : "ARM-compatible");
        const char *part = arm_part_name(ci.arm_implementer, ci.arm_part);
        if (part)
            papi_strcpy(h->model_string, sizeof h->model_string, part);
        else
            snprintf(h->model_string, sizeof h->model_string, "part 0x%x", ci.arm_part);
        h->cpuid_family = 8;
        h->cpuid_model = h->model = ci.arm_part;
        h->cpuid_stepping = ci.arm_revision;
        h->revision = (float)(ci.arm_variant > 0 ? ci.arm_variant : 0);
    } else {
        take_topology_cpu(h, topo);
    }
    h->mhz = ci.mhz;
    mhz_source = hwinfo_nominal_mhz_known(fsroot(), ci.mhz, &h->cpu_max_mhz, &h->cpu_min_mhz);
    if (h->mhz <= 0)
        h->mhz = (float)h->cpu_max_mhz;
    h->clock_mhz = (int)h->mhz;

    char hv[PAPI_MAX_STR_LEN] = "";
    bool live = !fsroot_replaying();
    if ((live && hwinfo_cpuid_hypervisor(hv, sizeof hv)) || hypervisor_from_sysfs(hv, sizeof hv) ||
        ci.hypervisor_flag) {
        h->virtualized = 1;
        papi_strcpy(h->virtual_vendor_string, sizeof h->virtual_vendor_string,
                    hv[0] ? hv : "unknown hypervisor");
    }
    if (live)
        hwinfo_cpuid_tlbs(&h->mem_hierarchy);
    /* The brand string is four more cpuid traps: asked when the sysdetect API wants it. */
    cpu_name_from_cpuid = live;
    papi_strcpy(cpu_name, sizeof cpu_name, h->model_string);
}

/* A replayed topology describes another machine: take only what it records. */
static void describe_recorded_machine(PAPI_hw_info_t *h, const struct hwinfo_cpu_desc *topo)
{
    take_topology_cpu(h, topo);
    h->revision = (float)(topo->stepping > 0 ? topo->stepping : 0);
    cpu_name_from_cpuid = false;
    papi_strcpy(cpu_name, sizeof cpu_name, h->model_string);
}

static void load(void)
{
    struct hwinfo_cpu_desc topo;
    memset(&hw, 0, sizeof hw);
    memset(&numa, 0, sizeof numa);
    memset(&topo, 0, sizeof topo);
    topo.family = topo.model_number = topo.stepping = -1;
    /* A recorded machine's files (PAPI_FSROOT) are read as this machine's would be. */
    if (hwinfo_topology_load(&hw, &topo, &numa) || fsroot_replaying())
        describe_this_machine(&hw, &topo);
    else
        describe_recorded_machine(&hw, &topo);
    /* Unknown numbers read as 0, never -1, as PAPI's callers expect. */
    if (hw.cpuid_family < 0)
        hw.cpuid_family = 0;
    if (hw.cpuid_model < 0)
        hw.cpuid_model = hw.model = 0;
    if (hw.cpuid_stepping < 0)
        hw.cpuid_stepping = 0;
}

static void hw_lifecycle(const struct papi_life *ev);

const PAPI_hw_info_t *PAPI_get_hardware_info(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return NULL;
    pthread_mutex_lock(&hw_lock);
    if (!hw_valid) {
        load();
        hw_valid = 1;
        papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, hw_lifecycle);
    }
    pthread_mutex_unlock(&hw_lock);
    return &hw;
}

const char *hwinfo_cpu_name(void)
{
    if (!PAPI_get_hardware_info())
        return NULL;
    pthread_mutex_lock(&hw_lock);
    char brand[PAPI_MAX_STR_LEN];
    if (cpu_name_from_cpuid && hwinfo_cpuid_brand(brand, sizeof brand))
        papi_strcpy(cpu_name, sizeof cpu_name, brand);
    cpu_name_from_cpuid = false;
    pthread_mutex_unlock(&hw_lock);
    return cpu_name;
}

const struct hwinfo_numa *hwinfo_numa_info(void)
{
    return PAPI_get_hardware_info() ? &numa : NULL;
}

/* The library's lifecycle (papi_sdk.h): described again after a shutdown, kept by a
 * forked child (the same machine). */
static void hw_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN || ev->keep_machine)
        return;
    pthread_mutex_lock(&hw_lock);
    hw_valid = 0;
    pthread_mutex_unlock(&hw_lock);
}

const char *hwinfo_mhz_source(void)
{
    return PAPI_get_hardware_info() ? mhz_source : "none";
}

const char *PAPI_get_hardware_info_mhz_source(void)
{
    return hwinfo_mhz_source();
}

/* The topology's own record of its source, read once the information is loaded. */
const char *PAPI_get_hardware_info_topology_source(void)
{
    return PAPI_get_hardware_info() ? hwinfo_topology_source() : "none";
}
