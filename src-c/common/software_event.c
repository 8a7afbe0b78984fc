/* software_event.c: the perf software events by kind (software_event.h). */
#include "software_event.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum software_event_kind software_event_kind(const char *name)
{
    static const char *const fault[] = {"PAGE-FAULTS",      "FAULTS",          "MINOR-FAULTS",
                                        "MAJOR-FAULTS",     "PAGE-FAULTS-MIN", "PAGE-FAULTS-MAJ",
                                        "ALIGNMENT-FAULTS", "EMULATION-FAULTS"};
    static const char *const kernel_only[] = {"CONTEXT-SWITCHES", "CS", "CPU-MIGRATIONS",
                                              "MIGRATIONS", "CGROUP-SWITCHES"};
    char base[128];
    if (!name || strncasecmp(name, "perf::", 6) != 0 || strchr(name + 6, ':'))
        return SOFTWARE_EVENT_NONE;
    const char *b = name + 6;
    if (strncasecmp(b, "PERF_COUNT_SW_", 14) == 0)
        b += 14;
    if (strlen(b) >= sizeof base)
        return SOFTWARE_EVENT_NONE;
    snprintf(base, sizeof base, "%s", b);
    for (char *c = base; *c; c++) /* libpfm4 spells them both ways */
        *c = *c == '_' ? '-' : (char)toupper((unsigned char)*c);
    for (size_t i = 0; i < sizeof kernel_only / sizeof *kernel_only; i++)
        if (strcmp(base, kernel_only[i]) == 0)
            return SOFTWARE_EVENT_KERNEL_ONLY;
    if (strcmp(base, "TASK-CLOCK") == 0 || strcmp(base, "CPU-CLOCK") == 0)
        return SOFTWARE_EVENT_CLOCK;
    for (size_t i = 0; i < sizeof fault / sizeof *fault; i++)
        if (strcmp(base, fault[i]) == 0)
            return SOFTWARE_EVENT_FAULT;
    return SOFTWARE_EVENT_NONE;
}

int software_event_all_modes(const char *name, char *out, size_t len)
{
    int n = snprintf(out, len, "%s:u=1:k=1", name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}
