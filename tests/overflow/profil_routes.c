/* profil_routes: the two ways samples reach a PAPI_profil histogram build the same one.
 * The signal route calls profil_sample once per overflow and profiled record (what the
 * overflow signal handler does); the ring route hands the component's batches to
 * profil_ring_samples. Fed the same addresses, two event sets profiled alike must end
 * with byte-identical buffers, for every kind of bucket and flag: 16/32/64-bit buckets,
 * PAPI_sprofil's several regions and catch-all, WEIGHTED, RANDOM, COMPRESS (both draw
 * from the set's generator, in the order of the samples). Lost samples handed with a
 * batch are told once, at PAPI_stop's report (PAPI_strerror_detail). White box: linked to
 * papi_static, on software events, which this machine can open: perf::PAGE-FAULTS and
 * perf::MINOR-FAULTS, and PAPI_TOT_INS, which tests/highlevel/test_events.csv maps to
 * perf::PAGE-FAULTS (two profiled records on one counter: each sample goes to both, in
 * the order of the set). Nothing runs; the samples are made up. */
#include <stdint.h>

#include "profil_histogram.h"
#include "papi_test.h"

#define NEV    3
#define NREG   3
#define BUFSZ  4096
#define NSAMP  20000
#define ORIGIN 0x400000u

struct side {
    int handle;
    struct eventset *es;
    unsigned char buf[NEV][NREG][BUFSZ];
    PAPI_sprofil_t reg[NEV][NREG];
};

static const char *const events[NEV] = {"perf::PAGE-FAULTS", "perf::MINOR-FAULTS", "PAPI_TOT_INS"};

/* A set of both events, each profiled with flags over nreg regions (the last a catch-all
 * when nreg > 1). */
static int setup(struct side *s, int nreg, int flags)
{
    memset(s, 0, sizeof *s);
    s->handle = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&s->handle), PAPI_OK);
    for (int e = 0; e < NEV; e++)
        if (PAPI_add_named_event(s->handle, events[e]) != PAPI_OK)
            test_skip("the kernel's software page-fault events do not open here (or "
                      "PAPI_CSV_EVENT_FILE is not tests/highlevel/test_events.csv)");
    CHECK_RET(es_get(s->handle, &s->es), PAPI_OK);
    for (int e = 0; e < NEV; e++) {
        for (int r = 0; r < nreg; r++) {
            /* region 0: 0x400000.., scale 0x8000 (4 bytes a bucket); region 1: 0x500000..,
             * one byte a bucket; the catch-all (scale 2) last. */
            int last = nreg > 1 && r == nreg - 1;
            s->reg[e][r] = (PAPI_sprofil_t){.pr_base = s->buf[e][r],
                                            .pr_size = last ? 8 : BUFSZ,
                                            .pr_off = (vptr_t)(uintptr_t)(ORIGIN + 0x100000u * r),
                                            .pr_scale = last ? 2 : r == 0 ? 0x8000 : 0x20000};
        }
        int code;
        CHECK_RET(PAPI_event_name_to_code(events[e], &code), PAPI_OK);
        CHECK_RET(PAPI_sprofil(s->reg[e], nreg, s->handle, code, 1000, flags), PAPI_OK);
    }
    return s->handle;
}

static void teardown(struct side *s)
{
    PAPI_cleanup_eventset(s->handle);
    PAPI_destroy_eventset(&s->handle);
}

/* The signal route: per overflow of native ni, each profiled record on it, in order. */
static void by_signal(struct eventset *es, int ni, uint64_t ip)
{
    const struct ovf_state *o = es->overflow;
    for (int k = 0; k < o->nevents; k++)
        if (o->ev[k].native == ni && o->ev[k].profiled)
            profil_sample(es, o->ev[k].pos, (uintptr_t)ip, 1);
}

