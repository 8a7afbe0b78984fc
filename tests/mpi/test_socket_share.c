/* test_socket_share: one reader per socket, as a pure function of made-up packages
 * (mpi-wrappers/counters/socket_share.c): 4 ranks on 2 sockets in blocks and interleaved,
 * ranks whose package is unknown, one rank alone; which events are a socket's; and this
 * process's package, pinned to CPU 0, against CPU 0's sysfs topology. No MPI needed. */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "socket_share.h"

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

/* Each rank of pkg: its reader and how many share its socket, against want. */
static void layout(const char *name, const int *pkg, int n, const int *reader, const int *shared)
{
    for (int me = 0; me < n; me++) {
        struct pmpi_socket_share s;
        pmpi_socket_share(pkg, n, me, &s);
        char what[160];
        snprintf(what, sizeof what, "%s: rank %d reader %d (want %d), shared by %d (want %d)",
                 name, me, s.reader, reader[me], s.shared_by, shared[me]);
        expect(s.reader == reader[me] && s.shared_by == shared[me] &&
                   s.is_reader == (reader[me] == me) && s.package == pkg[me],
               what);
    }
}

static int sysfs_package(int cpu)
{
    char path[96];
    int id = -1;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    FILE *f = fopen(path, "r");
    if (f && fscanf(f, "%d", &id) != 1)
        id = -1;
    if (f)
        fclose(f);
    return id;
}

int main(void)
{
    layout("blocks", (int[]){0, 0, 1, 1}, 4, (int[]){0, 0, 2, 2}, (int[]){2, 2, 2, 2});
    layout("interleaved", (int[]){0, 1, 0, 1}, 4, (int[]){0, 1, 0, 1}, (int[]){2, 2, 2, 2});
    layout("3+1", (int[]){1, 1, 1, 0}, 4, (int[]){0, 0, 0, 3}, (int[]){3, 3, 3, 1});
    layout("unknown", (int[]){-1, 0, -1, 0}, 4, (int[]){0, 1, 0, 1}, (int[]){2, 2, 2, 2});
    layout("alone", (int[]){0}, 1, (int[]){0}, (int[]){1});

    expect(pmpi_socket_wide_event("uncore_imc_0::cas_count_read"), "uncore_imc is a socket's");
    expect(pmpi_socket_wide_event("amd_df::dram_channel_data_controller_0"), "amd_df is a socket's");
    expect(pmpi_socket_wide_event("arm_cmn_0::hnf_mc_reqs"), "arm_cmn is a socket's");
    expect(!pmpi_socket_wide_event("perf::TASK-CLOCK"), "perf::TASK-CLOCK is a thread's");
    expect(!pmpi_socket_wide_event("PAPI_TOT_INS"), "a preset is a thread's");
    expect(!pmpi_socket_wide_event("uncore_imc"), "no PMU::event, no socket event");
    /* energy: the powercap sums are a socket's, narrowed to the reader's package */
    expect(pmpi_socket_wide_event("powercap:::ENERGY_UJ:TOTAL"), "CPU energy is a socket's");
    expect(pmpi_socket_wide_event("powercap:::ENERGY_UJ:DRAM"), "DRAM energy is a socket's");
    expect(!pmpi_socket_wide_event("powercap:::ENERGY_UJ:ZONE0"), "a zone is not narrowed");
    expect(!pmpi_socket_wide_event("powercap:::POWER_LIMIT_A_UW:ZONE0"), "a limit is no count");
    /* a node's devices: every rank of the node reads them, the job takes them once */
    expect(pmpi_node_device_event("nvml:::NVIDIA_H100:device_0:gpm_sm_activity_ns"),
           "an nvml event is a node device's");
    expect(pmpi_node_device_event("amdgpu:::card0:gpu_busy_percent"), "amdgpu: a device's");
    expect(pmpi_node_device_event("rocm_smi:::device_0:energy_count"), "rocm_smi: a device's");
    expect(pmpi_node_device_event("powercap:::ENERGY_UJ:ZONE0"), "a zone is a node device's");
    expect(!pmpi_node_device_event("powercap:::ENERGY_UJ:TOTAL"), "a sum is its socket's");
    expect(!pmpi_node_device_event("net:::lo:rx:bytes"), "net is no device of this rule");
    expect(!pmpi_node_device_event("PAPI_TOT_INS"), "a preset is a thread's");
    char nm[128];
    pmpi_socket_event_name("powercap:::ENERGY_UJ:TOTAL", 1, nm, sizeof nm);
    expect(strcmp(nm, "powercap:::ENERGY_UJ:TOTAL:PKG1") == 0, "package 1's reader: TOTAL:PKG1");
    pmpi_socket_event_name("powercap:::ENERGY_UJ:TOTAL", -1, nm, sizeof nm);
    expect(strcmp(nm, "powercap:::ENERGY_UJ:TOTAL") == 0, "unknown package: the node's");
    pmpi_socket_event_name("uncore_imc_0::cas_count_read", 1, nm, sizeof nm);
    expect(strcmp(nm, "uncore_imc_0::cas_count_read") == 0, "a memory controller as it is");

    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0) {
        int want = sysfs_package(0), got = pmpi_own_package();
        printf("pinned to CPU 0: package %d (sysfs: %d)\n", got, want);
        expect(got == want, "pinned to CPU 0, the package is CPU 0's");
    }
    if (failures)
        return 1;
    printf("test_socket_share: PASSED\n");
    return 0;
}
