/* test_hwinfo_live: PAPI_get_hardware_info on this machine, checked against sources
 * independent of hwloc: sysconf for the CPU count, /sys/devices/system/cpu/cpu0/cache
 * for the caches, /proc/cpuinfo for the vendor and the hypervisor flag. */
#include "papi_test.h"

static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return ok ? 0 : -1;
}

static void check_sysfs_caches(const PAPI_hw_info_t *hw)
{
    int checked = 0;
    for (int idx = 0; idx < 16; idx++) {
        char path[128], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
        if (read_line(path, buf, sizeof buf) != 0)
            break;
        int level = atoi(buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", idx);
        read_line(path, buf, sizeof buf);
        int type = !strcmp(buf, "Data") ? PAPI_MH_TYPE_DATA
                   : !strcmp(buf, "Instruction") ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_UNIFIED;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
        read_line(path, buf, sizeof buf);
        long long size = atoll(buf) * (strchr(buf, 'M') ? 1048576 : strchr(buf, 'K') ? 1024 : 1);
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", idx);
        read_line(path, buf, sizeof buf);
        int line = atoi(buf);
        const PAPI_mh_cache_info_t *found = NULL;
        for (int j = 0; level >= 1 && level <= PAPI_MAX_MEM_HIERARCHY_LEVELS && j < PAPI_MH_MAX_LEVELS; j++)
            if (PAPI_MH_CACHE_TYPE(hw->mem_hierarchy.level[level - 1].cache[j].type) == type)
                found = &hw->mem_hierarchy.level[level - 1].cache[j];
        CHECK(found != NULL, "sysfs index%d (L%d type %d) missing from mem_hierarchy", idx, level, type);
        if (found) {
            CHECK_EQ_LL(found->size, size);
            CHECK_EQ_LL(found->line_size, line);
        }
        checked++;
    }
    printf("caches compared with sysfs: %d\n", checked);
}

int main(void)
{
    if (getenv("HWLOC_XMLFILE") || getenv("HWLOC_SYNTHETIC"))
        test_skip("a replayed topology is set; this test describes the live machine");
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    CHECK(hw != NULL, "PAPI_get_hardware_info returned NULL");
    if (!hw)
        return test_done("test_hwinfo_live");
    CHECK_EQ_LL(hw->totalcpus, sysconf(_SC_NPROCESSORS_CONF));
    CHECK_EQ_LL(hw->sockets * hw->cores * hw->threads, hw->totalcpus);
    CHECK(hw->vendor_string[0] != '\0', "empty vendor string");
    CHECK(hw->model_string[0] != '\0', "empty model string");
    check_sysfs_caches(hw);

    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[4096];
    int hv_flag = 0;
    char vendor[128] = "";
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
            hv_flag = 1;
        if (!strncmp(line, "vendor_id", 9) && !vendor[0])
            sscanf(line, "vendor_id : %127s", vendor);
    }
    if (f)
        fclose(f);
    if (vendor[0])
        CHECK(!strcmp(vendor, hw->vendor_string), "vendor '%s' vs cpuinfo '%s'", hw->vendor_string, vendor);
    if (hv_flag) {
        CHECK(hw->virtualized == 1, "cpuinfo says hypervisor, virtualized=%d", hw->virtualized);
        CHECK(hw->virtual_vendor_string[0] != '\0', "no hypervisor name");
    }
    if (!strcmp(vendor, "AuthenticAMD")) {
        /* AMD always reports its L1 TLBs in cpuid 0x80000005. */
        int tlbs = 0;
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++)
            tlbs += (hw->mem_hierarchy.level[0].tlb[j].type & PAPI_MH_TYPE_TLB) != 0 &&
                    hw->mem_hierarchy.level[0].tlb[j].num_entries > 0;
        CHECK(tlbs >= 2, "AMD CPU: %d L1 TLB descriptions", tlbs);
    }
#if defined(__x86_64__)
    CHECK(hw->mhz > 0, "mhz=%f", (double)hw->mhz);
    CHECK(hw->cpu_max_mhz >= hw->cpu_min_mhz && hw->cpu_min_mhz > 0, "min %d max %d",
          hw->cpu_min_mhz, hw->cpu_max_mhz);
#endif
    printf("%s / %s, %d CPUs, VM: %s\n", hw->vendor_string, hw->model_string, hw->totalcpus,
           hw->virtualized ? hw->virtual_vendor_string : "no");
    PAPI_shutdown();
    return test_done("test_hwinfo_live");
}
