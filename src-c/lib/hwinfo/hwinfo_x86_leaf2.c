/* hwinfo_x86_leaf2.c: Intel cpuid leaf 2 TLB descriptors. Intel CPUs without leaf 0x18
 * (Haswell, Broadwell and older) describe their TLBs only as one-byte descriptors in
 * the EAX..EDX of cpuid leaf 2. This is the decoding alone (no cpuid here), so it
 * builds on every architecture; hwinfo_x86.c runs the instruction.
 *
 * Source: Intel SDM Vol. 2A, CPUID, "Encoding of CPUID Leaf 2 Descriptors". Where that
 * table leaves the associativity out (4FH-52H, 5BH-5DH), Intel Application Note 485
 * ("Intel Processor Identification and the CPUID Instruction") calls 50H-52H and
 * 5BH-5DH fully associative; 4FH has none in either and is reported as 0 (unknown).
 *
 * Conventions:
 * - Levels: only the "Shared 2nd-Level TLB" descriptors (STLB: C1H, C3H, CAH) name a
 *   level; they go to level index 1, as unified TLBs. Every other descriptor is level
 *   index 0 (the table's "TLB0"/"TLB1" and "uTLB" names are not levels).
 * - A TLB for "2M/4M" (or "2 MByte or 4 MByte") pages is one entry with page size
 *   2048 KB. A TLB shared by 4 KB and larger pages ("4 KByte/2 MByte", "4 KByte and
 *   2-MByte or 4-MByte") is two entries with the same size and associativity: 4 KB and
 *   2048 KB. "4 KByte and 4 MByte pages" (5BH-5DH, C0H) names 4 MB only: 4 KB and
 *   4096 KB.
 * - A descriptor naming separate arrays adds each: 63H (2M/4M and 1G data TLBs), B1H
 *   (8 entries of 2M or 4 entries of 4M), C3H (4K/2M and 1G parts of the STLB).
 * - 63H is read as the current SDM has it (2M/4M 32 entries plus 1G 4 entries); older
 *   editions listed only the 1G array.
 * - 6AH "uTLB" is a data TLB, like its 6BH-6DH siblings.
 * Cache (caches come from hwloc), prefetch, null, FEH/FFH ("use leaf 18H/4") and
 * unlisted bytes add nothing. */
#include "hwinfo_internal.h"
#include "hwinfo_tlb.h"
#include "hwinfo_x86_leaf2.h"

#define FULL HWINFO_FULLY_ASSOCIATIVE
#define KB4  4
#define MB2  2048
#define MB4  4096
#define GB1  1048576

#define ITLB PAPI_MH_TYPE_INST
#define DTLB PAPI_MH_TYPE_DATA
#define UTLB PAPI_MH_TYPE_UNIFIED /* shared by instructions and data */

/* One TLB; a descriptor with several TLBs has several consecutive rows. */
struct leaf2_tlb {
    unsigned char code;
    unsigned char level; /* mem_hierarchy level index */
    unsigned char type;  /* ITLB, DTLB or UTLB; PAPI_MH_TYPE_TLB is added when decoding */
    int entries;
    int page_kb;
    int assoc;
};

