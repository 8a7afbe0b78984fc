/* stealtime_component.c: the "stealtime" component, the time a virtual machine's CPUs
 * waited while the hypervisor ran something else (the "steal" column of /proc/stat),
 * named as PAPI names it: stealtime:::TOTAL (the "cpu" line) and stealtime:::CPU<n+1>
 * for the line "cpu<n>" (PAPI counts from 1), in microseconds (the kernel's clock ticks
 * times 1000000 / _SC_CLK_TCK), counted from PAPI_start. The engine is node_events.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsroot.h"
#include "node_events.h"

#define STAT_FILE    "/proc/stat"
#define STEAL_COLUMN 7 /* user nice system idle iowait irq softirq steal */

static int add_cpu(struct event_table *t, const char *key, uint64_t scale)
{
    char name[64], descr[128];
    if (strcmp(key, "cpu") == 0) {
        snprintf(name, sizeof name, "TOTAL");
        snprintf(descr, sizeof descr, "Total amount of steal time (all CPUs)");
    } else {
        int cpu = atoi(key + 3);
        snprintf(name, sizeof name, "CPU%d", cpu + 1);
        snprintf(descr, sizeof descr, "Steal time of CPU %d (the line cpu%d of /proc/stat)",
                 cpu + 1, cpu);
    }
    struct node_event ev = {.name = name,
                            .descr = descr,
                            .units = "us",
                            .path = STAT_FILE,
                            .key = (char *)key,
                            .column = STEAL_COLUMN,
                            .width = 64,
                            .scale = scale};
    return node_table_add(t, &ev);
}

/* A "cpu" line must carry the steal column: a kernel before 2.6.11 or a malformed file
 * disables the component with file and line. */
static int check_line(const char *line, int lineno, char *reason, size_t len)
{
    unsigned long long v[8];
    if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]) == 8)
        return PAPI_OK;
    snprintf(reason, len, "%s%s line %d is malformed: no steal time (8th number) on it", fsroot(),
             STAT_FILE, lineno);
    return PAPI_ECMP;
}

/* arg: the microseconds of a clock tick. */
static int stealtime_line(struct event_table *t, const char *line, int lineno, void *arg,
                          char *reason, size_t len)
{
    char key[32];
    if (strncmp(line, "cpu", 3) != 0 || sscanf(line, "%31s", key) != 1)
        return PAPI_OK;
    if (strspn(key + 3, "0123456789") != strlen(key + 3))
        return PAPI_OK;
    int ret = check_line(line, lineno, reason, len);
    return ret == PAPI_OK ? add_cpu(t, key, *(const uint64_t *)arg) : ret;
}

static int stealtime_discover(struct event_table *t, char *reason, size_t len)
{
    long hz = sysconf(_SC_CLK_TCK);
    uint64_t scale = hz > 0 && hz <= 1000000 ? (uint64_t)(1000000 / hz) : 10000;
    return node_scan_lines(STAT_FILE, "/proc is not mounted", t, stealtime_line, &scale, reason,
                           len);
}

static struct node_source stealtime_source = {
    .common = {.prefix = "stealtime:::",
               .description =
                   "Steal time of a virtual machine's CPUs (/proc/stat), in microseconds"},
    .discover = stealtime_discover,
    .none_found = STAT_FILE " has no cpu line",
};

/* The instance the registry lists (components/registry.c). */
struct papi_component stealtime_component PAPI_INTERNAL =
    NODE_COMPONENT("stealtime", stealtime_source);
