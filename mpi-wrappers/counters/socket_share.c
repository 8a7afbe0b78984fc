/* socket_share.c: the pure choice of one reader per socket, which events are a socket's
 * (and which a node device's), and this process's package (socket_share.h). The
 * collective part that gathers the node's packages is socket_layout.c. */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "socket_share.h"

void pmpi_socket_share(const int *pkg, int n, int me, struct pmpi_socket_share *out)
{
    out->package = pkg[me];
    out->reader = me;
    out->shared_by = 0;
    for (int i = n - 1; i >= 0; i--)
        if (pkg[i] == pkg[me]) {
            out->reader = i; /* the lowest index last */
            out->shared_by++;
        }
    out->is_reader = out->reader == me;
}

int pmpi_socket_wide_event(const char *name)
{
    static const char *const pmus[] = {"uncore_", "amd_df", "amd_umc", "arm_cmn", "hisi_"};
    if (strncmp(name, PMPI_ENERGY_PREFIX, strlen(PMPI_ENERGY_PREFIX)) == 0 &&
        !strstr(name, "ZONE") && !strstr(name, ":PKG"))
        return 1; /* a powercap energy sum: the reader counts its own package's (below) */
    const char *sep = strstr(name, "::");
    if (!sep)
        return 0; /* a preset or a core event */
    for (size_t i = 0; i < sizeof pmus / sizeof pmus[0]; i++)
        if (strncmp(name, pmus[i], strlen(pmus[i])) == 0)
            return 1;
    return 0;
}

int pmpi_node_device_event(const char *name)
{
    static const char *const devices[] = {"nvml:::", "rocm_smi:::", "amdgpu:::", "powercap:::"};
    if (pmpi_socket_wide_event(name))
        return 0; /* a powercap sum: its socket's reader's */
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (strncmp(name, devices[i], strlen(devices[i])) == 0)
            return 1;
    return 0;
}

static int package_of_cpu(int cpu)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    FILE *f = fopen(path, "re");
    int id = -1;
    if (f) {
        if (fscanf(f, "%d", &id) != 1)
            id = -1;
        fclose(f);
    }
    return id;
}

void pmpi_socket_event_name(const char *name, int package, char *out, size_t len)
{
    if (package >= 0 && strncmp(name, PMPI_ENERGY_PREFIX, strlen(PMPI_ENERGY_PREFIX)) == 0 &&
        pmpi_socket_wide_event(name))
        snprintf(out, len, "%s:PKG%d", name, package);
    else
        snprintf(out, len, "%s", name);
}

int pmpi_own_package(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    int pkg = -2;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        int p = package_of_cpu(cpu);
        if (p < 0 || (pkg != -2 && p != pkg))
            return -1;
        pkg = p;
    }
    return pkg < 0 ? -1 : pkg;
}
