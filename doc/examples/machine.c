/* Example: the machine, the program and the clocks: hardware description, executable,
 * shared objects, memory use, timers, and which release of the library runs.
 * Shows: PAPI_get_hardware_info PAPI_get_hardware_info_mhz_source
 * PAPI_get_hardware_info_topology_source PAPI_num_hwctrs
 * PAPI_get_substrate_info PAPI_get_executable_info PAPI_get_shared_lib_info
 * PAPI_get_dmem_info PAPI_get_real_usec PAPI_get_real_nsec PAPI_get_real_cyc
 * PAPI_get_virt_usec PAPI_get_virt_nsec PAPI_get_virt_cyc PAPI_compat_version */
#include <papi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    const PAPI_shlib_info_t *libs = PAPI_get_shared_lib_info();
    const PAPI_substrate_info_t *cpu = PAPI_get_substrate_info(); /* component 0 */
    PAPI_dmem_info_t mem;
    if (!hw || !exe || !libs || !cpu || PAPI_get_dmem_info(&mem) != PAPI_OK)
        return 1;
    printf("%s: %d CPUs, %d MHz (from %s), %d hardware counters\n", hw->model_string,
           hw->totalcpus, hw->cpu_max_mhz, PAPI_get_hardware_info_mhz_source(), PAPI_num_hwctrs());
    printf("CPU counts and caches from %s\n", PAPI_get_hardware_info_topology_source());
    int pagesize_ok = mem.pagesize == sysconf(_SC_PAGESIZE);
    printf("program %s, %d shared objects, page size as the system's: %s\n", exe->address_info.name,
           libs->count, pagesize_ok ? "yes" : "no");
    int found = 0;
    for (int i = 0; i < libs->count; i++)
        found |= strstr(libs->map[i].name, "libpapi") != NULL;
    printf("libpapi among them: %s; counting with %s\n", found ? "yes" : "no", cpu->name);

    long long r0 = PAPI_get_real_usec(), n0 = PAPI_get_real_nsec(), c0 = PAPI_get_real_cyc();
    long long v0 = PAPI_get_virt_usec(), vn0 = PAPI_get_virt_nsec(), vc0 = PAPI_get_virt_cyc();
    usleep(20000); /* 20 ms of wall-clock time, almost no CPU time */
    long long real_us = PAPI_get_real_usec() - r0, real_ns = PAPI_get_real_nsec() - n0;
    int cycles_moved = PAPI_get_real_cyc() > c0 && PAPI_get_virt_cyc() >= vc0;
    printf("slept: real time >= 20 ms: %s, in ns too: %s, CPU time below it: %s, cycles: %s\n",
           real_us >= 20000 ? "yes" : "no", real_ns >= 20000000 ? "yes" : "no",
           PAPI_get_virt_usec() - v0 < real_us && PAPI_get_virt_nsec() >= vn0 ? "yes" : "no",
           cycles_moved ? "yes" : "no");
    printf("papi-compat %s (PAPI %d.%d)\n", PAPI_compat_version(), PAPI_VERSION_MAJOR(PAPI_VERSION),
           PAPI_VERSION_MINOR(PAPI_VERSION));
    return 0;
}
