/* test_cpuid_leaf2: the Intel cpuid leaf 2 TLB decoder (hwinfo_x86_leaf2.c) on register
 * values given here, so it runs on any machine: a Haswell's real leaf 2, the rules of the
 * format (AL is no descriptor, a register with bit 31 set is ignored, cache/prefetch/
 * unknown bytes add nothing) and hwinfo_add_tlb's limit of PAPI_MH_MAX_LEVELS TLBs per
 * level. Expected values are the SDM's "Encoding of CPUID Leaf 2 Descriptors". */
#include "papi_test.h"
#include "hwinfo_internal.h"
#include "hwinfo_tlb.h"
#include "hwinfo_x86_leaf2.h"

#define I (PAPI_MH_TYPE_TLB | PAPI_MH_TYPE_INST)
#define D (PAPI_MH_TYPE_TLB | PAPI_MH_TYPE_DATA)
#define U (PAPI_MH_TYPE_TLB | PAPI_MH_TYPE_UNIFIED)
#define FULL HWINFO_FULLY_ASSOCIATIVE

struct want {
    int type, entries, page_kb, assoc;
};

static void decode(PAPI_mh_info_t *mh, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
    memset(mh, 0, sizeof *mh);
    hwinfo_cpuid_leaf2_tlbs(mh, eax, ebx, ecx, edx);
}

/* Level `level` holds exactly `n` TLBs, these, in this order; the rest is empty. */
static void expect_level(const char *what, const PAPI_mh_info_t *mh, int level,
                         const struct want *w, int n)
{
    const PAPI_mh_level_t *L = &mh->level[level];
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        const PAPI_mh_tlb_info_t *t = &L->tlb[j];
        if (j >= n) {
            CHECK(t->type == PAPI_MH_TYPE_EMPTY, "%s: level %d tlb[%d] not empty: type 0x%x", what,
                  level, j, t->type);
            continue;
        }
        CHECK(t->type == w[j].type, "%s: level %d tlb[%d] type 0x%x, want 0x%x", what, level, j,
              t->type, w[j].type);
        CHECK(t->num_entries == w[j].entries, "%s: level %d tlb[%d] entries %d, want %d", what,
              level, j, t->num_entries, w[j].entries);
        CHECK(t->page_size == w[j].page_kb, "%s: level %d tlb[%d] page %d KB, want %d KB", what,
              level, j, t->page_size, w[j].page_kb);
        CHECK(t->associativity == w[j].assoc, "%s: level %d tlb[%d] associativity %d, want %d",
              what, level, j, t->associativity, w[j].assoc);
    }
}

/* Both levels of a decoded leaf 2 (l1: n1 TLBs, l2: n2), and no third. */
static void expect_two_levels(const char *what, const PAPI_mh_info_t *mh, const struct want *l1,
                              int n1, const struct want *l2, int n2)
{
    expect_level(what, mh, 0, l1, n1);
    expect_level(what, mh, 1, l2, n2);
    CHECK(mh->levels == 2, "%s: levels %d, want 2", what, mh->levels);
}

static void expect_empty(const char *what, const PAPI_mh_info_t *mh)
{
    CHECK(mh->levels == 0, "%s: levels %d, want 0", what, mh->levels);
    for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        expect_level(what, mh, l, NULL, 0);
}

/* Haswell (and Broadwell) leaf 2: 01 (AL), 63 03 76 | FF B5 F0 00 | - | 00 00 C3 00. */
static void haswell(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x76036301, 0x00F0B5FF, 0, 0x00C30000);
    const struct want l1[] = {
        {D, 32, 2048, 4},    /* 63: 2M/4M pages, 4-way, 32 entries ... */
        {D, 4, 1048576, 4},  /*     ... and a separate 1G array, 4-way, 4 entries */
        {D, 64, 4, 4},       /* 03: 4K pages, 4-way, 64 entries */
        {I, 8, 2048, FULL},  /* 76: 2M/4M pages, fully associative, 8 entries */
        {I, 64, 4, 8},       /* B5: 4K pages, 8-way, 64 entries */
    };
    const struct want l2[] = {
        {U, 1536, 4, 6},     /* C3: shared 4K/2M, 6-way, 1536 entries ... */
        {U, 1536, 2048, 6},
        {U, 16, 1048576, 4}, /*     ... and 1G pages, 4-way, 16 entries */
    };
    expect_level("haswell", &mh, 0, l1, 5);
    expect_level("haswell", &mh, 1, l2, 3);
    expect_level("haswell", &mh, 2, NULL, 0);
    CHECK(mh.levels == 2, "haswell: levels %d, want 2", mh.levels);

    /* Added to what is there: caches already make 3 levels, the count does not shrink. */
    memset(&mh, 0, sizeof mh);
    mh.levels = 3;
    hwinfo_cpuid_leaf2_tlbs(&mh, 0x76036301, 0x00F0B5FF, 0, 0x00C30000);
    CHECK(mh.levels == 3, "haswell after caches: levels %d, want 3", mh.levels);
    expect_level("haswell after caches", &mh, 1, l2, 3);
}

