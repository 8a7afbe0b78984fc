/* pmu_access.c: can this process use hardware counters, and if not, exactly why.
 * Decided from what perf_event_open answers, the capabilities and the sysfs PMU list,
 * not from perf_event_paranoid alone (root and CAP_PERFMON are not bound by it). */
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hwinfo_internal.h"
#include "perf_event_internal.h"
#include "perf_user_read.h"

#define PMU_DIR "/sys/bus/event_source/devices"

int pe_scan_file(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(f, fmt, ap);
    va_end(ap);
    fclose(f);
    return n == 1 ? 0 : -1;
}

static int has_capability(int cap)
{
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &hdr, data) != 0)
        return 0;
    return (data[cap / 32].effective >> (cap % 32)) & 1;
}

static int is_core_pmu_name(const char *n)
{
    return strcmp(n, "cpu") == 0 || strcmp(n, "cpu_core") == 0 || strcmp(n, "cpu_atom") == 0 ||
           strncmp(n, "armv8", 5) == 0 || strncmp(n, "armv7", 5) == 0 ||
           strncmp(n, "arm_", 4) == 0 || strcmp(n, "cpum_cf") == 0 || strncmp(n, "power", 5) == 0;
}

/* PMUs every kernel has, whose events libpfm4 knows only through its "perf" table. */
static int is_software_pmu_name(const char *n)
{
    static const char *const soft[] = {"software", "tracepoint", "kprobe", "uprobe",
                                       "breakpoint", "msr"};
    for (size_t i = 0; i < sizeof soft / sizeof soft[0]; i++)
        if (strcmp(n, soft[i]) == 0)
            return 1;
    return 0;
}

/* Lists the PMUs sysfs has (for the explanation) and says whether a core PMU is among
 * them; *software_only is set when there are PMUs and all of them are software ones. */
static int list_pmus(char *names, size_t len, bool *software_only)
{
    int core = 0, seen = 0, soft = 0;
    names[0] = '\0';
    *software_only = false;
    DIR *d = opendir(PMU_DIR);
    if (!d)
        return 0;
    struct dirent *de;
    size_t used = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        seen++;
        soft += is_software_pmu_name(de->d_name);
        core |= is_core_pmu_name(de->d_name);
        int n = snprintf(names + used, len - used, "%s%s", used ? ", " : "", de->d_name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    closedir(d);
    *software_only = seen > 0 && soft == seen;
    return core;
}

/* x86 answers with one cpuid (the bit /proc/cpuinfo's "hypervisor" flag shows), which
 * spares generating /proc/cpuinfo at every PAPI_library_init; elsewhere read that flag. */
static int cpu_is_virtualized(void)
{
    char hv[PAPI_MAX_STR_LEN];
    if (hwinfo_cpuid_hypervisor(hv, sizeof hv))
        return 1;
#if defined(__x86_64__) || defined(__i386__)
    return 0;
#else
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return 0;
    char line[4096];
    int v = 0;
    while (!v && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor"))
            v = 1;
    fclose(f);
    return v;
#endif
}

/* Try a user-only hardware event; returns 0 or the errno. */
static int try_hw_open(unsigned long long config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    int fd = perf_syscall_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

void pmu_access_probe(struct pmu_access *p)
{
    char pmus[512];
    memset(p, 0, sizeof *p);
    p->have_cpu_pmu = list_pmus(pmus, sizeof pmus, &p->software_pmus_only);
    if (pe_scan_file("/proc/sys/kernel/perf_event_paranoid", "%d", &p->paranoid) != 0)
        p->paranoid = -100;
    p->cap_perfmon = has_capability(38 /* CAP_PERFMON */) || has_capability(CAP_SYS_ADMIN);
    int ua = 0;
    if (pe_scan_file("/proc/sys/kernel/perf_user_access", "%d", &ua) == 0)
        p->user_read_allowed = ua != 0;
    else if (pe_scan_file(PMU_DIR "/cpu/rdpmc", "%d", &ua) == 0)
        p->user_read_allowed = ua != 0;
    /* The documented switch: PAPI_USER_READ=0 makes every read a read() system call. */
    const char *sw = getenv("PAPI_USER_READ");
    if (!PERF_USER_READ_ARCH || (sw && strcmp(sw, "0") == 0))
        p->user_read_allowed = false;

    int err = try_hw_open(PERF_COUNT_HW_CPU_CYCLES);
    if (err)
        err = try_hw_open(PERF_COUNT_HW_INSTRUCTIONS) ? err : 0;
    p->hw_open_works = err == 0;

    char who[160];
    snprintf(who, sizeof who, "kernel.perf_event_paranoid is %d and this process %s CAP_PERFMON",
             p->paranoid, p->cap_perfmon ? "has" : "lacks");
    if (p->hw_open_works) {
        p->reason[0] = '\0';
    } else if (err == EACCES || err == EPERM) {
        snprintf(p->reason, sizeof p->reason,
                 "Hardware counters are refused by the kernel: %s. Run as root, grant "
                 "CAP_PERFMON (setcap cap_perfmon+ep), or lower kernel.perf_event_paranoid "
                 "(2 allows user-space counting of one's own threads).",
                 who);
    } else if (!p->have_cpu_pmu) {
        snprintf(p->reason, sizeof p->reason,
                 "No hardware PMU: %s lists no CPU PMU (only: %s)%s. Hardware events "
                 "(cycles, instructions, caches) cannot be counted here; the kernel's software "
                 "events (perf::TASK-CLOCK, perf::PAGE-FAULTS, perf::CONTEXT-SWITCHES, ...) can.",
                 PMU_DIR, pmus[0] ? pmus : "none",
                 cpu_is_virtualized()
                     ? "; this is a virtual machine whose hypervisor exposes no PMU"
                     : "");
    } else {
        snprintf(p->reason, sizeof p->reason,
                 "A CPU PMU is listed under %s but a hardware cycles/instructions event does "
                 "not open (%s); %s.",
                 PMU_DIR, strerror(err), who);
    }
}
