/* hwinfo_x86.c: what only the CPU itself can say: the brand string (leaves
 * 0x80000002-4), the hypervisor's signature (cpuid leaf 0x40000000) and the TLBs (AMD leaves 0x80000005/6, Intel leaf 0x18, or leaf 2 on Intel
 * CPUs without 0x18, decoded in hwinfo_x86_leaf2.c), and the caches where sysfs has
 * none (leaf 4 / 0x8000001D, decoded in hwinfo_caches.c). Other architectures report no TLBs
 * and leave the hypervisor to hwinfo.c. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hwinfo_caches.h"
#include "hwinfo_tlb.h"
#include "hwinfo_x86.h"
#include "hwinfo_x86_leaf2.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static unsigned max_leaf(unsigned base)
{
    unsigned r[4];
    cpuid(base, 0, r);
    return r[0];
}

/* cpuid traps to the hypervisor (tens of microseconds under nested virtualisation), and
 * the answer never changes: asked once per process, for pmu_access.c and hwinfo.c. */
static int hv_present;
static char hv_sig[13];
static pthread_once_t hv_once = PTHREAD_ONCE_INIT;

static void ask_hypervisor(void)
{
    unsigned r[4];
    cpuid(1, 0, r);
    if (!(r[2] & (1u << 31))) /* the "hypervisor present" bit */
        return;
    cpuid(0x40000000, 0, r);
    memcpy(hv_sig, &r[1], 4);
    memcpy(hv_sig + 4, &r[2], 4);
    memcpy(hv_sig + 8, &r[3], 4);
    hv_sig[12] = '\0';
    hv_present = 1;
}

int hwinfo_cpuid_hypervisor(char *name, size_t len)
{
    pthread_once(&hv_once, ask_hypervisor);
    if (hv_present)
        papi_strcpy(name, len, hv_sig); /* raw signature ("KVMKVMKVM"), as PAPI 7 prints it */
    return hv_present;
}

/* The processor's own name, as PAPI 7's sysdetect, hwloc's x86 backend and likwid read
 * it; a hypervisor may set /proc/cpuinfo's "model name" to something else. */
int hwinfo_cpuid_brand(char *name, size_t len)
{
    if (max_leaf(0x80000000) < 0x80000004)
        return 0;
    unsigned r[12];
    for (unsigned i = 0; i < 3; i++)
        cpuid(0x80000002 + i, 0, &r[4 * i]);
    char brand[49];
    memcpy(brand, r, 48);
    brand[48] = '\0';
    const char *b = brand + strspn(brand, " ");
    size_t n = strlen(b);
    while (n && b[n - 1] == ' ')
        n--;
    if (!n)
        return 0;
    snprintf(name, len, "%.*s", (int)n, b);
    return 1;
}

/* AMD encodes L2 TLB associativity as a code (leaf 0x80000006), as for its caches. */
static int amd_l2_assoc(unsigned code)
{
    int ways = hwinfo_amd_assoc(code);
    return ways < 0 ? HWINFO_FULLY_ASSOCIATIVE : ways;
}

static int amd_l1_assoc(unsigned v)
{
    return v == 0xff ? HWINFO_FULLY_ASSOCIATIVE : (int)v;
}

static void amd_tlbs(PAPI_mh_info_t *mh)
{
    unsigned r[4];
    unsigned top = max_leaf(0x80000000);
    if (top >= 0x80000005) {
        cpuid(0x80000005, 0, r);
        unsigned big = r[0], small = r[1]; /* EAX: 2M/4M pages, EBX: 4K pages */
        hwinfo_add_tlb(mh, 0, PAPI_MH_TYPE_INST | PAPI_MH_TYPE_TLB, small & 0xff, 4,
                       amd_l1_assoc((small >> 8) & 0xff));
        hwinfo_add_tlb(mh, 0, PAPI_MH_TYPE_DATA | PAPI_MH_TYPE_TLB, (small >> 16) & 0xff, 4,
                       amd_l1_assoc(small >> 24));
        hwinfo_add_tlb(mh, 0, PAPI_MH_TYPE_INST | PAPI_MH_TYPE_TLB, big & 0xff, 2048,
                       amd_l1_assoc((big >> 8) & 0xff));
        hwinfo_add_tlb(mh, 0, PAPI_MH_TYPE_DATA | PAPI_MH_TYPE_TLB, (big >> 16) & 0xff, 2048,
                       amd_l1_assoc(big >> 24));
    }
    if (top >= 0x80000006) {
        cpuid(0x80000006, 0, r);
        unsigned big = r[0], small = r[1];
        hwinfo_add_tlb(mh, 1, PAPI_MH_TYPE_INST | PAPI_MH_TYPE_TLB, small & 0xfff, 4,
                       amd_l2_assoc(small >> 12));
        hwinfo_add_tlb(mh, 1, PAPI_MH_TYPE_DATA | PAPI_MH_TYPE_TLB, (small >> 16) & 0xfff, 4,
                       amd_l2_assoc(small >> 28));
        hwinfo_add_tlb(mh, 1, PAPI_MH_TYPE_INST | PAPI_MH_TYPE_TLB, big & 0xfff, 2048,
                       amd_l2_assoc(big >> 12));
        hwinfo_add_tlb(mh, 1, PAPI_MH_TYPE_DATA | PAPI_MH_TYPE_TLB, (big >> 16) & 0xfff, 2048,
                       amd_l2_assoc(big >> 28));
    }
}

