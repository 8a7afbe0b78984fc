/* PAPI_profil on perf::PAGE-FAULTS: every sample lands in the buckets of the function
 * that touches the pages; 16, 32 and 64-bit buckets; two events profiled at once;
 * RANDOM drops about a quarter; COMPRESS slows a filling bucket; threshold 0 turns
 * profiling off and frees the library's state (cleanup_eventset then succeeds; the CI
 * runs this under LeakSanitizer). Plus every documented error. */
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_profiled, "ovf_touch_p")
extern char __start_ovf_touch_p[], __stop_ovf_touch_p[];

static uintptr_t text_start, text_end;

/* Sum of all buckets, and of those outside [lo, hi] (bucket indexes). */
static unsigned long long sum_buckets(const void *buf, size_t nb, unsigned bytes, size_t lo,
                                      size_t hi, unsigned long long *outside)
{
    unsigned long long s = 0;
    *outside = 0;
    for (size_t i = 0; i < nb; i++) {
        unsigned long long v = bytes == 2 ? ((const uint16_t *)buf)[i]
                             : bytes == 4 ? ((const uint32_t *)buf)[i]
                                          : ((const uint64_t *)buf)[i];
        s += v;
        if (v && (i < lo || i > hi))
            *outside += v;
    }
    return s;
}

static void profile_once(int es, int code, int flags, unsigned bytes, long pages, int threshold,
                         unsigned long long *total, unsigned long long *outside)
{
    size_t len = text_end - text_start;
    size_t bufsiz = len * bytes / 2; /* (end-start)*(bucket/2)*(scale/65536), scale 0x10000 */
    void *buf = calloc(1, bufsiz);
    CHECK_RET(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)text_start, 0x10000, es, code,
                          threshold, flags), PAPI_OK);
    long long v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_profiled(pages);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], pages);
    CHECK_RET(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)text_start, 0x10000, es, code, 0,
                          flags), PAPI_OK);
    size_t lo = (SECTION_START(ovf_touch_p) - text_start) / 2;
    size_t hi = (SECTION_END(ovf_touch_p) - text_start) / 2;
    *total = sum_buckets(buf, bufsiz / bytes, bytes, lo, hi, outside);
    free(buf);
}

static void errors(int es, int code, int other_code)
{
    unsigned short b[64];
    vptr_t off = (vptr_t)text_start;
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 1, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x20001, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(NULL, sizeof b, off, 0x10000, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, 0, off, 0x10000, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, code, -1, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, code, 10, 0x10000), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, code, 10,
                          PAPI_PROFIL_BUCKET_16 | PAPI_PROFIL_BUCKET_32), PAPI_EINVAL);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, code, 0, 0), PAPI_EINVAL); /* not on */
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, 4242, code, 10, 0), PAPI_ENOEVST);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, other_code, 10, 0), PAPI_ENOEVNT);
    CHECK_RET(PAPI_sprofil(NULL, 1, es, code, 10, 0), PAPI_EINVAL);
    PAPI_sprofil_t r = {.pr_base = b, .pr_size = sizeof b, .pr_off = off, .pr_scale = 0x10000};
    CHECK_RET(PAPI_sprofil(&r, 0, es, code, 10, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_profil(b, sizeof b, off, 0x10000, es, code, 10, 0), PAPI_EISRUN);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    int st;
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK(!(st & (PAPI_PROFILING | PAPI_OVERFLOWING)), "rejected calls left state 0x%x", st);
}

