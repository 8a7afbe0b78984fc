/* test_text_buffer_grow.c: the growing text buffer of rank 0's report parts
 * (mpi-wrappers/recording/text_buffer.c, tb_init_growing) against the text it was given,
 * from a 16-byte start to 300 KB, through each form (raw, integer, JSON string, printf);
 * and a fixed one still cut, never grown. No MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_buffer.h"

static int fails;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

int main(void)
{
    struct tbuf t;
    tb_init_growing(&t, 16);
    check(!t.cut && t.cap == 16, "a growing buffer starts at the capacity asked");
    /* the expected text, built beside it: 10,000 rounds of four forms */
    size_t cap = 400000, n = 0;
    char *want = malloc(cap);
    char long_name[300];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    for (int i = 0; i < 10000; i++) {
        tb_raw(&t, "{\"i\": ");
        tb_int(&t, i);
        tb_raw(&t, ", \"s\": ");
        tb_json(&t, i % 1000 ? "a\"b" : long_name); /* an escape; now and then 300 bytes */
        tb_fmt(&t, ", \"x\": %.3f}", i * 0.5);
        n += (size_t)snprintf(want + n, cap - n, "{\"i\": %d, \"s\": \"%s\", \"x\": %.3f}", i,
                              i % 1000 ? "a\\\"b" : long_name, i * 0.5);
    }
    check(!t.cut, "never cut while memory lasts");
    check(t.len == n, "as long as the text given");
    check(t.len == n && memcmp(t.s, want, n) == 0 && t.s[n] == '\0', "the text given, terminated");
    check(t.cap >= t.len + 1 && t.cap <= 2 * (t.len + 1) + 16, "doubled, not more");
    printf("growing: %zu bytes in a buffer of %zu\n", t.len, t.cap);
    free(t.s);

    char mem[16];
    tb_init(&t, mem, sizeof mem);
    tb_raw(&t, "0123456789");
    tb_json(&t, "abcdef");
    check(t.cut && t.s == mem && t.cap == sizeof mem, "a fixed buffer is cut, never grown");
    free(want);
    printf(fails ? "FAILED (%d)\n" : "ok\n", fails);
    return fails != 0;
}
