/* test_count_series: the bounded time series (src-c/common/count_series.c) with the
 * samplers' rule: sleep the series' step after each sample. A table of 8 fed 20 samples
 * merges four times; after each sample every kept interval is exactly one step (the
 * samples stay on the series' grid: step_ns doubled is what they are), the last sample
 * is the newest, and the intervals' counts sum to it. Before the merge moved to the add
 * that fills the table, the first sample after a merge was half a step from the one
 * before it. */
#include <stdio.h>
#include <stdlib.h>

#include "count_series.h"

static int failures;

static void check(int ok, const char *what, long long a, long long b)
{
    if (!ok) {
        printf("FAIL: %s (%lld, %lld)\n", what, a, b);
        failures++;
    }
}

int main(void)
{
    struct count_series s;
    if (cs_init(&s, 9, 2, 0.01) != 0) /* 9: rounded down to 8 */
        return printf("FAIL: cs_init\n"), 1;
    check(s.cap == 8 && s.step_ns == 10000000, "cap 8, step 10 ms", s.cap, s.step_ns);
    long long next = 0, merges = 0, last_step = s.step_ns;
    for (int k = 0; k < 20; k++) {
        next += s.step_ns; /* what the samplers do: the series' current step */
        long long v[2] = {next / 1000, 3 * (long long)k};
        cs_add(&s, next, v);
        merges += s.step_ns != last_step;
        last_step = s.step_ns;
        check(s.n >= 1 && s.n < s.cap, "n below cap after an add", s.n, s.cap);
        check(s.t[s.n - 1] == next, "the newest sample is kept", s.t[s.n - 1], next);
        for (int j = 0; j < s.n; j++)
            check(s.t[j] - (j ? s.t[j - 1] : 0) == s.step_ns, "every interval is one step",
                  s.t[j] - (j ? s.t[j - 1] : 0), s.step_ns);
        long long sum0 = 0, sum1 = 0;
        for (int j = 0; j < s.n; j++) {
            sum0 += cs_delta(&s, j, 0);
            sum1 += cs_delta(&s, j, 1);
        }
        check(sum0 == next / 1000 && sum1 == 3LL * k, "the intervals sum to the totals", sum0,
              sum1);
        if (failures)
            break;
    }
    /* 20 samples through a table of 8: merged at the 8th, 12th, 16th and 20th (the step
     * doubles each time, so the table refills in 4): step 160 ms, 4 kept, up to 640 ms */
    check(merges == 4 && s.step_ns == 160000000 && s.n == 4 && next == 640000000,
          "4 merges, step 160 ms, 4 kept, 640 ms", merges, s.n);
    /* the program's end between two samples: the last interval is shorter, still summed */
    long long end[2] = {next / 1000 + 7, 300};
    cs_add(&s, next + 5000000, end);
    check(s.t[s.n - 1] - s.t[s.n - 2] == 5000000, "the final partial interval",
          s.t[s.n - 1] - s.t[s.n - 2], 5000000);
    cs_free(&s);
    if (failures)
        return 1;
    printf("count_series: 20 samples, 4 merges, every interval one step (160 ms), sums kept\n");
    return 0;
}
