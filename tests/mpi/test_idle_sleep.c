/* test_idle_sleep.c: the sleep between tests of the finalize sequence's waits
 * (mpi-wrappers/comm/idle_wait.c, pmpi_idle_sleep_ns): none for the first 200 tests,
 * then 50 us doubled after each test that found nothing, at most 1 ms. Linked to the
 * MPI for idle_wait.c's PMPI calls; none is made. */
#include <stdio.h>

#include "idle_wait.h"

int main(void)
{
    static const struct {
        long polls, ns;
    } want[] = {{0, 0},         {199, 0},        {200, 50000},        {201, 100000},
                {202, 200000},  {203, 400000},   {204, 800000},       {205, 1000000},
                {206, 1000000}, {5000, 1000000}, {100000000, 1000000}};
    int fails = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        long got = pmpi_idle_sleep_ns(want[i].polls);
        if (got != want[i].ns) {
            printf("FAIL: after %ld tests: %ld ns, expected %ld\n", want[i].polls, got, want[i].ns);
            fails++;
        }
    }
    printf(fails ? "FAILED (%d)\n" : "ok\n", fails);
    return fails != 0;
}