/* descriptor, level index, type, entries, page size (KB), ways (0: not documented) */
static const struct leaf2_tlb leaf2_tlbs[] = {
    {0x01, 0, ITLB, 32, KB4, 4},     {0x02, 0, ITLB, 2, MB4, FULL},
    {0x03, 0, DTLB, 64, KB4, 4},     {0x04, 0, DTLB, 8, MB4, 4},
    {0x05, 0, DTLB, 32, MB4, 4},     {0x0B, 0, ITLB, 4, MB4, 4},
    {0x4F, 0, ITLB, 32, KB4, 0},     {0x50, 0, ITLB, 64, KB4, FULL},
    {0x50, 0, ITLB, 64, MB2, FULL},  {0x51, 0, ITLB, 128, KB4, FULL},
    {0x51, 0, ITLB, 128, MB2, FULL}, {0x52, 0, ITLB, 256, KB4, FULL},
    {0x52, 0, ITLB, 256, MB2, FULL}, {0x55, 0, ITLB, 7, MB2, FULL},
    {0x56, 0, DTLB, 16, MB4, 4},     {0x57, 0, DTLB, 16, KB4, 4},
    {0x59, 0, DTLB, 16, KB4, FULL},  {0x5A, 0, DTLB, 32, MB2, 4},
    {0x5B, 0, DTLB, 64, KB4, FULL},  {0x5B, 0, DTLB, 64, MB4, FULL},
    {0x5C, 0, DTLB, 128, KB4, FULL}, {0x5C, 0, DTLB, 128, MB4, FULL},
    {0x5D, 0, DTLB, 256, KB4, FULL}, {0x5D, 0, DTLB, 256, MB4, FULL},
    {0x61, 0, ITLB, 48, KB4, FULL},  {0x63, 0, DTLB, 32, MB2, 4},
    {0x63, 0, DTLB, 4, GB1, 4},      {0x64, 0, DTLB, 512, KB4, 4},
    {0x6A, 0, DTLB, 64, KB4, 8},     {0x6B, 0, DTLB, 256, KB4, 8},
    {0x6C, 0, DTLB, 128, MB2, 8},    {0x6D, 0, DTLB, 16, GB1, FULL},
    {0x76, 0, ITLB, 8, MB2, FULL},   {0xA0, 0, DTLB, 32, KB4, FULL},
    {0xB0, 0, ITLB, 128, KB4, 4},    {0xB1, 0, ITLB, 8, MB2, 4},
    {0xB1, 0, ITLB, 4, MB4, 4},      {0xB2, 0, ITLB, 64, KB4, 4},
    {0xB3, 0, DTLB, 128, KB4, 4},    {0xB4, 0, DTLB, 256, KB4, 4},
    {0xB5, 0, ITLB, 64, KB4, 8},     {0xB6, 0, ITLB, 128, KB4, 8},
    {0xBA, 0, DTLB, 64, KB4, 4},     {0xC0, 0, DTLB, 8, KB4, 4},
    {0xC0, 0, DTLB, 8, MB4, 4},      {0xC1, 1, UTLB, 1024, KB4, 8},
    {0xC1, 1, UTLB, 1024, MB2, 8},   {0xC2, 0, DTLB, 16, KB4, 4},
    {0xC2, 0, DTLB, 16, MB2, 4},     {0xC3, 1, UTLB, 1536, KB4, 6},
    {0xC3, 1, UTLB, 1536, MB2, 6},   {0xC3, 1, UTLB, 16, GB1, 4},
    {0xC4, 0, DTLB, 32, MB2, 4},     {0xCA, 1, UTLB, 512, KB4, 4},
};

static void add_descriptor(PAPI_mh_info_t *mh, unsigned code)
{
    for (size_t i = 0; i < sizeof leaf2_tlbs / sizeof leaf2_tlbs[0]; i++) {
        const struct leaf2_tlb *t = &leaf2_tlbs[i];
        if (t->code == code)
            hwinfo_add_tlb(mh, t->level, PAPI_MH_TYPE_TLB | t->type, t->entries, t->page_kb,
                           t->assoc);
    }
}

void hwinfo_cpuid_leaf2_tlbs(PAPI_mh_info_t *mh, uint32_t eax, uint32_t ebx, uint32_t ecx,
                             uint32_t edx)
{
    const uint32_t regs[4] = {eax, ebx, ecx, edx};
    for (int r = 0; r < 4; r++) {
        if (regs[r] & (1u << 31)) /* reserved: no valid descriptors in this register */
            continue;
        /* AL (EAX byte 0) is the iteration count, not a descriptor. */
        for (int b = r == 0 ? 1 : 0; b < 4; b++)
            add_descriptor(mh, (regs[r] >> (8 * b)) & 0xff);
    }
}