static uint64_t next_ip(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    /* mostly in the regions, some beyond them (catch-all or nowhere) */
    uint64_t r = *x % 100;
    return r < 45   ? ORIGIN + *x % 0x8000
           : r < 85 ? ORIGIN + 0x100000 + (*x >> 8) % 0x1200
                    : ORIGIN + 0x300000 + (*x >> 8) % 0x10000;
}

static void compare(const char *what, int nreg, int flags)
{
    static struct side a, b;
    setup(&a, nreg, flags);
    setup(&b, nreg, flags);
    uint64_t x = 88172645463325252ULL, ips[NSAMP];
    for (int i = 0; i < NSAMP; i++)
        ips[i] = next_ip(&x);
    for (int ni = 0; ni < 2; ni++) {
        for (int i = 0; i < NSAMP; i++)
            by_signal(a.es, ni, ips[i]);
        /* batches of every size the component hands on (at most PE_RING_BATCH, 64) */
        for (int i = 0, n = 1; i < NSAMP; i += n, n = n % 64 + 1)
            profil_ring_samples(b.es, ni, ips + i, i + n <= NSAMP ? n : NSAMP - i, 0);
    }
    unsigned long long total = 0;
    int same = 1;
    for (int e = 0; e < NEV; e++)
        for (int r = 0; r < nreg; r++) {
            same &= memcmp(a.buf[e][r], b.buf[e][r], BUFSZ) == 0;
            for (int k = 0; k < BUFSZ; k++)
                total += a.buf[e][r][k];
        }
    printf("profil_routes: %s: %s (byte sum %llu)\n", what, same ? "same" : "DIFFERENT", total);
    CHECK(same, "%s: the two routes built different histograms", what);
    CHECK(total > 0, "%s: empty histograms", what);
    teardown(&a);
    teardown(&b);
}

static void lost_told_once(void)
{
    static struct side s;
    setup(&s, 1, PAPI_PROFIL_POSIX);
    uint64_t ip = ORIGIN + 64;
    profil_ring_samples(s.es, 0, &ip, 1, 17);
    profil_ring_samples(s.es, 0, NULL, 0, 4);
    profil_report_lost(s.es);
    const char *d = PAPI_strerror_detail();
    CHECK(strstr(d, "21 of the event at position 0 (21 in all), 21 of the event at position 2 (21 in all)"), "report: %s", d);
    CHECK(PAPI_start(-5) == PAPI_ENOEVST, "PAPI_start(-5) accepted");
    char before[256];
    snprintf(before, sizeof before, "%s", PAPI_strerror_detail());
    profil_report_lost(s.es); /* nothing new: no second report */
    CHECK(strcmp(before, PAPI_strerror_detail()) == 0, "told twice: %s", PAPI_strerror_detail());
    profil_ring_samples(s.es, 1, NULL, 0, 3); /* the other event */
    profil_report_lost(s.es);
    d = PAPI_strerror_detail();
    CHECK(strstr(d, "were lost since PAPI_start, the kernel's sample buffer being full before the library emptied it: 3 of the event at position 1 (3 in all)"),
          "report: %s", d);
    teardown(&s);
}

int main(void)
{
    init_or_die();
    compare("16-bit, one region", 1, PAPI_PROFIL_POSIX);
    compare("32-bit, sprofil 2 regions + catch-all", 3, PAPI_PROFIL_BUCKET_32);
    compare("64-bit weighted, 2 regions + catch-all", 3,
            PAPI_PROFIL_BUCKET_64 | PAPI_PROFIL_WEIGHTED);
    compare("random", 3, PAPI_PROFIL_RANDOM);
    compare("compress, 16-bit", 1, PAPI_PROFIL_COMPRESS);
    compare("random + compress, 32-bit", 3, PAPI_PROFIL_RANDOM | PAPI_PROFIL_COMPRESS |
                                                PAPI_PROFIL_BUCKET_32);
    lost_told_once();
    return test_done("profil_routes");
}
