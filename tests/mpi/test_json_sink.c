/* test_json_sink.c: the one JSON writer's sink (jw_init_sink) into the MPI wrapper's
 * fixed text buffer (tb_jw), byte for byte as the wrapper's report and rows are laid out:
 * one line, ", " and ": ", jw_break's line starts, jw_resume in another piece's object,
 * jw_tight's .jsonl spacing, each number form; and a fixed buffer cut on overflow, never
 * grown. No MPI. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text_buffer.h"

static int fails;

static void check(const struct tbuf *t, const char *want, const char *what)
{
    if (t->cut || strcmp(t->s, want) != 0) {
        printf("FAIL %s:\n  got  %s%s\n  want %s\n", what, t->s, t->cut ? " (cut)" : "", want);
        fails++;
    }
}

static void forms(void)
{
    char mem[512];
    struct tbuf t;
    struct jw w;
    tb_init(&t, mem, sizeof mem);
    tb_jw(&w, &t);
    jw_obj_begin(&w, NULL);
    jw_int(&w, "rank", -3);
    jw_str(&w, "name", "a\"b\t\xff");
    jw_bool(&w, "finished", 1);
    jw_secs(&w, "wall_s", 1500000001LL);
    jw_secs(&w, "offset_s", -2500LL);
    jw_digits(&w, "ipc", 1.0 / 3, 9);
    jw_fixed(&w, "share", 0.5, 6);
    jw_fixed(&w, "none", NAN, 6);
    jw_hex(&w, "offset", 0x1fUL);
    jw_null(&w, "job");
    jw_obj_begin(&w, "calls");
    jw_obj_end(&w);
    jw_arr_begin(&w, "top");
    jw_break(&w, "\n  ");
    jw_int(&w, NULL, 1);
    jw_break(&w, "\n  ");
    jw_int(&w, NULL, 2);
    jw_arr_end(&w);
    jw_obj_end(&w);
    check(&t,
          "{\"rank\": -3, \"name\": \"a\\\"b\\t\\ufffd\", \"finished\": true, "
          "\"wall_s\": 1.500000001, \"offset_s\": -0.000002500, \"ipc\": 0.333333333, "
          "\"share\": 0.500000, \"none\": null, \"offset\": \"0x1f\", \"job\": null, "
          "\"calls\": {}, \"top\": [\n  1,\n  2]}",
          "each form, one line, jw_break's line starts");
}

static void pieces(void)
{
    char mem[256];
    struct tbuf t;
    struct jw w;
    tb_init(&t, mem, sizeof mem);
    tb_jw(&w, &t);
    jw_resume(&w, 1); /* an object another piece opened */
    jw_resume(&w, 1); /* and its list */
    jw_break(&w, "\n");
    jw_arr_end(&w);
    jw_break(&w, "\n");
    jw_obj_begin(&w, "wait_states");
    jw_bool(&w, "on", 0);
    jw_obj_end(&w);
    jw_obj_end(&w);
    check(&t, "\n],\n\"wait_states\": {\"on\": false}}", "jw_resume: closing another piece's");

    tb_init(&t, mem, sizeof mem);
    tb_jw(&w, &t);
    jw_tight(&w);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "kind", "event_log");
    jw_arr_begin(&w, "records");
    jw_arr_begin(&w, NULL);
    jw_int(&w, NULL, 1);
    jw_str(&w, NULL, "MPI_Send");
    jw_arr_end(&w);
    jw_arr_end(&w);
    jw_obj_end(&w);
    check(&t, "{\"kind\":\"event_log\",\"records\":[[1,\"MPI_Send\"]]}", "jw_tight");
}

static void cut(void)
{
    char mem[16];
    struct tbuf t;
    struct jw w;
    tb_init(&t, mem, sizeof mem);
    tb_jw(&w, &t);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", "longer than the buffer");
    jw_obj_end(&w);
    if (!t.cut || t.s != mem || t.cap != sizeof mem || t.len >= sizeof mem) {
        printf("FAIL a fixed buffer is cut on overflow, never grown\n");
        fails++;
    }
}

int main(void)
{
    forms();
    pieces();
    cut();
    printf(fails ? "FAILED (%d)\n" : "ok\n", fails);
    return fails != 0;
}
