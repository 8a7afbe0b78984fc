/* test_profile_writer: src-c/sampling/profile_writer.c, white box: the shared site's
 * members byte for byte as papi_run's profile (frames, counts) and the region file
 * (sampled functions) wrote them before they had one writer: a frame with its file and
 * line and one without (no "file", no "line"), a function in a region and one outside
 * every region (null), a stack's counts; and the MPI wrapper's job-wide entries: the
 * shared fields into an open object, its own after (jw_fixed: decimals, NAN as null). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "papi_test.h"
#include "profile_writer.h"

static const char want[] = "{\n"
                           "  \"frames\": [\n"
                           "    {\n"
                           "      \"name\": \"ns::f(int)\",\n"
                           "      \"module\": \"prog\",\n"
                           "      \"file\": \"a.c\",\n"
                           "      \"line\": 12\n"
                           "    },\n"
                           "    {\n"
                           "      \"name\": \"[kernel]\",\n"
                           "      \"module\": \"[kernel]\"\n"
                           "    }\n"
                           "  ],\n"
                           "  \"functions\": [\n"
                           "    {\n"
                           "      \"function\": \"work\",\n"
                           "      \"region\": \"alpha\",\n"
                           "      \"samples\": 7\n"
                           "    },\n"
                           "    {\n"
                           "      \"function\": \"main\",\n"
                           "      \"region\": null,\n"
                           "      \"samples\": 18446744073709551615\n"
                           "    }\n"
                           "  ],\n"
                           "  \"counts\": [\n"
                           "    1000000,\n"
                           "    0,\n"
                           "    42\n"
                           "  ],\n"
                           "  \"mpi\": [\n"
                           "    {\n"
                           "      \"function\": \"heavy\",\n"
                           "      \"region\": null,\n"
                           "      \"samples\": 2,\n"
                           "      \"share\": 0.666667,\n"
                           "      \"time_s\": null\n"
                           "    },\n"
                           "    {\n"
                           "      \"function\": \"waiter\",\n"
                           "      \"file\": \"m.c\",\n"
                           "      \"line\": 45,\n"
                           "      \"wall_s\": 1.000000001\n"
                           "    }\n"
                           "  ]\n"
                           "}\n";

int main(void)
{
    char buf[2048] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL, "fmemopen");
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    jw_arr_begin(&w, "frames");
    profile_frame_write(&w, &(struct profile_frame){"ns::f(int)", "prog", "a.c", 12});
    profile_frame_write(&w, &(struct profile_frame){"[kernel]", "[kernel]", NULL, 0});
    jw_arr_end(&w);
    jw_arr_begin(&w, "functions");
    profile_function_write(&w, "work", "alpha", 7);
    profile_function_write(&w, "main", NULL, 18446744073709551615ULL);
    jw_arr_end(&w);
    const uint64_t counts[3] = {1000000, 0, 42};
    profile_counts_write(&w, "counts", counts, 3);
    jw_arr_begin(&w, "mpi");
    jw_obj_begin(&w, NULL);
    profile_function_fields(&w, "heavy", NULL, 2);
    jw_fixed(&w, "share", 2.0 / 3.0, 6);
    jw_fixed(&w, "time_s", NAN, 9);
    jw_obj_end(&w);
    jw_obj_begin(&w, NULL);
    profile_site_fields(&w, "waiter", "m.c", 45);
    jw_fixed(&w, "wall_s", 1000000001.0 / 1e9, 9);
    jw_obj_end(&w);
    jw_arr_end(&w);
    jw_obj_end(&w);
    CHECK(jw_finish(&w) == 0, "jw_finish");
    fclose(f);
    CHECK(strcmp(buf, want) == 0, "wrote:\n%s", buf);
    return test_done("test_profile_writer");
}
