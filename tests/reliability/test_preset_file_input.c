/* test_preset_file_input: PAPI_CSV_EVENT_FILE is read safely: a FIFO is refused at once
 * (it blocked the first preset lookup forever), a file past the documented 64 MiB is
 * refused by its size, and a file of repeated lines costs memory for its distinct
 * presets only (it took ~90x its size). */
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "papi_test.h"

static char dir[] = "/tmp/papi_csv_input_XXXXXX";

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Initialise with PAPI_CSV_EVENT_FILE=path and return PAPI_L2_DCM's info. */
static int lookup(const char *path, PAPI_event_info_t *info)
{
    setenv("PAPI_CSV_EVENT_FILE", path, 1);
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    int ret = PAPI_get_event_info(PAPI_L2_DCM, info);
    PAPI_shutdown();
    return ret;
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: the preset lookup blocked on a FIFO\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

int main(void)
{
    PAPI_event_info_t info;
    char path[256];
    if (!mkdtemp(dir))
        test_skip("no temporary directory");
    signal(SIGALRM, on_alarm);

    snprintf(path, sizeof path, "%s/fifo.csv", dir);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo");
    alarm(20);
    lookup(path, &info);
    alarm(0);
    CHECK(info.count == 0 && strstr(info.note, "not a regular file"), "FIFO: count %u note '%s'",
          info.count, info.note);
    unlink(path);

    snprintf(path, sizeof path, "%s/huge.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("CPU,generic\n", f);
    fclose(f);
    CHECK(truncate(path, (64LL << 20) + 1) == 0, "truncate"); /* sparse: costs no disk */
    lookup(path, &info);
    CHECK(info.count == 0 && strstr(info.note, "larger than 64 MiB"), "64 MiB + 1: note '%s'",
          info.note);
    unlink(path);

    /* 20 MB of one repeated definition. */
    snprintf(path, sizeof path, "%s/repeated.csv", dir);
    f = fopen(path, "w");
    fputs("CPU,generic\n", f);
    static const char line[] = "PRESET,PAPI_L2_DCM,NOT_DERIVED,perf::PAGE-FAULTS\n";
    for (int i = 0; i < 400000; i++)
        fputs(line, f);
    fclose(f);
    long before = max_rss_kb();
    CHECK_RET(lookup(path, &info), PAPI_OK);
    long grew_mb = (max_rss_kb() - before) / 1024;
    printf("20 MB of repeated lines: peak memory grew by %ld MB\n", grew_mb);
    CHECK(info.count == 1, "the repeated preset is not defined: %s", info.note);
    CHECK(grew_mb < 64, "memory grew by %ld MB for a 20 MB file of one preset", grew_mb);
    unlink(path);
    rmdir(dir);
    return test_done("test_preset_file_input");
}
