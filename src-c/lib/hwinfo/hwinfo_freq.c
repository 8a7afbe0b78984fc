/* hwinfo_freq.c: the CPU's nominal clock for cpu_max_mhz / cpu_min_mhz, never 0, from the
 * best source there is, as PAPI does: cpufreq, then ACPI CPPC's nominal frequency, then
 * /proc/cpuinfo's "cpu MHz", then a short measurement with a cycles counter where one
 * counts, and BogoMIPS only as a last resort (on arm64 it is the timer, not the core).
 * The source is kept for hwinfo_mhz_source(). Paths are read under a root (fsroot.h:
 * PAPI_FSROOT, a recorded machine); the measurement, which could only describe this
 * machine, is then not made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsroot.h"
#include "hwinfo_freq.h"

static double read_number(const char *root, const char *path)
{
    char buf[64];
    if (fsroot_read_line_in(root, path, buf, sizeof buf) != 0)
        return 0;
    double v = strtod(buf, NULL);
    return v > 0 ? v : 0;
}

/* The first value of key in /proc/cpuinfo (keys are alike for every CPU). */
static double cpuinfo_value(const char *root, const char *key)
{
    char line[1024];
    FILE *f = fsroot_fopen_in(root, "/proc/cpuinfo");
    if (!f)
        return 0;
    double v = 0;
    size_t klen = strlen(key);
    while (v <= 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0 ||
            (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
            continue;
        const char *colon = strchr(line, ':');
        if (colon)
            v = strtod(colon + 1, NULL);
    }
    fclose(f);
    return v > 0 ? v : 0;
}

/* Cycles per microsecond measured by a counting backend (the perf_event component
 * installs it at PAPI_library_init: hwinfo never opens counters itself); 0 when none. */
int (*hwinfo_mhz_meter)(void);

static int measure_mhz(void)
{
    return hwinfo_mhz_meter ? hwinfo_mhz_meter() : 0;
}

const char *hwinfo_nominal_mhz(const char *root, int *max_mhz, int *min_mhz)
{
    return hwinfo_nominal_mhz_known(root, 0, max_mhz, min_mhz);
}

const char *hwinfo_nominal_mhz_known(const char *root, double cpuinfo_mhz, int *max_mhz,
                                     int *min_mhz)
{
    const char *cpu0 = "/sys/devices/system/cpu/cpu0";
    char path[256];
    snprintf(path, sizeof path, "%s/cpufreq/cpuinfo_max_freq", cpu0);
    int max = (int)(read_number(root, path) / 1000);
    snprintf(path, sizeof path, "%s/cpufreq/cpuinfo_min_freq", cpu0);
    int min = (int)(read_number(root, path) / 1000);
    const char *source = "cpufreq";
    if (max <= 0) {
        snprintf(path, sizeof path, "%s/acpi_cppc/nominal_freq", cpu0); /* MHz */
        max = (int)read_number(root, path);
        snprintf(path, sizeof path, "%s/acpi_cppc/lowest_freq", cpu0);
        min = (int)read_number(root, path);
        source = "acpi_cppc";
    }
    if (max <= 0) {
        max = (int)((cpuinfo_mhz > 0 ? cpuinfo_mhz : cpuinfo_value(root, "cpu MHz")) + 0.5);
        source = "cpuinfo";
    }
    if (max <= 0 && !root[0]) {
        max = measure_mhz();
        source = "measured";
    }
    if (max <= 0) {
        max = (int)(cpuinfo_value(root, "BogoMIPS") + 0.5);
        if (max <= 0)
            max = (int)(cpuinfo_value(root, "bogomips") + 0.5);
        source = "bogomips";
    }
    if (max <= 0) {
        *max_mhz = *min_mhz = 0;
        return "none";
    }
    *max_mhz = max;
    *min_mhz = min > 0 && min <= max ? min : max;
    return source;
}