/* Nehalem (Core i7 920) leaf 2: 5A 03 55 | E4 B2 F0 00 | - | 2C 21 CA 09. */
static void nehalem(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x55035A01, 0x00F0B2E4, 0, 0x09CA212C);
    const struct want l1[] = {
        {D, 32, 2048, 4},  /* 5A: 2M or 4M pages, 4-way, 32 entries */
        {D, 64, 4, 4},     /* 03 */
        {I, 7, 2048, FULL}, /* 55: 2M or 4M pages, fully associative, 7 entries */
        {I, 64, 4, 4},     /* B2 */
    };
    const struct want l2[] = {{U, 512, 4, 4}}; /* CA */
    expect_two_levels("nehalem", &mh, l1, 4, l2, 1);
}

/* B1 names two page sizes with different entry counts, 5B names 4K and 4M pages; C0
 * then finds level 0 full, CA (shared second level) goes to level 1. */
static void two_page_sizes(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x05B0B101, 0x00CAC05B, 0, 0);
    const struct want l1[] = {
        {I, 8, 2048, 4},   /* B1: 2M pages, 4-way, 8 entries */
        {I, 4, 4096, 4},   /*     or 4M pages, 4-way, 4 entries */
        {I, 128, 4, 4},    /* B0 */
        {D, 32, 4096, 4},  /* 05 */
        {D, 64, 4, FULL},  /* 5B: 4K and 4M pages, 64 entries */
        {D, 64, 4096, FULL},
    };
    const struct want l2[] = {{U, 512, 4, 4}}; /* CA, after C0 found level 0 full */
    expect_two_levels("core2", &mh, l1, 6, l2, 1);
}

/* AL is the iteration count: 0x01 there is not the 4K instruction TLB descriptor 01. */
static void al_is_not_a_descriptor(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x00000001, 0, 0, 0);
    expect_empty("AL only", &mh);
    decode(&mh, 0x00000003, 0, 0, 0);
    expect_empty("AL=03", &mh);
    /* The same byte anywhere else in the registers is a descriptor. */
    decode(&mh, 0, 0x00000001, 0, 0);
    const struct want itlb[] = {{I, 32, 4, 4}};
    expect_level("01 in EBX", &mh, 0, itlb, 1);
}

/* Bit 31 set: the register is reserved, none of its bytes is decoded. */
static void reserved_register(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x80630301, 0x80C3B5B0, 0x800303CA, 0x80000003);
    expect_empty("bit 31 set everywhere", &mh);
    /* Only the reserved register is skipped. */
    decode(&mh, 0x00000001, 0x80C3B5B0, 0x000000CA, 0);
    const struct want stlb[] = {{U, 512, 4, 4}};
    expect_level("EBX reserved", &mh, 0, NULL, 0);
    expect_level("EBX reserved", &mh, 1, stlb, 1);
}

/* Cache, prefetch, null, FF ("use leaf 4"), FE ("use leaf 18H") and unassigned bytes. */
static void not_tlbs(void)
{
    PAPI_mh_info_t mh;
    decode(&mh, 0x7D2C3001, 0x00F1F0FF, 0x4940E421, 0x009F07FE);
    expect_empty("caches and unknown", &mh);
    decode(&mh, 0x00000001, 0, 0, 0);
    expect_empty("all null", &mh);
}

/* hwinfo_add_tlb keeps at most PAPI_MH_MAX_LEVELS TLBs per level and drops the rest. */
static void level_full(void)
{
    PAPI_mh_info_t mh;
    /* 50 51 52: six level-0 entries; then B0 and 01 find level 0 full; CA still goes to
     * level 1. */
    decode(&mh, 0x52515001, 0x000001B0, 0x000000CA, 0);
    const struct want l1[] = {
        {I, 64, 4, FULL},  {I, 64, 2048, FULL},  {I, 128, 4, FULL},
        {I, 128, 2048, FULL}, {I, 256, 4, FULL}, {I, 256, 2048, FULL},
    };
    const struct want l2[] = {{U, 512, 4, 4}};
    expect_two_levels("full level", &mh, l1, PAPI_MH_MAX_LEVELS, l2, 1);

    /* Partly filled before: C3's three level-1 entries only fit where room is left. */
    memset(&mh, 0, sizeof mh);
    for (int j = 0; j < PAPI_MH_MAX_LEVELS - 2; j++)
        hwinfo_add_tlb(&mh, 1, D, 1, 4, 1);
    hwinfo_cpuid_leaf2_tlbs(&mh, 0x00000001, 0, 0, 0x00C30000);
    const struct want l2b[] = {
        {D, 1, 4, 1}, {D, 1, 4, 1}, {D, 1, 4, 1}, {D, 1, 4, 1},
        {U, 1536, 4, 6}, {U, 1536, 2048, 6}, /* the 1G array has no slot left */
    };
    expect_level("level 1 nearly full", &mh, 1, l2b, PAPI_MH_MAX_LEVELS);
}

int main(void)
{
    haswell();
    nehalem();
    two_page_sizes();
    al_is_not_a_descriptor();
    reserved_register();
    not_tlbs();
    level_full();
    return test_done("test_cpuid_leaf2");
}
