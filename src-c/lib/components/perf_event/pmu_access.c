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

#include "env.h"
#include "fsroot.h"
#include "str_append.h"
#include "hwinfo.h"
#include "pe_types.h"
#include "pmu_access.h"
#include "perf_user_read.h"
#include "sysfs_pmus.h"

#define PMU_DIR SYSFS_PMU_DIR

static int has_capability(int cap)
{
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &hdr, data) != 0)
        return 0;
    return (data[cap / 32].effective >> (cap % 32)) & 1;
}

/* Lists the PMUs sysfs has (for the explanation) and says whether a core PMU is among
 * them; *software_only is set when there are PMUs and all of them are software ones
 * (msr, which every x86 kernel has, counts as one here: libpfm4 has no table for it). */
static int list_pmus(char *names, size_t len, bool *software_only)
{
    int core = 0, soft = 0, n = sysfs_pmu_count();
    names[0] = '\0';
    for (int i = 0; i < n; i++) {
        const struct sysfs_pmu *p = sysfs_pmu_brief(i);
        soft += p->kind == SYSFS_PMU_SOFTWARE || strcmp(p->name, "msr") == 0;
        core |= p->kind == SYSFS_PMU_CORE;
        str_appendf(names, len, "%s%s", i ? ", " : "", p->name);
    }
    *software_only = n > 0 && soft == n;
    return core;
}

/* x86 answers with one cpuid (the bit /proc/cpuinfo's "hypervisor" flag shows), which
 * spares generating /proc/cpuinfo at every PAPI_library_init; elsewhere read that flag. */
