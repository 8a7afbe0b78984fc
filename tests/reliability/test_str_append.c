/* test_str_append: the bounded append of src-c/common/str_append.h, white box. Pieces that
 * fit are kept whole; a piece that does not is cut, the string ends with the mark and
 * stays terminated inside its buffer; the bytes after the buffer are never written (a
 * guard after it); buffers smaller than the mark, of size 0, or not terminated on entry.
 * str_setf: a heap message set whole, the old one replaced; array_room (array_room.h):
 * an array grows by doubling and keeps its elements. */
#include <stdlib.h>
#include <string.h>

#include "array_room.h"
#include "papi_test.h"
#include "str_append.h"

#define GUARD 0x5a

static char arena[1024];

/* A buffer of size bytes at the start of arena, the rest of arena its guard. */
static char *fresh(size_t size)
{
    memset(arena, GUARD, sizeof arena);
    if (size)
        arena[0] = '\0';
    return arena;
}

static void guard_intact(size_t size, const char *what)
{
    for (size_t i = size; i < sizeof arena; i++)
        if ((unsigned char)arena[i] != GUARD) {
            CHECK(0, "%s: byte %zu after a %zu-byte buffer written", what, i - size, size);
            return;
        }
}

int main(void)
{
    char *b = fresh(16);
    CHECK(str_appendf(b, 16, "%s", "abc") == 0 && str_appendf(b, 16, ", %d", 42) == 0, "fit");
    CHECK(strcmp(b, "abc, 42") == 0, "got '%s'", b);
    CHECK(str_appendf(b, 16, "%s", "12345678") == 0 && strcmp(b, "abc, 4212345678") == 0,
          "exact fill: '%s'", b);
    CHECK(str_appendf(b, 16, "%s", "") == 0, "an empty piece fits a full buffer");
    CHECK(str_appendf(b, 16, "x") == -1 && strcmp(b, "abc, 4212345...") == 0, "cut: '%s'", b);
    guard_intact(16, "exact fill");

    /* The defect's shape: 17 names, 12 of 57 bytes, into 512 bytes. */
    b = fresh(512);
    int cut = 0;
    for (int i = 0; i < 17; i++)
        cut |= str_appendf(b, 512, "%s%s_%02d", i ? ", " : "",
                           "hostile_recording_format_field_with_a_long_name_number", i) != 0;
    CHECK(cut && strlen(b) == 511 && strcmp(b + 508, "...") == 0, "long list: %zu bytes, ends '%s'",
          strlen(b), b + (strlen(b) > 3 ? strlen(b) - 3 : 0));
    CHECK(strncmp(b, "hostile_recording_format_field_with_a_long_name_number_00, h", 60) == 0,
          "the list does not start with the first name: '%.60s'", b);
    CHECK(str_appendf(b, 512, "more") == -1 && strlen(b) == 511, "append after a cut");
    guard_intact(512, "long list");

    /* Buffers smaller than the mark: terminated, nothing past them. */
    for (size_t size = 1; size <= 4; size++) {
        b = fresh(size);
        CHECK(str_appendf(b, size, "%s", "abcdef") == -1, "size %zu: not cut", size);
        CHECK(strlen(b) == size - 1, "size %zu: length %zu", size, strlen(b));
        guard_intact(size, "small buffer");
    }
    b = fresh(0);
    CHECK(str_appendf(b, 0, "%s", "abc") == -1, "size 0 accepted a piece");
    guard_intact(0, "size 0");

    /* Not terminated on entry: terminated inside, marked. */
    b = fresh(8);
    memset(b, 'z', 8);
    CHECK(str_appendf(b, 8, "q") == -1 && strcmp(b, "zzzz...") == 0, "unterminated: '%.8s'", b);
    guard_intact(8, "unterminated");

    /* str_setf: whole whatever its length; a second call replaces the first. */
    char *msg = NULL;
    str_setf(&msg, "%s %d", "first", 1);
    CHECK(msg && strcmp(msg, "first 1") == 0, "str_setf: '%s'", msg ? msg : "(null)");
    str_setf(&msg, "%0600d", 7);
    CHECK(msg && strlen(msg) == 600 && msg[599] == '7', "str_setf long: %zu bytes",
          msg ? strlen(msg) : 0);
    free(msg);

    /* array_room: room at first 4, then 8, 16; the elements kept across moves. */
    int *v = NULL, n = 0, cap = 0;
    for (int i = 0; i < 9; i++) {
        int *moved = array_room(v, n, &cap, sizeof *v, 4);
        CHECK(moved != NULL, "array_room: no memory at %d", i);
        if (!moved)
            break;
        v = moved;
        v[n++] = i * 3;
    }
    CHECK(cap == 16 && n == 9, "array_room: cap %d for %d elements (want 16)", cap, n);
    for (int i = 0; i < n; i++)
        CHECK(v[i] == i * 3, "array_room: element %d is %d", i, v[i]);
    free(v);
    return test_done("test_str_append");
}
