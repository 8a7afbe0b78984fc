/* test_stack_table: src-c/sampling/stack_table.c, white box: one key per (thread, frames)
 * whatever the depth (1 included) with its samples and weights summed; a stack deeper than
 * STACK_TABLE_DEPTH kept to its leaf's frames; past cap stacks, samples of a new stack
 * dropped and counted with their weight; a bad init refused; and filing is safe in a
 * signal handler: stacks filed from SIGALRM while the program is in malloc and free are
 * all there, and the frames' arena never moved (no allocation when filing). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "alarm_every.h"
#include "papi_test.h"
#include "stack_table.h"

static struct stack_table tab;
static volatile sig_atomic_t in_handler;

/* The entry of (tid, ip[0..depth)), or NULL. */
static const struct stack_entry *find(pid_t tid, const uint64_t *ip, uint32_t depth)
{
    for (size_t k = 0; k < tab.n; k++) {
        const struct stack_entry *s = &tab.stack[k];
        if (s->tid == tid && s->depth == depth &&
            memcmp(tab.ips + s->first, ip, depth * sizeof *ip) == 0)
            return s;
    }
    return NULL;
}

static void keys_and_sums(void)
{
    CHECK(stack_table_init(&tab, 16, 2) == 0, "init");
    uint64_t a[3] = {0x10, 0x20, 0x30}, w1[2] = {5, 1}, w2[2] = {7, 2};
    stack_table_add(&tab, 1, a, 3, w1);
    stack_table_add(&tab, 1, a, 3, w2);
    stack_table_add(&tab, 2, a, 3, w1);
    stack_table_add(&tab, 1, a, 1, w1);
    stack_table_add(&tab, 1, a + 1, 2, w1);
    const struct stack_entry *s = find(1, a, 3);
    CHECK(s && s->samples == 2 && s->weight[0] == 12 && s->weight[1] == 3,
          "(1, 3 frames): %llu samples, weights %llu %llu", s ? (unsigned long long)s->samples : 0,
          s ? (unsigned long long)s->weight[0] : 0, s ? (unsigned long long)s->weight[1] : 0);
    CHECK(find(2, a, 3) && find(2, a, 3)->samples == 1, "thread 2's stack not apart");
    CHECK(find(1, a, 1) && find(1, a, 1)->weight[0] == 5, "depth 1 not apart");
    CHECK(find(1, a + 1, 2) != NULL, "(0x20, 0x30) not apart");
    CHECK(tab.n == 4 && tab.samples == 5 && tab.dropped == 0, "n %zu, samples %llu, dropped %llu",
          tab.n, (unsigned long long)tab.samples, (unsigned long long)tab.dropped);
    uint64_t deep[STACK_TABLE_DEPTH + 10];
    for (int i = 0; i < STACK_TABLE_DEPTH + 10; i++)
        deep[i] = 0x1000 + (uint64_t)i;
    stack_table_add(&tab, 1, deep, STACK_TABLE_DEPTH + 10, w1);
    CHECK(find(1, deep, STACK_TABLE_DEPTH) != NULL, "a deep stack not kept to %d frames",
          STACK_TABLE_DEPTH);
    stack_table_free(&tab);
    CHECK(stack_table_init(&tab, 16, 0) != 0 &&
              stack_table_init(&tab, 16, STACK_TABLE_WEIGHTS + 1) != 0 &&
              stack_table_init(&tab, 0, 1) != 0,
          "a bad init accepted");
}

static void bounded(void)
{
    CHECK(stack_table_init(&tab, 100, 1) == 0, "init");
    for (uint64_t i = 0; i < 300; i++) {
        uint64_t ip[2] = {0x400000 + i, 0x1}, w = i < 100 ? 1 : 3;
        stack_table_add(&tab, 1, ip, 2, &w);
    }
    uint64_t old[2] = {0x400000, 0x1}, w = 1;
    stack_table_add(&tab, 1, old, 2, &w);
    CHECK(tab.n == 100 && tab.dropped == 200 && tab.dropped_weight == 600,
          "kept %zu, dropped %llu (weight %llu), want 100, 200 (600)", tab.n,
          (unsigned long long)tab.dropped, (unsigned long long)tab.dropped_weight);
    CHECK(find(1, old, 2) && find(1, old, 2)->samples == 2, "a kept stack not counted when full");
    stack_table_free(&tab);
}

/* A distinct stack of 100 frames per signal: 20,000 frames in all, past any first guess. */
static void on_alarm(int sig)
{
    (void)sig;
    uint64_t ip[100], w = 1;
    for (int i = 0; i < 100; i++)
        ip[i] = 0x9000 + (uint64_t)in_handler * 1000 + (uint64_t)i;
    stack_table_add(&tab, 3, ip, 100, &w);
    in_handler++;
}

static void from_a_handler(void)
{
    CHECK(stack_table_init(&tab, 1000, 1) == 0, "init");
    const uint64_t *arena = tab.ips;
    alarm_every(on_alarm, 200);
    for (long i = 0; in_handler < 200 && i < 400000000L; i++) {
        char *p = malloc(16 + (size_t)(i % 4096));
        if (p)
            p[0] = 1;
        free(p);
    }
    alarm_every(NULL, 0);
    CHECK(in_handler >= 200, "only %d signals", (int)in_handler);
    CHECK(tab.n == (size_t)in_handler && tab.samples == (uint64_t)in_handler && tab.dropped == 0,
          "%zu stacks, %llu samples of %d signals", tab.n, (unsigned long long)tab.samples,
          (int)in_handler);
    CHECK(tab.ips == arena, "the frames' arena moved while filing");
    uint64_t first[100];
    for (int i = 0; i < 100; i++)
        first[i] = 0x9000 + (uint64_t)i;
    CHECK(find(3, first, 100) != NULL, "the first signal's stack is not there");
    stack_table_free(&tab);
}

int main(void)
{
    keys_and_sums();
    bounded();
    from_a_handler();
    return test_done("test_stack_table");
}
