/* bench_timing.h: the clock and the median every benchmark here reports, and the fair
 * comparison of two sides (ours against the raw floor or the system's PAPI): warm-up,
 * then pairs of batches in ABBA order (A B, B A, A B, ...), so drift of the machine
 * (frequency, other load, cache state) hits both sides alike, and the median of the
 * per-pair ratios, which one slow pair cannot move. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place. */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* The options --seconds S and --rounds N among argv's option pairs (the others are the
 * caller's): 0 when S > 0 and N is 1..64, else -1 (the caller prints its usage). */
static inline int bench_time_options(int argc, char **argv, double *secs, int *rounds)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0)
            *secs = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--rounds") == 0)
            *rounds = atoi(argv[i + 1]);
    }
    return *secs > 0 && *rounds >= 1 && *rounds <= 64 ? 0 : -1;
}

/* One side of a comparison: run() does its operation and returns the ns it took for
 * per_run operations (a batch of calls, or one call whose clean-up it does untimed). */
struct bench_side {
    long long (*run)(void *arg);
    void *arg;
    int per_run;
};

struct bench_compare {
    double a_ns, b_ns; /* median ns per operation of each side */
    double ratio;      /* median over pairs of a/b */
};

/* Compare a with b over pairs pairs after warmup runs of each;
 * 0, or -1 when out of memory. */
static inline int bench_abba(const struct bench_side *a, const struct bench_side *b, int pairs,
                             int warmup, struct bench_compare *out)
{
    double *ta = malloc(3 * (size_t)pairs * sizeof *ta);
    if (!ta)
        return -1;
    double *tb = ta + pairs, *ratio = tb + pairs;
    for (int i = 0; i < warmup; i++) {
        a->run(a->arg);
        b->run(b->arg);
    }
    for (int p = 0; p < pairs; p++) {
        long long na, nb;
        if (p & 1) {
            nb = b->run(b->arg);
            na = a->run(a->arg);
        } else {
            na = a->run(a->arg);
            nb = b->run(b->arg);
        }
        ta[p] = (double)na / a->per_run;
        tb[p] = (double)nb / b->per_run;
        ratio[p] = tb[p] > 0 ? ta[p] / tb[p] : 0;
    }
    out->a_ns = median(ta, pairs);
    out->b_ns = median(tb, pairs);
    out->ratio = median(ratio, pairs);
    free(ta);
    return 0;
}
#endif
