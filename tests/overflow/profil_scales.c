/* The scale table of PAPI_profil: every page fault of one touch call happens at the same
 * store instruction. With scale 0x20000 (one address per bucket) its bucket index is
 * its offset d from the region start; then 0x10000 must put it in d/2, 0xFFFF in
 * (d*0xFFFF)>>17 ("about two"), 0x8000 in d/4, 0x4000 in d/8 and 0x2 in bucket 0. The
 * buffer size follows bufsiz = (end-start)*(bucket_size/2)*(scale/65536). */
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_scaled, "ovf_touch_s")
extern char __start_ovf_touch_s[], __stop_ovf_touch_s[];

/* Profile 500 faults (threshold 10: 50 samples) and return the one bucket they hit,
 * or -1 when they were spread or lost. */
static long one_bucket(int es, int code, unsigned scale, int flags, unsigned bytes)
{
    uintptr_t start = SECTION_START(ovf_touch_s), end = SECTION_END(ovf_touch_s);
    size_t bufsiz = (size_t)((unsigned __int128)(end - start) * (bytes / 2) * scale / 65536);
    if (bufsiz < bytes)
        bufsiz = bytes;
    unsigned char *buf = calloc(1, bufsiz);
    CHECK_RET(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)start, scale, es, code, 10, flags),
              PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_scaled(500);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    CHECK_RET(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)start, scale, es, code, 0, flags),
              PAPI_OK);
    long hit = -1;
    unsigned long long total = 0;
    for (size_t i = 0; i < bufsiz / bytes; i++) {
        unsigned long long v = bytes == 2 ? ((uint16_t *)buf)[i]
                             : bytes == 4 ? ((uint32_t *)buf)[i]
                                          : ((uint64_t *)buf)[i];
        if (v) {
            hit = hit < 0 ? (long)i : -2;
            total += v;
        }
    }
    free(buf);
    CHECK(total == 50, "scale 0x%x: %llu samples, want 50", scale, total);
    return hit;
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, pf;
    pf = page_fault_set(&es);
    warm_up();
    touch_scaled(4);

    long d = one_bucket(es, pf, 0x20000, PAPI_PROFIL_BUCKET_16, 2);
    printf("store instruction at offset %ld of a %lu-byte function\n", d,
           (unsigned long)(SECTION_END(ovf_touch_s) - SECTION_START(ovf_touch_s)));
    CHECK(d >= 0, "scale 0x20000 spread the samples (%ld)", d);
    if (d < 0)
        return test_done("profil_scales");
    const unsigned scales[] = {0x10000, 0xFFFF, 0x8000, 0x4000, 0x2};
    for (unsigned k = 0; k < sizeof scales / sizeof scales[0]; k++)
        for (unsigned bytes = 2; bytes <= 8; bytes *= 2) {
            int flags = bytes == 2 ? PAPI_PROFIL_BUCKET_16
                      : bytes == 4 ? PAPI_PROFIL_BUCKET_32 : PAPI_PROFIL_BUCKET_64;
            long want = scales[k] == 2 ? 0 : (long)(((unsigned long)d * scales[k]) >> 17);
            long got = one_bucket(es, pf, scales[k], flags, bytes);
            CHECK(got == want, "scale 0x%x, %u-byte buckets: bucket %ld, want %ld", scales[k],
                  bytes, got, want);
        }
    printf("scales 0x10000/0xFFFF/0x8000/0x4000/0x2 put offset %ld in buckets %ld/%ld/%ld/%ld/0\n",
           d, d / 2, (long)(((unsigned long)d * 0xFFFF) >> 17), d / 4, d / 8);

    free_set(&es);
    PAPI_shutdown();
    return test_done("profil_scales");
}
