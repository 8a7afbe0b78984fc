/* hardware_info.c: PAPI_get_hardware_info from sysconf and /proc/cpuinfo.
 * (Topology and caches through hwloc come with the hardware-information work.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi_internal.h"

static PAPI_hw_info_t hw;
static int hw_valid;
static pthread_mutex_t hw_lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void)
{
    memset(&hw, 0, sizeof hw);
    hw.totalcpus = (int)sysconf(_SC_NPROCESSORS_CONF);
    hw.ncpu = hw.totalcpus;
    hw.nnodes = 1;
    hw.sockets = 1;
    hw.threads = 1;
    hw.cores = hw.totalcpus;
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        val[strcspn(val, "\n")] = '\0';
        if (!strncmp(line, "vendor_id", 9) && !hw.vendor_string[0])
            papi_strcpy(hw.vendor_string, sizeof hw.vendor_string, val);
        else if (!strncmp(line, "model name", 10) && !hw.model_string[0])
            papi_strcpy(hw.model_string, sizeof hw.model_string, val);
        else if (!strncmp(line, "cpu family", 10) && !hw.cpuid_family)
            hw.cpuid_family = atoi(val);
        else if (!strncmp(line, "model\t", 6) && !hw.cpuid_model)
            hw.cpuid_model = hw.model = atoi(val);
        else if (!strncmp(line, "stepping", 8) && !hw.cpuid_stepping)
            hw.cpuid_stepping = atoi(val);
        else if (!strncmp(line, "cpu MHz", 7) && hw.mhz == 0)
            hw.mhz = (float)atof(val);
        else if (!strncmp(line, "flags", 5) && strstr(val, "hypervisor"))
            hw.virtualized = 1;
        else if (!strncmp(line, "CPU implementer", 15) && !hw.vendor_string[0]) {
            hw.vendor = (int)strtol(val, NULL, 0);
            papi_strcpy(hw.vendor_string, sizeof hw.vendor_string, "ARM");
        } else if (!strncmp(line, "CPU part", 8) && !hw.cpuid_model)
            hw.cpuid_model = hw.model = (int)strtol(val, NULL, 0);
    }
    if (f)
        fclose(f);
    if (!strcmp(hw.vendor_string, "GenuineIntel"))
        hw.vendor = PAPI_VENDOR_INTEL;
    else if (!strcmp(hw.vendor_string, "AuthenticAMD"))
        hw.vendor = PAPI_VENDOR_AMD;
    hw.revision = (float)hw.cpuid_stepping;
    hw.clock_mhz = (int)hw.mhz;
    hw.cpu_max_mhz = hw.cpu_min_mhz = (int)hw.mhz;
}

const PAPI_hw_info_t *PAPI_get_hardware_info(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return NULL;
    pthread_mutex_lock(&hw_lock);
    if (!hw_valid) {
        load();
        hw_valid = 1;
    }
    pthread_mutex_unlock(&hw_lock);
    return &hw;
}

void hwinfo_shutdown(void)
{
    pthread_mutex_lock(&hw_lock);
    hw_valid = 0;
    pthread_mutex_unlock(&hw_lock);
}
