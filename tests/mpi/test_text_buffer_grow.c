/* test_text_buffer_grow.c: the growing text buffer of rank 0's report parts
 * (mpi-wrappers/output/text_buffer.c, tb_init_growing) against the text it was given,
 * from a 16-byte start to 300 KB, through each form (raw, integer, printf, and a JSON
 * string by the one JSON writer's sink, tb_jw); the same text through a 512-byte sink
 * buffer (tb_init_sink: rank 0's report tail), handed on a buffer at a time, a long
 * string uncopied, a formatted piece too long for it cut, a JSON string longer than it
 * streamed whole; and a fixed one still cut, never grown. No MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_buffer.h"

static int fails;

/* s as a JSON string, by the one JSON writer into t. */
static void json_string(struct tbuf *t, const char *s)
{
    struct jw w;
    tb_jw(&w, t);
    jw_str(&w, NULL, s);
}

/* What a sink buffer handed on: the pieces joined, the longest piece, and whether one
 * was the caller's own string (not copied through the buffer). */
struct got {
    char *s;
    size_t len, cap, longest;
    const char *caller;
    int uncopied;
};

static void take(void *arg, const char *s, size_t n)
{
    struct got *g = arg;
    if (g->len + n + 1 > g->cap && !(g->s = realloc(g->s, g->cap = 2 * (g->len + n + 1))))
        exit(2);
    memcpy(g->s + g->len, s, n);
    g->len += n;
    g->s[g->len] = '\0';
    g->longest = n > g->longest ? n : g->longest;
    g->uncopied |= s == g->caller;
}

/* 10,000 rounds of the four forms into t, the text expected in want (returned: its
 * length); a 300-byte name now and then, a 5,000-byte raw string when big is given. */
static size_t rounds(struct tbuf *t, char *want, size_t cap, const char *big)
{
    char long_name[300];
    size_t n = 0;
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    for (int i = 0; i < 10000; i++) {
        tb_raw(t, "{\"i\": ");
        tb_int(t, i);
        tb_raw(t, ", \"s\": ");
        json_string(t, i % 1000 ? "a\"b" : long_name); /* an escape; now and then 300 bytes */
        tb_fmt(t, ", \"x\": %.3f}", i * 0.5);
        n += (size_t)snprintf(want + n, cap - n, "{\"i\": %d, \"s\": \"%s\", \"x\": %.3f}", i,
                              i % 1000 ? "a\\\"b" : long_name, i * 0.5);
        if (big && i % 5000 == 17) {
            tb_raw(t, big);
            n += (size_t)snprintf(want + n, cap - n, "%s", big);
        }
    }
    return n;
}

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
    size_t cap = 400000;
    char *want = malloc(cap);
    size_t n = rounds(&t, want, cap, NULL);
    check(!t.cut, "never cut while memory lasts");
    check(t.len == n, "as long as the text given");
    check(t.len == n && memcmp(t.s, want, n) == 0 && t.s[n] == '\0', "the text given, terminated");
    check(t.cap >= t.len + 1 && t.cap <= 2 * (t.len + 1) + 16, "doubled, not more");
    printf("growing: %zu bytes in a buffer of %zu\n", t.len, t.cap);
    free(t.s);

    /* the same through a 512-byte sink, with two 5,000-byte raw strings among them */
    char sink_mem[512], *big = malloc(5001);
    memset(big, 'y', 5000);
    big[5000] = '\0';
    struct got g = {.caller = big};
    tb_init_sink(&t, sink_mem, sizeof sink_mem, take, &g);
    n = rounds(&t, want, cap, big);
    tb_flush(&t);
    check(!t.cut, "a sink buffer is not cut by pieces that fit it");
    check(g.len == n && g.s && memcmp(g.s, want, n) == 0, "a sink hands on the text given");
    check(t.s == sink_mem && t.cap == sizeof sink_mem && t.len == 0,
          "a sink's buffer never grows, and is empty once flushed");
    check(g.uncopied && g.longest == 5000, "a string longer than the buffer goes on uncopied");
    printf("sink: %zu bytes through a buffer of %zu\n", g.len, sizeof sink_mem);
    size_t before = g.len;
    json_string(&t, big); /* 5,002 bytes through 512: a piece at a time */
    tb_flush(&t);
    check(!t.cut && g.len == before + 5002 && g.s[before] == '"' && g.s[before + 5001] == '"' &&
              strspn(g.s + before + 1, "y") == 5000,
          "a JSON string longer than a sink's buffer goes on whole, a piece at a time");
    before = g.len;
    tb_raw(&t, "ab");
    tb_fmt(&t, "%s", big); /* 5,000 bytes formatted: no room in 512 */
    tb_raw(&t, "cd");
    tb_flush(&t);
    check(t.cut && g.len <= before + 3 && memcmp(g.s + before, "ab", 2) == 0 &&
              !strstr(g.s + before, "cd") && !strchr(g.s + before, 'y'),
          "a piece longer than a sink's buffer cuts it: nothing of it or after it goes on");
    free(g.s);
    free(big);

    char mem[16];
    tb_init(&t, mem, sizeof mem);
    tb_raw(&t, "0123456789");
    json_string(&t, "abcdef");
    check(t.cut && t.s == mem && t.cap == sizeof mem, "a fixed buffer is cut, never grown");
    free(want);
    printf(fails ? "FAILED (%d)\n" : "ok\n", fails);
    return fails != 0;
}
