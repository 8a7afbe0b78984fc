/* test_hl_api_paths: every high-level entry point through its success and error paths
 * with return codes only (no exact counts), so that it also runs under AddressSanitizer
 * and UBSan (label asan): sessions of each kind, mixing refusals, regions with nesting,
 * reads, stop and restart, the rank hook and an explicit report write. Presets from
 * test_events.csv. */
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>

#include "papi_hl_rank.h"
#include "papi_test.h"

/* Ends with a rate session or a region set running: its fds close at thread exit. */
static void *leaves_counters_running(void *arg)
{
    float rt, pt, r;
    long long c;
    if (arg) {
        CHECK_RET(PAPI_flops(&rt, &pt, &c, &r), PAPI_OK);
    } else {
        CHECK_RET(PAPI_hl_region_begin("thread_region"), PAPI_OK);
        CHECK_RET(PAPI_hl_region_end("thread_region"), PAPI_OK);
    }
    return NULL;
}

int main(void)
{
    float rt, pt, r;
    long long c, v[4] = {0}, ref, core, evt;
    int ev;
    char dir[] = "/tmp/hl_api_pathsXXXXXX";
    if (!getenv("PAPI_CSV_EVENT_FILE"))
        test_skip("needs PAPI_CSV_EVENT_FILE=tests/highlevel/test_events.csv");
    if (!mkdtemp(dir))
        test_skip("no temporary directory");
    setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
    setenv("PAPI_EVENTS", "PAPI_TOT_INS,perf::PAGE-FAULTS,NOPE", 1);

    for (int rep = 0; rep < 3; rep++) {
        CHECK_RET(PAPI_flops(&rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_flops(&rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_flips(&rt, &pt, &c, &r), PAPI_EINVAL);
        CHECK_RET(PAPI_stop_counters(v, 4), PAPI_OK);
        CHECK_RET(PAPI_flips(&rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_rate_stop(), PAPI_OK);
        CHECK_RET(PAPI_ipc(&rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_ipc(&rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_stop_counters(NULL, 0), PAPI_OK);
        CHECK_RET(PAPI_flops_rate(PAPI_SP_OPS, &rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_flops_rate(PAPI_SP_OPS, &rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_flops_rate(PAPI_VEC_DP, &rt, &pt, &c, &r), PAPI_EINVAL);
        CHECK_RET(PAPI_rate_stop(), PAPI_OK);
        CHECK_RET(PAPI_flops_rate(PAPI_VEC_DP, &rt, &pt, &c, &r), PAPI_ENOEVNT);
        CHECK_RET(PAPI_flips_rate(PAPI_VEC_INS, &rt, &pt, &c, &r), PAPI_OK);
        CHECK_RET(PAPI_rate_stop(), PAPI_OK);
        CHECK_RET(PAPI_epc(PAPI_FP_INS, &rt, &pt, &ref, &core, &evt, &r), PAPI_OK);
        CHECK_RET(PAPI_epc(PAPI_FP_INS, &rt, &pt, &ref, &core, &evt, &r), PAPI_OK);
        CHECK_RET(PAPI_epc(PAPI_TOT_CYC, &rt, &pt, &ref, &core, &evt, &r), PAPI_EINVAL);
        CHECK_RET(PAPI_rate_stop(), PAPI_OK);
        CHECK_RET(PAPI_rate_stop(), PAPI_ENOTRUN);
        CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev), PAPI_OK);
        CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_OK);
        CHECK_RET(PAPI_read_counters(v, 1), PAPI_OK);
        CHECK_RET(PAPI_accum_counters(v, 1), PAPI_OK);
        CHECK_RET(PAPI_read_counters(v, 0), PAPI_EINVAL);
        CHECK_RET(PAPI_stop_counters(v, 1), PAPI_OK);

        CHECK_RET(PAPI_hl_region_begin("a"), PAPI_OK);
        CHECK_RET(PAPI_hl_region_begin("b"), PAPI_OK);
        CHECK_RET(PAPI_hl_read("a"), PAPI_OK);
        CHECK_RET(PAPI_hl_region_end("a"), PAPI_OK); /* out of order: closes a */
        CHECK_RET(PAPI_hl_read("a"), PAPI_EINVAL);
        CHECK_RET(PAPI_hl_region_end("b"), PAPI_OK);
        for (int i = 0; i < 70; i++) { /* grows the region table past its first size */
            char name[32];
            snprintf(name, sizeof name, "r%d", i);
            CHECK_RET(PAPI_hl_region_begin(name), PAPI_OK);
            CHECK_RET(PAPI_hl_region_end(name), PAPI_OK);
        }
        CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_EISRUN); /* the regions' set runs */
        CHECK_RET(PAPI_hl_stop(), PAPI_OK);
        CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_OK);
        CHECK_RET(PAPI_hl_region_begin("c"), PAPI_EINVAL); /* counters run in this thread */
        CHECK_RET(PAPI_stop_counters(v, 1), PAPI_OK);
    }
    int fds = count_fds();
    for (long i = 0; i < 4; i++) {
        pthread_t t;
        pthread_create(&t, NULL, leaves_counters_running, (void *)(i & 1));
        pthread_join(t, NULL);
    }
    CHECK(count_fds() == fds, "fds before the threads %d, after %d", fds, count_fds());
    CHECK_RET(papi_hl_set_rank(12), PAPI_OK);
    CHECK_RET(papi_hl_write_report(), PAPI_OK);
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/papi_hl_output/rank_000012.json", dir);
    CHECK(stat(path, &st) == 0 && st.st_size > 100, "no report at %s", path);
    remove(path);
    snprintf(path, sizeof path, "%s/papi_hl_output", dir);
    rmdir(path);
    rmdir(dir);
    PAPI_shutdown();
    /* After shutdown the high-level calls start over. */
    CHECK_RET(PAPI_hl_region_begin("after"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("after"), PAPI_OK);
    CHECK_RET(PAPI_flops(&rt, &pt, &c, &r), PAPI_EINVAL); /* the regions' set runs */
    CHECK_RET(PAPI_hl_stop(), PAPI_OK);
    CHECK_RET(PAPI_flops(&rt, &pt, &c, &r), PAPI_OK);
    CHECK_RET(PAPI_stop_counters(NULL, 0), PAPI_OK);
    /* A report that cannot be written is an error (at exit: a failed exit status). */
    setenv("PAPI_OUTPUT_DIRECTORY", "/proc/no/such/dir", 1);
    CHECK_RET(papi_hl_write_report(), PAPI_ESYS);
    unsetenv("PAPI_OUTPUT_DIRECTORY"); /* the exit report goes to the working directory */
    return test_done("test_hl_api_paths");
}
