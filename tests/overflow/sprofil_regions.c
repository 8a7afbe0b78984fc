/* PAPI_sprofil with two regions and the overflow bucket (pr_scale 2): faults in
 * function A go to region A's buffer, in B to B's, and faults in a function outside
 * both regions to the single overflow bucket. Threshold 10: 500/300/200 faults give
 * 50/30/20 samples. */
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_a, "ovf_touch_a")
TOUCH_FN(touch_b, "ovf_touch_b")
TOUCH_FN(touch_c, "ovf_touch_c")
extern char __start_ovf_touch_a[], __stop_ovf_touch_a[];
extern char __start_ovf_touch_b[], __stop_ovf_touch_b[];
extern char __start_ovf_touch_c[], __stop_ovf_touch_c[];

static unsigned long long sum16(const uint16_t *b, size_t n)
{
    unsigned long long s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i];
    return s;
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, pf;
    pf = page_fault_set(&es);
    warm_up();
    touch_a(2);
    touch_b(2);
    touch_c(2);

    size_t la = SECTION_END(ovf_touch_a) - SECTION_START(ovf_touch_a);
    size_t lb = SECTION_END(ovf_touch_b) - SECTION_START(ovf_touch_b);
    uint16_t *ba = calloc(1, la), *bb = calloc(1, lb), overflow_bucket = 0;
    PAPI_sprofil_t regions[3] = {
        {.pr_base = ba, .pr_size = (unsigned)la, .pr_off = (vptr_t)SECTION_START(ovf_touch_a),
         .pr_scale = 0x10000},
        {.pr_base = bb, .pr_size = (unsigned)lb, .pr_off = (vptr_t)SECTION_START(ovf_touch_b),
         .pr_scale = 0x10000},
        {.pr_base = &overflow_bucket, .pr_size = 1, .pr_off = 0, .pr_scale = 0x2},
    };
    /* Errors: a region with scale 0 or 1, or with no buffer. */
    regions[1].pr_scale = 1;
    CHECK_RET(PAPI_sprofil(regions, 3, es, pf, 10, PAPI_PROFIL_POSIX), PAPI_EINVAL);
    regions[1].pr_scale = 0x10000;
    regions[0].pr_base = NULL;
    CHECK_RET(PAPI_sprofil(regions, 3, es, pf, 10, PAPI_PROFIL_POSIX), PAPI_EINVAL);
    regions[0].pr_base = ba;

    CHECK_RET(PAPI_sprofil(regions, 3, es, pf, 10, PAPI_PROFIL_POSIX | PAPI_PROFIL_BUCKET_16),
              PAPI_OK);
    long long v = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_a(500);
    touch_b(300);
    touch_c(200);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_RET(PAPI_sprofil(regions, 3, es, pf, 0, 0), PAPI_OK);
    unsigned long long sa = sum16(ba, la / 2), sb = sum16(bb, lb / 2);
    printf("%lld faults: region A %llu, region B %llu, overflow bucket %u samples\n", v, sa, sb,
           overflow_bucket);
    CHECK_EQ_LL(v, 1000);
    CHECK_EQ_LL(sa, 50);
    CHECK_EQ_LL(sb, 30);
    CHECK_EQ_LL(overflow_bucket, 20);

    /* Without an overflow region, samples outside every region are dropped. */
    memset(ba, 0, la);
    CHECK_RET(PAPI_sprofil(regions, 1, es, pf, 10, 0), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_a(100);
    touch_c(100);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    CHECK_RET(PAPI_sprofil(regions, 1, es, pf, 0, 0), PAPI_OK);
    CHECK_EQ_LL(sum16(ba, la / 2), 10);
    CHECK_EQ_LL(overflow_bucket, 20);

    free(ba);
    free(bb);
    free_set(&es);
    PAPI_shutdown();
    return test_done("sprofil_regions");
}
