/* Example: the preset events: which ones count here, what one is made of, and presets
 * defined by the program (from a CSV file as papi_decode prints it, or one at a time).
 * To show the mechanism on any machine, the definitions use the kernel's software events.
 * Shows: PAPI_enum_event PAPI_get_event_info PAPI_encode_events PAPI_set_event_info */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long long count_pages(int code, long n)
{
    int es = PAPI_NULL;
    long long v = -1, page = sysconf(_SC_PAGESIZE);
    if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, code) != PAPI_OK ||
        PAPI_start(es) != PAPI_OK)
        return -1;
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        madvise(p, n * page, MADV_NOHUGEPAGE); /* 4 KiB pages even with THP "always" */
    for (long i = 0; p != MAP_FAILED && i < n; i++)
        p[i * page] = 1; /* n fresh pages: n page faults */
    if (PAPI_stop(es, &v) != PAPI_OK)
        v = -1;
    munmap(p, n * page);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return v;
}

int main(void)
{
    int code = PAPI_PRESET_MASK, avail = 0, ret;
    PAPI_event_info_t info;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    /* Every preset of the table; count > 0: it has a definition on this machine. */
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
        do
            avail += PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0;
        while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    printf("%d presets are defined for this machine\n", avail);

    /* A CSV file: name, derivation, postfix, short and long description, note, natives. */
    char file[] = "/tmp/presetsXXXXXX";
    int fd = mkstemp(file);
    const char *csv = "PAPI_L3_TCA,NOT_DERIVED,,\"L3 accesses\",\"L3 accesses (here: page faults)\","
                      "\"defined by the example\",perf::PAGE-FAULTS\n";
    if (fd < 0 || write(fd, csv, strlen(csv)) != (ssize_t)strlen(csv))
        return 1;
    close(fd);
    ret = PAPI_encode_events(file, 1); /* 1: replace a definition the table has */
    unlink(file);
    if (ret != PAPI_OK || PAPI_get_event_info(PAPI_L3_TCA, &info) != PAPI_OK)
        return 1;
    printf("%s = %s (%s): %lld for 100 pages\n", info.symbol, info.name[0], info.derived,
           count_pages(PAPI_L3_TCA, 100));

    /* One preset from a PAPI_event_info_t: (page faults + minor faults) / 2. */
    memset(&info, 0, sizeof info);
    info.event_code = PAPI_PRESET_MASK;
    strcpy(info.symbol, "PAPI_L3_TCM");
    strcpy(info.derived, "DERIVED_POSTFIX");
    strcpy(info.postfix, "N0|N1|+|2|/|");
    info.count = 2;
    strcpy(info.name[0], "perf::PAGE-FAULTS");
    strcpy(info.name[1], "perf::MINOR-FAULTS");
    if (PAPI_set_event_info(&info, &code, 1) != PAPI_OK || code != PAPI_L3_TCM)
        return 1;
    printf("PAPI_L3_TCM = %s: %lld for 100 pages\n", info.postfix, count_pages(code, 100));
    return 0;
}
