/* test_folded: src-c/sampling/folded.c, white box: lines written with their weights,
 * frames with spaces and digits included (C++ signatures); the files' names, the first
 * event's and another's with its odd characters as '_'. */
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "papi_test.h"

static void lines(void)
{
    const char *frames[3] = {"main", "ns::f(int, long) 2", "leaf"};
    uint64_t w[3] = {1000000, 0, 42};
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    CHECK(f != NULL, "fmemopen");
    folded_line(f, frames, 3, w, 3);
    folded_line(f, frames, 1, w + 2, 1);
    fclose(f);
    CHECK(strcmp(buf, "main;ns::f(int, long) 2;leaf 1000000 0 42\nmain 42\n") == 0, "wrote '%s'",
          buf);
}

static void names(void)
{
    char name[128];
    folded_file_name(name, sizeof name, "perf::TASK-CLOCK", 1);
    CHECK(strcmp(name, "profile.folded") == 0, "first: %s", name);
    folded_file_name(name, sizeof name, "perf::PAGE-FAULTS", 0);
    CHECK(strcmp(name, "profile.perf__PAGE-FAULTS.folded") == 0, "other: %s", name);
    folded_file_name(name, sizeof name, "a b/c.d_e", 0);
    CHECK(strcmp(name, "profile.a_b_c.d_e.folded") == 0, "odd: %s", name);
}

int main(void)
{
    lines();
    names();
    return test_done("test_folded");
}
