/* test_sample_spec: src-c/sampling/sample_spec.c, white box: the one grammar of
 * EVENT[@PERIOD|@FREQhz] that PAPI_SAMPLE and papi_run --sample share. The frequency's hz
 * in any case (hz and Hz were the region API's and the MPI wrapper's only spellings);
 * the split at the last '@'; what is not a number refused; limits are the callers'. */
#include <errno.h>
#include <string.h>

#include "papi_test.h"
#include "sample_spec.h"

static void expect(const char *text, int ret, const char *event, long long n, int hz)
{
    struct sample_spec sp;
    int r = sample_spec_parse(text, &sp);
    CHECK(r == ret, "'%s': returned %d, expected %d", text, r, ret);
    CHECK(sp.event == text && sp.event_len == strlen(event) &&
              strncmp(sp.event, event, sp.event_len) == 0,
          "'%s': event '%.*s', expected '%s'", text, (int)sp.event_len, sp.event, event);
    if (ret == 0)
        CHECK(sp.n == n && sp.hz == hz, "'%s': %lld %s, expected %lld %s", text, sp.n,
              sp.hz ? "Hz" : "period", n, hz ? "Hz" : "period");
}

int main(void)
{
    expect("perf::TASK-CLOCK", 0, "perf::TASK-CLOCK", 999, 1); /* alone: 999 Hz */
    expect("perf::TASK-CLOCK@1000000", 0, "perf::TASK-CLOCK", 1000000, 0);
    expect("PAPI_TOT_CYC@500hz", 0, "PAPI_TOT_CYC", 500, 1);
    expect("PAPI_TOT_CYC@500Hz", 0, "PAPI_TOT_CYC", 500, 1);
    expect("PAPI_TOT_CYC@500HZ", 0, "PAPI_TOT_CYC", 500, 1);
    expect("PAPI_TOT_CYC@500hZ", 0, "PAPI_TOT_CYC", 500, 1);
    expect("instructions:u@4000", 0, "instructions:u", 4000, 0);
    expect("a@b@7", 0, "a@b", 7, 0); /* the last '@' splits */
    expect("@100hz", 0, "", 100, 1); /* no event: the caller's default or refusal */
    expect("", 0, "", 999, 1);
    expect("E@0", 0, "E", 0, 0); /* range: the caller's */
    expect("E@-5", 0, "E", -5, 0);
    expect("E@", -1, "E", 0, 0);
    expect("E@hz", -1, "E", 0, 0);
    expect("E@soon", -1, "E", 0, 0);
    expect("E@5khz", -1, "E", 0, 0);
    expect("E@5 hz", -1, "E", 0, 0);
    expect("E@5hzz", -1, "E", 0, 0);
    errno = EINTR;
    expect("E@99999999999999999999", -1, "E", 0, 0); /* past a long long */
    CHECK(errno == EINTR, "errno changed to %d", errno);
    return test_done("test_sample_spec");
}