int main(void)
{
    init_or_die();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    CHECK(exe != NULL, "no executable info");
    if (!exe)
        return test_done("profil_page_faults");
    text_start = (uintptr_t)exe->address_info.text_start;
    text_end = (uintptr_t)exe->address_info.text_end;
    CHECK(text_start <= SECTION_START(ovf_touch_p) && SECTION_END(ovf_touch_p) <= text_end,
          "the profiled function [%#lx,%#lx) is outside the text range [%#lx,%#lx)",
          (unsigned long)SECTION_START(ovf_touch_p), (unsigned long)SECTION_END(ovf_touch_p),
          (unsigned long)text_start, (unsigned long)text_end);

    int es = PAPI_NULL, pf, minor, ctx;
    page_fault_set(&es);
    CHECK_RET(PAPI_add_named_event(es, "perf::MINOR-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::MINOR-FAULTS", &minor), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::CONTEXT-SWITCHES", &ctx), PAPI_OK);
    warm_up();
    touch_profiled(4);

    errors(es, pf, ctx);

    const int flags[3] = {PAPI_PROFIL_POSIX, PAPI_PROFIL_BUCKET_32, PAPI_PROFIL_BUCKET_64};
    const unsigned bytes[3] = {2, 4, 8};
    for (int k = 0; k < 3; k++) {
        unsigned long long total, outside;
        profile_once(es, pf, flags[k], bytes[k], 1000, 10, &total, &outside);
        printf("%u-byte buckets: %llu samples, %llu outside the touching function\n", bytes[k],
               total, outside);
        CHECK_EQ_LL(total, 100);
        CHECK_EQ_LL(outside, 0);
    }

    /* RANDOM keeps about three samples in four (2000 samples: 60%..90%). */
    unsigned long long total, outside;
    profile_once(es, pf, PAPI_PROFIL_RANDOM | PAPI_PROFIL_BUCKET_32, 4, 2000, 1, &total, &outside);
    printf("RANDOM: kept %llu of 2000\n", total);
    CHECK(total >= 1200 && total <= 1800, "RANDOM kept %llu of 2000", total);
    CHECK_EQ_LL(outside, 0);

    /* WEIGHTED with one threshold per signal weighs 1: same as POSIX. */
    profile_once(es, pf, PAPI_PROFIL_WEIGHTED, 2, 1000, 10, &total, &outside);
    CHECK_EQ_LL(total, 100);

    /* COMPRESS: 20000 samples into one 16-bit bucket keep fewer as it fills. */
    {
        uint16_t one = 0, plain = 0;
        CHECK_RET(PAPI_profil(&one, sizeof one, 0, 2, es, pf, 1, PAPI_PROFIL_COMPRESS), PAPI_OK);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_profiled(20000);
        CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
        CHECK_RET(PAPI_profil(&one, sizeof one, 0, 2, es, pf, 0, 0), PAPI_OK);
        CHECK_RET(PAPI_profil(&plain, sizeof plain, 0, 2, es, pf, 1, PAPI_PROFIL_POSIX), PAPI_OK);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_profiled(20000);
        CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
        CHECK_RET(PAPI_profil(&plain, sizeof plain, 0, 2, es, pf, 0, 0), PAPI_OK);
        printf("one bucket of 20000 samples: POSIX %u, COMPRESS %u\n", plain, one);
        CHECK_EQ_LL(plain, 20000);
        CHECK(one > 10000 && one < 19500, "COMPRESS kept %u of 20000", one);
    }

    /* Two events profiled at once, into two buffers. */
    {
        size_t len = text_end - text_start;
        uint16_t *b1 = calloc(1, len), *b2 = calloc(1, len);
        CHECK_RET(PAPI_profil(b1, (unsigned)len, (vptr_t)text_start, 0x10000, es, pf, 10, 0),
                  PAPI_OK);
        CHECK_RET(PAPI_profil(b2, (unsigned)len, (vptr_t)text_start, 0x10000, es, minor, 25, 0),
                  PAPI_OK);
        int st;
        CHECK_RET(PAPI_state(es, &st), PAPI_OK);
        CHECK(st & PAPI_PROFILING, "state 0x%x lacks PAPI_PROFILING", st);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_profiled(1000);
        CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
        size_t lo = (SECTION_START(ovf_touch_p) - text_start) / 2;
        size_t hi = (SECTION_END(ovf_touch_p) - text_start) / 2;
        unsigned long long o1, o2;
        unsigned long long s1 = sum_buckets(b1, len / 2, 2, lo, hi, &o1);
        unsigned long long s2 = sum_buckets(b2, len / 2, 2, lo, hi, &o2);
        printf("two events: %llu and %llu samples\n", s1, s2);
        CHECK_EQ_LL(s1, 100);
        CHECK_EQ_LL(s2, 40);
        CHECK_EQ_LL(o1 + o2, 0);
        /* Turning one off leaves the other; cleanup then turns the rest off (PAPI 7). */
        CHECK_RET(PAPI_profil(b1, (unsigned)len, (vptr_t)text_start, 0x10000, es, pf, 0, 0),
                  PAPI_OK);
        CHECK_RET(PAPI_state(es, &st), PAPI_OK);
        CHECK(st & PAPI_PROFILING, "state 0x%x with one event still profiled", st);
        CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
        CHECK_RET(PAPI_state(es, &st), PAPI_OK);
        CHECK(!(st & (PAPI_PROFILING | PAPI_OVERFLOWING)), "state 0x%x after cleanup", st);
        free(b1);
        free(b2);
    }

    free_set(&es);
    PAPI_shutdown();
    return test_done("profil_page_faults");
}