/* Intel's deterministic address translation leaf: one sub-leaf per TLB. Older CPUs
 * (no leaf 0x18) describe their TLBs only through leaf 2's descriptor bytes. */
static void intel_tlbs(PAPI_mh_info_t *mh, unsigned top)
{
    unsigned r[4];
    if (top < 0x18) {
        if (top >= 2) {
            cpuid(2, 0, r);
            hwinfo_cpuid_leaf2_tlbs(mh, r[0], r[1], r[2], r[3]);
        }
        return;
    }
    cpuid(0x18, 0, r);
    unsigned nsub = r[0];
    for (unsigned s = 0; s <= nsub && s < 32; s++) {
        if (s > 0) /* sub-leaf 0 is in r already */
            cpuid(0x18, s, r);
        unsigned kind = r[3] & 0x1f;
        if (kind == 0)
            continue;
        int type = PAPI_MH_TYPE_TLB | (kind == 2   ? PAPI_MH_TYPE_INST
                                       : kind == 3 ? PAPI_MH_TYPE_UNIFIED
                                                   : PAPI_MH_TYPE_DATA);
        int level = (int)((r[3] >> 5) & 7) - 1;
        int ways = (int)(r[1] >> 16);
        int entries = ways * (int)r[2];
        int assoc = (r[3] & (1u << 8)) ? HWINFO_FULLY_ASSOCIATIVE : ways;
        static const int page_kb[4] = {4, 2048, 4096, 1048576};
        for (int p = 0; p < 4; p++)
            if (r[1] & (1u << p))
                hwinfo_add_tlb(mh, level, type, entries, page_kb[p], assoc);
    }
}

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

/* The vendor from leaf 0, and its highest standard leaf in *top. */
static enum cpu_vendor cpu_vendor(unsigned *top)
{
    unsigned r[4];
    cpuid(0, 0, r);
    char vendor[13];
    memcpy(vendor, &r[1], 4);
    memcpy(vendor + 4, &r[3], 4);
    memcpy(vendor + 8, &r[2], 4);
    vendor[12] = '\0';
    *top = r[0];
    if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
        return VENDOR_AMD;
    return !strcmp(vendor, "GenuineIntel") ? VENDOR_INTEL : VENDOR_OTHER;
}

void hwinfo_cpuid_tlbs(PAPI_mh_info_t *mh)
{
    unsigned top;
    enum cpu_vendor v = cpu_vendor(&top);
    if (v == VENDOR_AMD)
        amd_tlbs(mh);
    else if (v == VENDOR_INTEL)
        intel_tlbs(mh, top);
}

int hwinfo_cpuid_caches(struct hwinfo_cache *c, int max)
{
    unsigned top, leaf, r[4];
    enum cpu_vendor v = cpu_vendor(&top);
    if (v == VENDOR_INTEL && top >= 4) {
        leaf = 4;
    } else if (v == VENDOR_AMD) {
        unsigned ext = max_leaf(0x80000000);
        cpuid(0x80000001, 0, r);
        leaf = ext >= 0x8000001d && (r[2] & (1u << 22)) ? 0x8000001d : 0; /* topology ext. */
        if (leaf)
            cpuid(leaf, 0, r);
        if ((!leaf || !(r[0] & 0x1f)) && ext >= 0x80000006 && max >= 4) {
            /* No deterministic leaf, or an empty one (QEMU's EPYC models): the old leaves. */
            unsigned l1[4];
            cpuid(0x80000005, 0, l1);
            cpuid(0x80000006, 0, r);
            return hwinfo_amd_legacy_caches(l1[2], l1[3], r[2], r[3], c);
        }
        if (!leaf)
            return 0;
    } else {
        return 0;
    }
    int n = 0;
    for (unsigned sub = 0; sub < 32 && n < max; sub++) {
        cpuid(leaf, sub, r);
        int got = hwinfo_cpuid_cache_decode(r[0], r[1], r[2], &c[n]);
        if (got == 0)
            break;
        if (got > 0)
            n++;
    }
    return n;
}

#else

int hwinfo_cpuid_brand(char *name, size_t len)
{
    (void)name;
    (void)len;
    return 0;
}

int hwinfo_cpuid_hypervisor(char *name, size_t len)
{
    (void)name;
    (void)len;
    return 0;
}

void hwinfo_cpuid_tlbs(PAPI_mh_info_t *mh)
{
    (void)mh;
}

int hwinfo_cpuid_caches(struct hwinfo_cache *c, int max)
{
    (void)c;
    (void)max;
    return 0;
}

#endif
