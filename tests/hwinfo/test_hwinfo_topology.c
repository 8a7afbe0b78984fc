/* test_hwinfo_topology: PAPI_get_hardware_info against the expected description of a
 * recorded topology (HWLOC_XMLFILE is set by ctest). Expectations come as arguments:
 *   totalcpus=N sockets=N cores=N threads=N nnodes=N ncpu=N levels=N vendor=STR
 *   cache=LEVEL:TYPE:SIZE:LINE:ASSOC (TYPE d, i or u) ... */
#include "papi_test.h"

static const PAPI_mh_cache_info_t *find_cache(const PAPI_hw_info_t *hw, int level, int type)
{
    if (level < 1 || level > PAPI_MAX_MEM_HIERARCHY_LEVELS)
        return NULL;
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        const PAPI_mh_cache_info_t *c = &hw->mem_hierarchy.level[level - 1].cache[j];
        if (PAPI_MH_CACHE_TYPE(c->type) == type)
            return c;
    }
    return NULL;
}

static void check_cache(const PAPI_hw_info_t *hw, const char *spec)
{
    int level, size, line, assoc;
    char t;
    if (sscanf(spec, "%d:%c:%d:%d:%d", &level, &t, &size, &line, &assoc) != 5) {
        CHECK(0, "bad cache spec '%s'", spec);
        return;
    }
    int type = t == 'd' ? PAPI_MH_TYPE_DATA : t == 'i' ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_UNIFIED;
    const PAPI_mh_cache_info_t *c = find_cache(hw, level, type);
    CHECK(c != NULL, "no L%d %c cache in mem_hierarchy", level, t);
    if (!c)
        return;
    CHECK_EQ_LL(c->size, size);
    CHECK_EQ_LL(c->line_size, line);
    CHECK_EQ_LL(c->num_lines, size / line);
    CHECK_EQ_LL(c->associativity, assoc);
}

int main(int argc, char **argv)
{
    CHECK(PAPI_get_hardware_info() == NULL, "hardware info before init must be NULL");
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    CHECK(hw != NULL, "PAPI_get_hardware_info returned NULL");
    if (!hw)
        return test_done("test_hwinfo_topology");
    printf("totalcpus=%d sockets=%d cores=%d threads=%d nnodes=%d ncpu=%d levels=%d vendor='%s'\n",
           hw->totalcpus, hw->sockets, hw->cores, hw->threads, hw->nnodes, hw->ncpu,
           hw->mem_hierarchy.levels, hw->vendor_string);
    int ncaches = 0;
    for (int i = 1; i < argc; i++) {
        char key[32];
        int n = 0;
        if (sscanf(argv[i], "%31[^=]=%n", key, &n) != 1 || n == 0) {
            CHECK(0, "bad argument '%s'", argv[i]);
            continue;
        }
        const char *val = argv[i] + n;
        long long want = atoll(val);
        if (!strcmp(key, "totalcpus")) CHECK_EQ_LL(hw->totalcpus, want);
        else if (!strcmp(key, "sockets")) CHECK_EQ_LL(hw->sockets, want);
        else if (!strcmp(key, "cores")) CHECK_EQ_LL(hw->cores, want);
        else if (!strcmp(key, "threads")) CHECK_EQ_LL(hw->threads, want);
        else if (!strcmp(key, "nnodes")) CHECK_EQ_LL(hw->nnodes, want);
        else if (!strcmp(key, "ncpu")) CHECK_EQ_LL(hw->ncpu, want);
        else if (!strcmp(key, "levels")) CHECK_EQ_LL(hw->mem_hierarchy.levels, want);
        else if (!strcmp(key, "family")) CHECK_EQ_LL(hw->cpuid_family, want);
        else if (!strcmp(key, "vendor"))
            CHECK(!strcmp(hw->vendor_string, val), "vendor '%s', want '%s'", hw->vendor_string, val);
        else if (!strcmp(key, "model"))
            CHECK(!strcmp(hw->model_string, val), "model '%s', want '%s'", hw->model_string, val);
        else if (!strcmp(key, "cache")) {
            check_cache(hw, val);
            ncaches++;
        } else
            CHECK(0, "unknown key '%s'", key);
    }
    /* Every cache the table holds was expected: no invented levels. */
    int present = 0;
    for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++)
            present += hw->mem_hierarchy.level[l].cache[j].type != PAPI_MH_TYPE_EMPTY;
    CHECK_EQ_LL(present, ncaches);
    /* The product of the counts is the machine. */
    CHECK_EQ_LL(hw->sockets * hw->cores * hw->threads, hw->totalcpus);
    CHECK_EQ_LL(hw->ncpu * hw->nnodes, hw->totalcpus);
    /* A second call returns the same cached description. */
    CHECK(PAPI_get_hardware_info() == hw, "second call returned a different pointer");
    PAPI_shutdown();
    return test_done("test_hwinfo_topology");
}
