/* hwinfo_dump: this process's hardware description as key=value lines (counts, caches,
 * NUMA nodes with their memory and threads) after the topology source, for
 * check_sysfs_topology.py to compare the sysfs reader with hwloc. White box (the NUMA
 * description is internal), so it links the static library. */
#include <papi.h>
#include <stdio.h>

#include "hwinfo.h"

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "hwinfo_dump: PAPI_library_init failed\n");
        return 1;
    }
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    const struct hwinfo_numa *numa = hwinfo_numa_info();
    if (!hw || !numa) {
        fprintf(stderr, "hwinfo_dump: no hardware information\n");
        return 1;
    }
    printf("source=%s\n", PAPI_get_hardware_info_topology_source());
    printf("totalcpus=%d sockets=%d cores=%d threads=%d nnodes=%d ncpu=%d\n", hw->totalcpus,
           hw->sockets, hw->cores, hw->threads, hw->nnodes, hw->ncpu);
    const PAPI_mh_info_t *mh = &hw->mem_hierarchy;
    printf("levels=%d\n", mh->levels);
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
            const PAPI_mh_cache_info_t *c = &mh->level[l].cache[j];
            if (c->type != PAPI_MH_TYPE_EMPTY)
                printf("cache=%d:%d:%d:%d:%d:%d\n", l + 1, PAPI_MH_CACHE_TYPE(c->type), c->size,
                       c->line_size, c->num_lines, c->associativity);
        }
    printf("numa_nodes=%d\n", numa->nodes);
    for (int n = 0; n < numa->nodes; n++) {
        printf("node%d_bytes=%llu node%d_cpus=", n, numa->mem_bytes[n], n);
        for (int c = 0; c < numa->pus && c < HWINFO_MAX_PUS; c++)
            if (numa->pu_node[c] == n)
                printf("%d,", c);
        printf("\n");
    }
    PAPI_shutdown();
    return 0;
}
