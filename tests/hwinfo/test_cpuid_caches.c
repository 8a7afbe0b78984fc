/* test_cpuid_caches: the cache decoders of hwinfo_caches.c on register values given
 * here, so it runs on any machine: Intel's deterministic cache leaf 4 (a Skylake client's
 * L1d and L2; a fully associative bit), the empty sub-leaf that ends the list, and AMD's
 * older 0x80000005/6 leaves as QEMU's EPYC model fills them (this project's VM: L1d 48 KB
 * 12-way, L1i 32 KB 8-way, L2 1 MB 8-way, L3 508 MB with code 9, "see 0x8000001D",
 * unknown ways; what hwloc-ls shows there). Then the placement in PAPI's table. */
#include "papi_test.h"
#include "hwinfo_caches.h"

static void expect_cache(const char *what, const struct hwinfo_cache *c, int level, int type,
                         long long size, long long line, long long ways)
{
    CHECK(c->level == level, "%s: level %d, want %d", what, c->level, level);
    CHECK(c->type == type, "%s: type %d, want %d", what, c->type, type);
    CHECK(c->size == size, "%s: size %lld, want %lld", what, c->size, size);
    CHECK(c->line == line, "%s: line %lld, want %lld", what, c->line, line);
    CHECK(c->ways == ways, "%s: ways %lld, want %lld", what, c->ways, ways);
}

int main(void)
{
    struct hwinfo_cache c[8];
    /* Skylake client, leaf 4 sub-leaves 0 and 2: 64 sets x 8 ways x 64 B, 1024 x 4 x 64 B. */
    CHECK(hwinfo_cpuid_cache_decode(0x1c004121, 0x01c0003f, 0x0000003f, &c[0]) == 1, "L1d");
    expect_cache("skylake L1d", &c[0], 1, PAPI_MH_TYPE_DATA, 32768, 64, 8);
    CHECK(hwinfo_cpuid_cache_decode(0x1c004143, 0x00c0003f, 0x000003ff, &c[1]) == 1, "L2");
    expect_cache("skylake L2", &c[1], 2, PAPI_MH_TYPE_UNIFIED, 262144, 64, 4);
    CHECK(hwinfo_cpuid_cache_decode(0x1c004122 | (1u << 9), 0x01c0003f, 0, &c[2]) == 1, "full");
    expect_cache("fully associative L1i", &c[2], 1, PAPI_MH_TYPE_INST, 8 * 64, 64, -1);
    CHECK(hwinfo_cpuid_cache_decode(0, 0, 0, &c[3]) == 0, "type 0 must end the list");
    CHECK(hwinfo_cpuid_cache_decode(0x1c004124, 0x01c0003f, 0, &c[3]) == -1,
          "a reserved kind is skipped");

    /* QEMU EPYC's 0x80000005 ECX/EDX and 0x80000006 ECX/EDX, read on this project's VM. */
    int n = hwinfo_amd_legacy_caches(0x300c0140, 0x20080140, 0x04006140, 0x0fe09140, c);
    CHECK(n == 4, "AMD legacy leaves: %d caches, want 4", n);
    expect_cache("epyc L1d", &c[0], 1, PAPI_MH_TYPE_DATA, 48 * 1024, 64, 12);
    expect_cache("epyc L1i", &c[1], 1, PAPI_MH_TYPE_INST, 32 * 1024, 64, 8);
    expect_cache("epyc L2", &c[2], 2, PAPI_MH_TYPE_UNIFIED, 1024 * 1024, 64, 8);
    expect_cache("epyc L3", &c[3], 3, PAPI_MH_TYPE_UNIFIED, 508LL * 1024 * 1024, 64, 0);
    CHECK(hwinfo_amd_legacy_caches(0, 0, 0x04000140, 0, c) == 0,
          "no L1 sizes and an L2 with code 0 (disabled): no cache");
    CHECK(hwinfo_amd_assoc(0xf) == -1 && hwinfo_amd_assoc(0xe) == 128, "AMD codes");

    /* Placed in PAPI's order per level: data before instruction; L3 unknown ways 0. */
    PAPI_mh_info_t mh;
    memset(&mh, 0, sizeof mh);
    n = hwinfo_amd_legacy_caches(0x300c0140, 0x20080140, 0x04006140, 0x0fe09140, c);
    struct hwinfo_cache rev[4] = {c[3], c[1], c[2], c[0]};
    hwinfo_place_caches(&mh, rev, n);
    CHECK(mh.levels == 3, "levels %d, want 3", mh.levels);
    CHECK(mh.level[0].cache[0].type == PAPI_MH_TYPE_DATA && mh.level[0].cache[0].size == 49152 &&
              mh.level[0].cache[0].num_lines == 768 && mh.level[0].cache[0].associativity == 12,
          "L1 slot 0 is the 48 KB data cache");
    CHECK(mh.level[0].cache[1].type == PAPI_MH_TYPE_INST && mh.level[0].cache[1].size == 32768,
          "L1 slot 1 is the 32 KB instruction cache");
    CHECK(mh.level[2].cache[0].size == 532676608 && mh.level[2].cache[0].associativity == 0,
          "L3 508 MB, ways unknown");
    struct hwinfo_cache full = {1, PAPI_MH_TYPE_DATA, 512, 64, -1};
    memset(&mh, 0, sizeof mh);
    hwinfo_place_caches(&mh, &full, 1);
    CHECK(mh.level[0].cache[0].associativity == HWINFO_FULLY_ASSOCIATIVE,
          "fully associative is PAPI's %d", HWINFO_FULLY_ASSOCIATIVE);
    return test_done("test_cpuid_caches");
}
