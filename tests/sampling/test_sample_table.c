/* test_sample_table: src-c/sampling/sample_table.c, white box: one key per (address,
 * region, call) with its count and wall time; address 0 filed as 1; a key that finds no
 * free entry in its probes is dropped and counted, so the table never grows; and the
 * insert is safe in a signal handler (samples filed from SIGALRM while the program files
 * its own are all there). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "alarm_every.h"
#include "papi_test.h"
#include "sample_table.h"

static struct sample_table tab;
static volatile sig_atomic_t in_handler;

static unsigned count_of(uintptr_t pc, int region, int call, long long *wall)
{
    for (int i = 0; i < SAMPLE_TABLE_SLOTS; i++) {
        const struct sample_entry *e = &tab.slot[i];
        if (atomic_load(&e->pc) == pc && atomic_load(&e->region) == region &&
            atomic_load(&e->call) == call) {
            *wall = atomic_load(&e->wall_ns);
            return atomic_load(&e->count);
        }
    }
    *wall = -1;
    return 0;
}

static void on_alarm(int sig)
{
    (void)sig;
    in_handler++;
    sample_table_add(&tab, 0x5000, 7, 0, 10);
}

static void keys_and_sums(void)
{
    long long wall;
    sample_table_add(&tab, 0x1000, -1, 0, 5);
    sample_table_add(&tab, 0x1000, -1, 0, 6);
    sample_table_add(&tab, 0x1000, 2, 0, 1);
    sample_table_add(&tab, 0x1000, 2, 3, 1);
    sample_table_add(&tab, 0, -1, 0, 0);
    CHECK(count_of(0x1000, -1, 0, &wall) == 2 && wall == 11, "(0x1000, -1, 0): %u, %lld",
          count_of(0x1000, -1, 0, &wall), wall);
    CHECK(count_of(0x1000, 2, 0, &wall) == 1 && wall == 1, "(0x1000, 2, 0) not apart");
    CHECK(count_of(0x1000, 2, 3, &wall) == 1, "(0x1000, 2, 3) not apart");
    CHECK(count_of(1, -1, 0, &wall) == 1, "address 0 not filed as 1");
    CHECK(atomic_load(&tab.samples) == 5 && atomic_load(&tab.dropped) == 0,
          "samples %llu, dropped %llu", atomic_load(&tab.samples), atomic_load(&tab.dropped));
}

static void bounded(void)
{
    memset(&tab, 0, sizeof tab);
    int n = 3 * SAMPLE_TABLE_SLOTS, kept = 0;
    for (int i = 0; i < n; i++)
        sample_table_add(&tab, 0x400000 + 16 * (uintptr_t)i, -1, 0, 0);
    for (int i = 0; i < SAMPLE_TABLE_SLOTS; i++)
        kept += atomic_load(&tab.slot[i].pc) != 0;
    CHECK(atomic_load(&tab.samples) == (unsigned long long)n, "samples %llu of %d",
          atomic_load(&tab.samples), n);
    CHECK(kept <= SAMPLE_TABLE_SLOTS && atomic_load(&tab.dropped) == (unsigned long long)(n - kept),
          "kept %d, dropped %llu, of %d", kept, atomic_load(&tab.dropped), n);
    CHECK(kept > SAMPLE_TABLE_SLOTS / 2, "only %d of %d entries used", kept, SAMPLE_TABLE_SLOTS);
}

/* Samples filed by the program and by its SIGALRM handler into one table: none lost. */
static void from_a_handler(void)
{
    memset(&tab, 0, sizeof tab);
    alarm_every(on_alarm, 200);
    long mine = 0;
    while (in_handler < 200 && mine < 400000000L) {
        sample_table_add(&tab, 0x2000 + 16 * (uintptr_t)(mine % 64), -1, 0, 1);
        mine++;
    }
    alarm_every(NULL, 0);
    long long wall;
    unsigned got = count_of(0x5000, 7, 0, &wall);
    CHECK(in_handler >= 200, "only %d signals", (int)in_handler);
    CHECK(got == (unsigned)in_handler && wall == 10LL * in_handler, "handler: %u of %d, wall %lld",
          got, (int)in_handler, wall);
    CHECK(atomic_load(&tab.samples) == (unsigned long long)(mine + in_handler) &&
              atomic_load(&tab.dropped) == 0,
          "samples %llu, want %ld", atomic_load(&tab.samples), mine + in_handler);
}

int main(void)
{
    keys_and_sums();
    bounded();
    from_a_handler();
    return test_done("test_sample_table");
}