static int cpu_is_virtualized(void)
{
    char hv[PAPI_MAX_STR_LEN];
    if (!fsroot_replaying() && hwinfo_cpuid_hypervisor(hv, sizeof hv))
        return 1; /* cpuid describes this machine, not a recorded one */
#if defined(__x86_64__) || defined(__i386__)
    if (!fsroot_replaying())
        return 0;
#endif
    FILE *f = fsroot_fopen("/proc/cpuinfo");
    if (!f)
        return 0;
    char line[4096];
    int v = 0;
    while (!v && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor"))
            v = 1;
    fclose(f);
    return v;
}

/* Try a user-only event of type/config; returns 0 or the errno. */
static int try_open(unsigned type, unsigned long long config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
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

/* The "Seccomp:" line of /proc/self/status: 0 none, 1 strict, 2 a filter (container
 * runtimes install one; Docker's default profile refuses perf_event_open). */
static int seccomp_mode(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    int mode = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Seccomp: %d", &mode) == 1)
            break;
    if (f)
        fclose(f);
    return mode;
}

/* perf_event_open refused for every event, software ones too (sw_err): say which of
 * seccomp, a kernel without perf events, perf_event_paranoid, a missing capability or a
 * security module is in the way, and what to change. Never claims anything counts. */
static void explain_no_perf(struct pmu_access *p, int sw_err, const char *who)
{
    int filtered = seccomp_mode() == 2;
    if (sw_err == ENOSYS && filtered) {
        snprintf(p->reason, sizeof p->reason,
                 "The perf_event_open system call is refused with ENOSYS by this process's "
                 "seccomp filter (Seccomp: 2 in /proc/self/status; container runtimes install "
                 "one): no event can be counted here, hardware or software. Allow "
                 "perf_event_open in the container's seccomp profile (e.g. docker run "
                 "--security-opt seccomp=PROFILE, or --privileged).");
    } else if (sw_err == ENOSYS) {
        snprintf(p->reason, sizeof p->reason,
                 "The perf_event_open system call does not exist here (ENOSYS): the kernel is "
                 "built without CONFIG_PERF_EVENTS, or a sandbox refuses the call. No event can "
                 "be counted, hardware or software.");
    } else if ((sw_err == EACCES || sw_err == EPERM) && !p->cap_perfmon && p->paranoid > 2) {
        snprintf(
            p->reason, sizeof p->reason,
            "perf_event_open is refused by the kernel (%s): %s, and at a level above 2 it lets "
            "no unprivileged process count anything, software events included. Lower "
            "kernel.perf_event_paranoid (2 allows counting one's own threads in user "
            "space), or run as root or with CAP_PERFMON (setcap cap_perfmon+ep).",
            strerror(sw_err), who);
    } else if ((sw_err == EACCES || sw_err == EPERM) && filtered) {
        snprintf(p->reason, sizeof p->reason,
                 "perf_event_open is refused (%s) by this process's seccomp filter (Seccomp: 2 "
                 "in /proc/self/status), not by the kernel's perf settings (%s): no event can "
                 "be counted here, hardware or software. Allow perf_event_open in the "
                 "container's seccomp profile (e.g. docker run --security-opt seccomp=PROFILE).",
                 strerror(sw_err), who);
    } else if (sw_err == EACCES || sw_err == EPERM) {
        snprintf(p->reason, sizeof p->reason,
                 "perf_event_open is refused (%s) although %s, which would allow it: a "
                 "security module (SELinux, AppArmor, kernel lockdown) is in the way. No event "
                 "can be counted here, hardware or software.",
                 strerror(sw_err), who);
    } else {
        snprintf(p->reason, sizeof p->reason,
                 "perf_event_open of a software event fails (%s); %s. No event can be counted "
                 "here.",
                 strerror(sw_err), who);
    }
}

/* Hardware events refused, software ones count (hw_err). */
static void explain_no_hardware(struct pmu_access *p, int hw_err, const char *who, const char *pmus)
{
    if ((hw_err == EACCES || hw_err == EPERM) && seccomp_mode() == 2 && p->cap_perfmon) {
        snprintf(p->reason, sizeof p->reason,
                 "Hardware counters are refused (%s) by this process's seccomp filter (Seccomp: "
                 "2 in /proc/self/status), not by the kernel's perf settings (%s). Allow "
                 "perf_event_open in the container's seccomp profile. The kernel's software "
                 "events (perf::TASK-CLOCK, perf::PAGE-FAULTS, ...) count.",
                 strerror(hw_err), who);
    } else if (hw_err == EACCES || hw_err == EPERM ||
               (p->have_cpu_pmu && p->paranoid > 2 && !p->cap_perfmon)) {
        /* Debian's kernels refuse a process without CAP_PERFMON at paranoid 3; a recorded
         * machine's setting says so for that machine. */
        snprintf(p->reason, sizeof p->reason,
                 "Hardware counters are refused by the kernel: %s. Run as root, grant "
                 "CAP_PERFMON (setcap cap_perfmon+ep), or lower kernel.perf_event_paranoid "
                 "(2 allows user-space counting of one's own threads).",
                 who);
    } else if (!p->have_cpu_pmu) {
        /* The cause in the first sentence (banners quote it alone). Context switches
         * and migrations are not offered: they happen in the kernel and read 0 in the
         * default user domain. */
        snprintf(p->reason, sizeof p->reason,
                 "No hardware PMU: %s. %s lists no CPU PMU (only: %s). Hardware events "
                 "(cycles, instructions, caches) cannot be counted here; the kernel's software "
                 "events (perf::TASK-CLOCK, perf::PAGE-FAULTS) can.",
                 cpu_is_virtualized() ? "this virtual machine's hypervisor exposes none"
                                      : "the kernel registered no CPU PMU",
                 PMU_DIR, pmus[0] ? pmus : "none");
    } else {
        snprintf(p->reason, sizeof p->reason,
                 "A CPU PMU is listed under %s but a hardware cycles/instructions event does "
                 "not open (%s); %s.",
                 PMU_DIR, strerror(hw_err), who);
    }
}

void pmu_access_probe(struct pmu_access *p)
{
    char pmus[512];
    memset(p, 0, sizeof *p);
    p->have_cpu_pmu = list_pmus(pmus, sizeof pmus, &p->software_pmus_only);
    if (fsroot_scan("/proc/sys/kernel/perf_event_paranoid", "%d", &p->paranoid) != 0)
        p->paranoid = -100;
    p->cap_perfmon = has_capability(38 /* CAP_PERFMON */) || has_capability(CAP_SYS_ADMIN);
    int ua = 0;
    if (fsroot_scan("/proc/sys/kernel/perf_user_access", "%d", &ua) == 0)
        p->user_read_allowed = ua != 0;
    else if (fsroot_scan(PMU_DIR "/cpu/rdpmc", "%d", &ua) == 0)
        p->user_read_allowed = ua != 0;
    /* The documented switch: PAPI_USER_READ=0 makes every read a read() system call. */
    const char *sw = env_get("PAPI_USER_READ");
    if (!PERF_USER_READ_ARCH || (sw && strcmp(sw, "0") == 0))
        p->user_read_allowed = false;

    int err = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
    if (err)
        err = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) ? err : 0;
    p->hw_open_works = err == 0;
    p->sw_errno = p->hw_open_works ? 0 : try_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
    /* A recorded machine above paranoid 2 (Debian's kernels) refuses an unprivileged
     * process everything, software events included: replay what its kernel would answer,
     * whatever this machine's kernel allows. */
    if (!p->hw_open_works && !p->sw_errno && fsroot_replaying() && p->paranoid > 2 &&
        !p->cap_perfmon)
        p->sw_errno = EACCES;

    char who[160];
    snprintf(who, sizeof who, "kernel.perf_event_paranoid is %d and this process %s CAP_PERFMON",
             p->paranoid, p->cap_perfmon ? "has" : "lacks");
    if (p->hw_open_works)
        p->reason[0] = '\0';
    else if (p->sw_errno)
        explain_no_perf(p, p->sw_errno, who);
    else
        explain_no_hardware(p, err, who, pmus);
    if (!p->hw_open_works && fsroot_replaying()) {
        str_appendf(p->reason, sizeof p->reason,
                    " (Replaying the recorded machine under %s=%s: its PMUs and settings are "
                    "described, but only this machine's kernel counts.)",
                    PAPI_FSROOT_ENV, fsroot());
    }
}
