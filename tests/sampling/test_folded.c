/* test_folded: src-c/sampling/folded.c, white box: a line written with its weights reads
 * back to the same stack and weights, frames with spaces and digits included (C++
 * signatures); lines that do not end in the weights asked for are refused; the files'
 * names, the first event's and another's with its odd characters as '_'. */
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "papi_test.h"

static void round_trip(void)
{
    const char *frames[3] = {"main", "ns::f(int, long) 2", "leaf"};
    uint64_t w[3] = {1000000, 0, 42}, back[3] = {0};
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    CHECK(f != NULL, "fmemopen");
    folded_line(f, frames, 3, w, 3);
    folded_line(f, frames, 1, w + 2, 1);
    fclose(f);
    CHECK(strcmp(buf, "main;ns::f(int, long) 2;leaf 1000000 0 42\nmain 42\n") == 0, "wrote '%s'",
          buf);
    char *second = strchr(buf, '\n') + 1;
    char *stack = folded_parse(buf, back, 3);
    CHECK(stack && strcmp(stack, "main;ns::f(int, long) 2;leaf") == 0, "stack '%s'",
          stack ? stack : "(null)");
    CHECK(back[0] == 1000000 && back[1] == 0 && back[2] == 42, "weights %llu %llu %llu",
          (unsigned long long)back[0], (unsigned long long)back[1], (unsigned long long)back[2]);
    stack = folded_parse(second, back, 1);
    CHECK(stack && strcmp(stack, "main") == 0 && back[0] == 42, "one weight");
}

static void refused(void)
{
    const char *bad[] = {"main 1 2", "main x", " 5", "main 5x", "12", ""};
    int want[] = {3, 1, 1, 1, 1, 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[64];
        uint64_t w[3];
        snprintf(line, sizeof line, "%s", bad[i]);
        CHECK(folded_parse(line, w, want[i]) == NULL, "'%s' with %d weights accepted", bad[i],
              want[i]);
    }
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
    round_trip();
    refused();
    names();
    return test_done("test_folded");
}
