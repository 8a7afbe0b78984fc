/* test_many_pmus: a machine that lists more PMUs than a fixed table would hold (large
 * servers list hundreds of uncore PMUs). The test writes a recorded machine at run time
 * (TREE_DIR/many_pmus: 610 uncore PMUs uncore_x_000 .. 609, each with a cpumask, and the
 * core PMU cpu with one event), replays it (PAPI_FSROOT) and checks that every PMU is
 * read: the library once kept the first 256 in directory order and, when cpu came later,
 * said "No hardware PMU". White box: the PMU table of the perf_event component. */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "perf_event_internal.h"
#include "sysfs_pmus.h"
#include "papi_test.h"

#define UNCORE 610

__attribute__((format(printf, 2, 3))) static void put(const char *text, const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    FILE *f = text ? fopen(path, "w") : NULL;
    if (text ? !f || fputs(text, f) < 0 || fclose(f) != 0
             : mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

#define DEVS "%s/sys/bus/event_source/devices"

static void make_tree(const char *root)
{
    static const char *const parts[] = {"", "/sys", "/sys/bus", "/sys/bus/event_source",
                                        "/sys/bus/event_source/devices"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        put(NULL, "%s%s", root, parts[i]); /* NULL: a directory */
    for (int i = 0; i < UNCORE; i++) {
        char type[16];
        snprintf(type, sizeof type, "%d\n", 20 + i);
        put(NULL, DEVS "/uncore_x_%03d", root, i);
        put(type, DEVS "/uncore_x_%03d/type", root, i);
        put("0\n", DEVS "/uncore_x_%03d/cpumask", root, i);
    }
    put(NULL, DEVS "/cpu", root); /* made last: late in the directory's order */
    put(NULL, DEVS "/cpu/format", root);
    put(NULL, DEVS "/cpu/events", root);
    put("4\n", DEVS "/cpu/type", root);
    put("config:0-7\n", DEVS "/cpu/format/event", root);
    put("event=0x76\n", DEVS "/cpu/events/cpu-cycles", root);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        test_skip("usage: test_many_pmus TREE_DIR (ctest gives its binary directory)");
    char root[4096];
    snprintf(root, sizeof root, "%s/many_pmus", argv[1]);
    make_tree(root);
    setenv("PAPI_FSROOT", root, 1);
    init_or_die();

    CHECK(sysfs_pmu_count() == UNCORE + 1, "%d PMUs read, the tree lists %d", sysfs_pmu_count(),
          UNCORE + 1);
    const struct sysfs_pmu *cpu = sysfs_pmu_find("cpu", NULL);
    CHECK(cpu && cpu->kind == SYSFS_PMU_CORE && cpu->type == 4, "the core PMU cpu is not read");
    CHECK(sysfs_pmu_find("uncore_x_609", NULL) != NULL, "the last uncore PMU is not read");
    int code;
    CHECK_RET(PAPI_event_name_to_code("cpu::cpu-cycles", &code), PAPI_OK);
    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    CHECK(c && !strstr(c->disabled_reason, "No hardware PMU"), "perf_event says: %s",
          c ? c->disabled_reason : "(no info)");
    PAPI_shutdown();
    return test_done("test_many_pmus");
}
